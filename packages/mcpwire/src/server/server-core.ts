// The server definition's core: tools, extensions, middleware and its method table, serving requests
// one at a time without sessions, in either protocol era. `Server` (server.ts) adds handshake-era
// sessions (any transport), resources, prompts, completions and a default JSON Schema validator; a
// ServerCore leaves them all out of the bundle (issue 14: a tools server on the edge).

import type { JsonObject, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { MethodTable } from '../protocol/method-table.ts';
import type {
  Implementation,
  ServerCapabilities,
  SubscriptionsListenResult,
} from '../protocol/types/index.ts';
import type { ServedEras } from '../protocol/revisions.ts';
import type { JsonSchemaValidator, SchemaInput } from '../validation/index.ts';
import type { RequestServer, RequestVia } from '../transports/channel.ts';
import { runMiddleware, type Middleware, type RequestContext } from './context.ts';
import type { ExtensionHost, ServerExtension } from './extension.ts';
import {
  CORE_HANDLERS,
  PLAIN_HANDLERS,
  type FeatureHandlers,
  type PlainHandler,
  type RequestOrigin,
  type ServerMethodHandler,
} from './method-handlers.ts';
import type { Prompts } from './prompts.ts';
import type { Registration } from './registry.ts';
import type { Resources } from './resources.ts';
import { serveRequest } from './serve.ts';
import type { CacheDefaults } from './cache-hints.ts';
import { serveListen, type ListenSource } from './listen.ts';
import type { ListenFeed } from './listen-feed.ts';
import type { StatelessRequest, StatelessStream } from './stateless.ts';
import { RequestStateSealer, type RequestStateKeys } from './request-state.ts';
import { Tools, type ToolDefinition, type ToolHandler } from './tools.ts';

/** Options for a server definition. */
export interface ServerCoreOptions {
  /** Usage hints for the model (`InitializeResult.instructions`, IMPL-3). */
  instructions?: string;
  /** Extra capabilities to declare (e.g. `experimental`); features you register are declared for you. */
  capabilities?: ServerCapabilities;
  /**
   * JSON Schema validator for tool arguments and output given as JSON Schema (a Standard Schema, such as
   * zod's, validates with its own `~standard.validate` instead): one from `mcpwire/validators/ajv` or
   * `mcpwire/validators/cfworker`. A ServerCore has none by default, and refuses a JSON Schema tool
   * without one; `Server` picks one for the runtime.
   */
  validator?: JsonSchemaValidator;
  /** Items per page of a list result; default 100. */
  pageSize?: number;
  /**
   * Keys for the HMAC that protects multi-round-trip `requestState` (S26-MRTR-4): the first signs,
   * all verify, so keys can be rotated. Default: a random key per process (fine for one stdio
   * process; give every node the same keys behind a load balancer).
   */
  requestState?: RequestStateKeys;
  /** Caching hints for stateless-era results (S26-CACHE); see `cache-hints.ts` for the defaults. */
  cache?: CacheDefaults;
  /** Local diagnostics: bad input, handler crashes (a tool's thrown error too), failed sends. Default: stderr. */
  onError?: (error: Error) => void;
  /**
   * Extensions to serve (S26-EXT; disabled unless listed, S26-EXT-4), e.g. `skills(...)` of
   * `mcpwire/extensions/skills`: their methods join the method table, their handlers the server's.
   */
  extensions?: readonly ServerExtension[];
  /**
   * The eras it speaks: `both` (default), `handshake` (as a 2025 server: `server/discover` is an
   * unknown method, a 2026-07-28 envelope is ignored) or `stateless` (`initialize` refused with
   * -32022). Also settable afterwards through `eras`.
   */
  eras?: ServedEras;
}

/** What `Server` gives its core: the resources and prompts registries and their methods' handlers. */
export interface ServerFeatures {
  readonly resources: Resources;
  readonly prompts: Prompts;
  readonly handlers: FeatureHandlers;
}

/**
 * The core of an MCP server definition: tools, extensions and middleware, serving each request on
 * its own in either era (`serveRequest`): the stateless era as always, the handshake era without
 * sessions (`createHttpHandler(core, { sessions: false })`). `Server` of `mcpwire/server` is this
 * plus sessions on any transport, resources, prompts and completions; build on ServerCore for the
 * smallest bundle of a tools server (Workers and other edge runtimes).
 */
export class ServerCore implements RequestServer {
  readonly info: Implementation;
  readonly options: ServerCoreOptions;
  readonly tools: Tools;
  /** The resources registry; undefined on a ServerCore (`Server` has one). */
  readonly resources: Resources | undefined;
  /** The prompts registry; undefined on a ServerCore (`Server` has one). */
  readonly prompts: Prompts | undefined;
  readonly pageSize: number;
  /** Seals and opens 2026-07-28 `requestState`; replaced by `setRequestStateKeys`. */
  sealer: RequestStateSealer;
  /** The methods this server knows: the core table plus its extensions' rows. */
  readonly methods: MethodTable;
  /** The notification kinds extensions add to listen streams. */
  readonly listenFeeds: readonly ListenFeed[];
  /**
   * The eras it speaks on every transport (see `ServerCoreOptions.eras`); may be set before the
   * server is connected or mounted (e.g. by a command line flag on a server built elsewhere).
   */
  eras: ServedEras;
  /** Every handler by method: the core's and the extensions' (a prototype-less object, one lookup). */
  readonly #handlers: Readonly<Record<string, ServerMethodHandler>>;
  /** The plain-value twins (PLAIN_HANDLERS) of the methods whose handler is still the core one. */
  readonly #plainHandlers: Readonly<Record<string, PlainHandler>>;
  // Made on first use: Cloudflare Workers forbid an AbortController at module scope, where a Server is built.
  #closing: AbortController | undefined;
  #isClosed = false;
  #capabilities: ServerCapabilities | undefined;
  #capabilitiesAt: Map<string, { base: ServerCapabilities; value: ServerCapabilities }> | undefined;
  #updateListeners = new Set<(uri: string) => void>();
  /** Listen streams' listeners of what other nodes raised (`relay*`: from an HTTP handler's bus). */
  #relayedUpdates = new Set<(uri: string) => void>();
  #relayedLists = new Set<(kind: 'tools' | 'prompts' | 'resources') => void>();
  #listenSource: ListenSource | undefined;
  #middleware: Middleware[] = [];

  /** `features` is for `Server`, which passes its resources, prompts and completions. */
  constructor(info: Implementation, options: ServerCoreOptions = {}, features?: ServerFeatures) {
    this.info = info;
    this.options = options;
    this.tools = new Tools(options.validator, { report: (error) => this.reportError(error) });
    this.resources = features?.resources;
    this.prompts = features?.prompts;
    this.pageSize = options.pageSize ?? 100;
    this.eras = options.eras ?? 'both';
    this.onListChanged(() => (this.#capabilities = undefined));
    this.sealer = options.requestState
      ? new RequestStateSealer(options.requestState)
      : RequestStateSealer.random();
    const extensions = options.extensions ?? [];
    this.methods = extensions.reduce(
      (table, extension) => table.with(extension.methods, `Extension "${extension.id}"`),
      MethodTable.core,
    );
    [this.#handlers, this.#plainHandlers] = handlerTables(extensions, features?.handlers);
    this.listenFeeds = extensions.flatMap((extension) => extension.server?.listen ?? []);
    const host: ExtensionHost = {
      tools: this.tools,
      resource: (definition, handler) => {
        if (!this.resources)
          throw new TypeError(
            `An extension registers the resource "${definition.name}": build the server with Server from mcpwire/server, which serves resources (a ServerCore does not)`,
          );
        return this.resources.add(definition, handler);
      },
    };
    for (const extension of extensions) extension.server?.attach?.(host);
  }

  /** Registers a tool. */
  tool<In extends SchemaInput, Out extends SchemaInput>(
    definition: ToolDefinition<In, Out>,
    handler: ToolHandler<In>,
  ): Registration<ToolDefinition> {
    return this.tools.add(definition, handler);
  }

  /** The wire `inputSchema` of a registered tool, or undefined (the HTTP handlers' `ToolSchemaSource`). */
  toolInputSchema(name: string): object | undefined {
    return this.tools.inputSchemaOf(name);
  }

  /**
   * Replaces the keys that seal 2026-07-28 `requestState` (S26-MRTR-4), as the `requestState` option
   * sets them: every node behind one balancer needs the same keys (e.g. `@mcpwire/redis`'s
   * `requestStateKeys()`), or a round sealed by one node is refused by another. States sealed with
   * the keys before are refused after, unless those keys are among the new ones.
   */
  setRequestStateKeys(keys: RequestStateKeys): void {
    this.sealer = new RequestStateSealer(keys);
  }

  /** Adds middleware around every inbound request, on every connection. */
  use(middleware: Middleware): void {
    this.#middleware.push(middleware);
  }

  /** The capabilities this definition declares now (cached until a registration changes; do not mutate). */
  capabilities(): ServerCapabilities {
    return (this.#capabilities ??= this.#computeCapabilities());
  }

  /**
   * The capabilities declared to a client speaking `version` (handshake-era `initialize`): these,
   * plus what extensions declare only in that revision (cached per revision; do not mutate).
   */
  capabilitiesAt(version: string): ServerCapabilities {
    const base = this.capabilities();
    const extensions = this.options.extensions ?? [];
    if (!extensions.some((extension) => extension.server?.capabilities !== undefined)) return base;
    const cache = (this.#capabilitiesAt ??= new Map());
    let declared = cache.get(version);
    if (declared?.base === base) return declared.value;
    const value: ServerCapabilities = { ...base };
    for (const { server } of extensions)
      for (const [key, setting] of Object.entries(server?.capabilities?.(version) ?? {}))
        (value as JsonObject)[key] ??= setting as JsonObject;
    declared = { base, value };
    cache.set(version, declared);
    return value;
  }

  #computeCapabilities(): ServerCapabilities {
    const declared: ServerCapabilities = { ...this.options.capabilities };
    if (!this.tools.registry.isEmpty) declared.tools = { listChanged: true, ...declared.tools };
    if (this.resources && !this.resources.isEmpty)
      declared.resources = { subscribe: true, listChanged: true, ...declared.resources };
    if (this.prompts && !this.prompts.registry.isEmpty)
      declared.prompts = { listChanged: true, ...declared.prompts };
    const extensions = this.options.extensions ?? [];
    for (const { server } of extensions)
      for (const [key, value] of Object.entries(server?.requires ?? {}))
        (declared as JsonObject)[key] ??= value as JsonObject;
    if (declared.prompts || declared.resources) declared.completions = { ...declared.completions };
    declared.logging = { ...declared.logging };
    // S26-EXT-1: each extension's settings sit directly under its id.
    for (const { id, server } of extensions)
      if (server) declared.extensions = { ...declared.extensions, [id]: server.settings() };
    return declared;
  }

  /**
   * Serves one request without a session, in either era: `via` says in which handshake-era revision
   * and carries its notifications. Resolves with the response (errors included).
   */
  serveRequest(request: JsonRpcRequest, via: RequestVia): Promise<JsonRpcResponse> {
    return serveRequest(this, request, via);
  }

  /** Tells every subscribed client (either era) that a resource changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void {
    for (const listener of this.#updateListeners) listener(uri);
  }

  /** Subscribes to resource updates; returns the unsubscribe function. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  }

  /** Subscribes to list changes of any kind; returns the unsubscribe function. */
  onListChanged(listener: (kind: 'tools' | 'prompts' | 'resources') => void): () => void {
    const off = [this.tools.registry.onChange(() => listener('tools'))];
    if (this.prompts) off.push(this.prompts.registry.onChange(() => listener('prompts')));
    if (this.resources) off.push(this.resources.onChange(() => listener('resources')));
    return () => off.forEach((fn) => fn());
  }

  /** Aborts when the server closes: stateless-era listen streams end gracefully. */
  get closing(): AbortSignal {
    this.#closing ??= new AbortController();
    if (this.#isClosed) this.#closing.abort();
    return this.#closing.signal;
  }

  /** Serves a stateless-era `subscriptions/listen` on its request's stream. */
  listen(request: StatelessRequest, stream: StatelessStream): Promise<SubscriptionsListenResult> {
    return serveListen((this.#listenSource ??= this.#makeListenSource()), request, stream);
  }

  /**
   * Tells this server's listen streams that a list changed on another node of the same definition
   * (an HTTP handler relays it from its message bus); no `onListChanged` listener hears it, so it is
   * not published again. `Server` tells its handshake-era sessions too.
   */
  relayListChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    for (const listener of this.#relayedLists) listener(kind);
  }

  /** Tells this server's listen streams that a resource changed on another node (see `relayListChanged`). */
  relayResourceUpdated(uri: string): void {
    for (const listener of this.#relayedUpdates) listener(uri);
  }

  /** What listen streams draw on: this server's own changes and those relayed from other nodes. */
  #makeListenSource(): ListenSource {
    const both = <T>(own: (listener: T) => () => void, relayed: Set<T>) => {
      return (listener: T): (() => void) => {
        const off = own(listener);
        relayed.add(listener);
        return () => {
          off();
          relayed.delete(listener);
        };
      };
    };
    const closing = (): AbortSignal => this.closing;
    return {
      info: this.info,
      capabilities: () => this.capabilities(),
      onListChanged: both((listener) => this.onListChanged(listener), this.#relayedLists),
      onResourceUpdated: both((listener) => this.onResourceUpdated(listener), this.#relayedUpdates),
      get closing() {
        return closing();
      },
      listenFeeds: this.listenFeeds,
    };
  }

  /** Ends listen streams gracefully (`Server` then closes its sessions). */
  async close(): Promise<void> {
    this.#isClosed = true;
    this.#closing?.abort();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }

  /**
   * Runs one request, in either era, through the middleware chain and the handler table (core and
   * extension methods alike). The inbound check has passed; `origin` says where it arrived.
   */
  dispatch(
    method: string,
    params: JsonObject,
    ctx: RequestContext,
    origin: RequestOrigin,
  ): Promise<JsonObject> | JsonObject {
    // No middleware, no runner: most servers have none, and this is every request's path. Where the
    // method's handler is still the core one, its plain twin may answer without a promise.
    if (this.#middleware.length === 0) {
      const plain = this.#plainHandlers[method];
      if (plain !== undefined) return plain(params, ctx, origin);
      const handler = this.#handlers[method];
      return handler ? handler(params, ctx, origin) : methodNotFound(method);
    }
    const handler = this.#handlers[method];
    return runMiddleware(this.#middleware, { method, params, ctx }, () =>
      handler ? handler(params, ctx, origin) : methodNotFound(method),
    );
  }

  /** Reports a local diagnostic. */
  reportError(error: Error): void {
    if (this.options.onError) this.options.onError(error);
    else console.error(`[mcpwire server] ${error.message}`, error.cause ?? '');
  }
}

function methodNotFound(method: string): Promise<never> {
  return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `Method not found: "${method}"`));
}

/**
 * The core handlers, the features' (if any) and each extension's; an extension method a client sends
 * must have one. A feature method a ServerCore lacks is never reached: its capability is not declared.
 * Second, the plain twins (PLAIN_HANDLERS) of the core methods that no extension replaced and whose
 * every wrap has a plain twin (`plainWraps`), wrapped the same way in the same order.
 */
function handlerTables(
  extensions: readonly ServerExtension[],
  features: FeatureHandlers | undefined,
): [Readonly<Record<string, ServerMethodHandler>>, Readonly<Record<string, PlainHandler>>] {
  // The one place the core handlers, each typed from its row (CoreHandler), join the untyped table
  // dispatch reads by name: dispatch calls a handler only after checkInbound checked its params
  // against that same row.
  const table = Object.assign(
    Object.create(null) as Record<string, ServerMethodHandler>,
    CORE_HANDLERS,
    features,
  );
  const plain = Object.assign(Object.create(null) as Record<string, PlainHandler>, PLAIN_HANDLERS);
  for (const { id, methods, server } of extensions) {
    for (const [method, spec] of Object.entries(methods)) {
      if (spec.kind !== 'request' || spec.sender === 'server') continue;
      const handler = server?.handlers[method];
      if (!handler)
        throw new TypeError(`Extension "${id}" describes "${method}" but gives the server no handler for it`);
      table[method] = handler;
      delete plain[method];
    }
  }
  for (const { id, server } of extensions) {
    for (const [method, wrap] of Object.entries(server?.wraps ?? {})) {
      const next = table[method];
      if (!next) throw new TypeError(`Extension "${id}" wraps "${method}", which this server does not serve`);
      table[method] = wrap(next);
      const plainNext = plain[method];
      const plainWrap = server?.plainWraps?.[method];
      if (plainNext !== undefined && plainWrap !== undefined) plain[method] = plainWrap(plainNext);
      else delete plain[method];
    }
  }
  return [table, plain];
}

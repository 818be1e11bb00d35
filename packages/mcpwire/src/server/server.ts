// The server definition: what it offers (tools, resources, prompts), its method table and middleware.
// One definition serves any number of connections, in either protocol era.

import type { JsonObject } from '../jsonrpc/message.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import type { Implementation, ServerCapabilities } from '../protocol/types/index.ts';
import { createDefaultValidator } from '#default-validator';
import type { JsonSchemaValidator, SchemaInput } from '../validation/index.ts';
import type { Channel } from '../transports/channel.ts';
import { complete } from './completion.ts';
import { runMiddleware, type MethodHandler, type Middleware, type RequestContext } from './context.ts';
import { Prompts, type PromptDefinition, type PromptHandler } from './prompts.ts';
import type { Registration } from './registry.ts';
import { Resources, type ResourceDefinition, type ResourceHandler } from './resources.ts';
import { ServerSession } from './server-session.ts';
import type { CacheDefaults } from './cache-hints.ts';
import { serveListen } from './listen.ts';
import type { ModernRequest, ModernStream } from './modern.ts';
import { RequestStateSealer, type RequestStateKeys } from './request-state.ts';
import { Tools, type ToolDefinition, type ToolHandler } from './tools.ts';

/** Options for a server definition. */
export interface ServerOptions {
  /** Usage hints for the model (`InitializeResult.instructions`, IMPL-3). */
  instructions?: string;
  /** Extra capabilities to declare (e.g. `experimental`); features you register are declared for you. */
  capabilities?: ServerCapabilities;
  /**
   * JSON Schema validator for tool arguments and output given as JSON Schema (a Standard Schema, such as
   * zod's, validates with its own `~standard.validate` instead). Default: Ajv (2020-12, draft-07), or `createCfWorkerValidator()` where code generation is
   * forbidden and in bundles for edge runtimes; pass one from `mcpwire/validators/ajv` or
   * `mcpwire/validators/cfworker` to choose.
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
  /** Local diagnostics: bad input, handler crashes, failed sends. Default: stderr. */
  onError?: (error: Error) => void;
}

/** The inbound methods every era shares, served from the registrations. The table is exhaustive. */
const FEATURE_METHODS = {
  'tools/list': (server, params) => Promise.resolve(server.tools.list(params, server.pageSize)),
  'tools/call': (server, params, ctx) => server.tools.call(params, ctx),
  'resources/list': (server, params, ctx) => server.resources.list(params, server.pageSize, ctx),
  'resources/templates/list': (server, params) =>
    Promise.resolve(server.resources.listTemplates(params, server.pageSize)),
  'resources/read': (server, params, ctx) => server.resources.read(params, ctx),
  'prompts/list': (server, params) => Promise.resolve(server.prompts.list(params, server.pageSize)),
  'prompts/get': (server, params, ctx) => server.prompts.get(params, ctx),
  'completion/complete': (server, params, ctx) => complete(params, ctx, server),
} satisfies Record<string, (server: Server, params: JsonObject, ctx: RequestContext) => Promise<JsonObject>>;

/**
 * An MCP server definition. Register tools, resources and prompts (at any time: connected clients
 * hear list_changed), add middleware, then connect it to channels.
 */
export class Server {
  readonly info: Implementation;
  readonly options: ServerOptions;
  readonly tools: Tools;
  readonly resources: Resources;
  readonly prompts: Prompts;
  readonly pageSize: number;
  readonly sealer: RequestStateSealer;
  // Made on first use: Cloudflare Workers forbid an AbortController at module scope, where a Server is built.
  #closing: AbortController | undefined;
  #isClosed = false;
  #capabilities: ServerCapabilities | undefined;
  #updateListeners = new Set<(uri: string) => void>();
  #middleware: Middleware[] = [];
  #sessions = new Set<ServerSession>();

  constructor(info: Implementation, options: ServerOptions = {}) {
    this.info = info;
    this.options = options;
    const validator = options.validator ?? createDefaultValidator();
    this.tools = new Tools(validator);
    this.resources = new Resources();
    this.prompts = new Prompts();
    this.pageSize = options.pageSize ?? 100;
    this.onListChanged((kind) => {
      this.#capabilities = undefined;
      for (const session of this.#sessions) session.listChanged(kind);
    });
    this.sealer = options.requestState
      ? new RequestStateSealer(options.requestState)
      : RequestStateSealer.random();
  }

  /** Registers a tool. */
  tool<In extends SchemaInput, Out extends SchemaInput>(
    definition: ToolDefinition<In, Out>,
    handler: ToolHandler<In>,
  ): Registration<ToolDefinition> {
    return this.tools.add(definition, handler);
  }

  /** Registers a resource (`uri`) or a resource template (`uriTemplate`). */
  resource(definition: ResourceDefinition, handler: ResourceHandler): Registration<ResourceDefinition> {
    return this.resources.add(definition, handler);
  }

  /** Registers a prompt. */
  prompt(definition: PromptDefinition, handler: PromptHandler): Registration<PromptDefinition> {
    return this.prompts.add(definition, handler);
  }

  /** The wire `inputSchema` of a registered tool (transports use it to check `Mcp-Param-*` headers). */
  toolInputSchema(name: string): object | undefined {
    return this.tools.inputSchemaOf(name);
  }

  /** Adds middleware around every inbound request, on every connection. */
  use(middleware: Middleware): void {
    this.#middleware.push(middleware);
  }

  /** The capabilities this definition declares now (cached until a registration changes; do not mutate). */
  capabilities(): ServerCapabilities {
    return (this.#capabilities ??= this.#computeCapabilities());
  }

  #computeCapabilities(): ServerCapabilities {
    const declared: ServerCapabilities = { ...this.options.capabilities };
    if (!this.tools.registry.isEmpty) declared.tools = { listChanged: true, ...declared.tools };
    if (!this.resources.isEmpty)
      declared.resources = { subscribe: true, listChanged: true, ...declared.resources };
    if (!this.prompts.registry.isEmpty) declared.prompts = { listChanged: true, ...declared.prompts };
    if (declared.prompts || declared.resources) declared.completions = { ...declared.completions };
    declared.logging = { ...declared.logging };
    return declared;
  }

  /** Serves one handshake-era (or dual-era) connection. The session starts receiving immediately. */
  connect(channel: Channel): ServerSession {
    const session = new ServerSession(this, channel, () => this.#sessions.delete(session));
    this.#sessions.add(session);
    session.start();
    return session;
  }

  /** Tells every subscribed client (either era) that a resource changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void {
    for (const session of this.#sessions) session.resourceUpdated(uri);
    for (const listener of this.#updateListeners) listener(uri);
  }

  /** Subscribes to resource updates; returns the unsubscribe function. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    this.#updateListeners.add(listener);
    return () => this.#updateListeners.delete(listener);
  }

  /** Subscribes to list changes of any kind; returns the unsubscribe function. */
  onListChanged(listener: (kind: 'tools' | 'prompts' | 'resources') => void): () => void {
    const off = [
      this.tools.registry.onChange(() => listener('tools')),
      this.prompts.registry.onChange(() => listener('prompts')),
      this.resources.onChange(() => listener('resources')),
    ];
    return () => off.forEach((fn) => fn());
  }

  /** Aborts when the server closes: stateless-era listen streams end gracefully. */
  get closing(): AbortSignal {
    this.#closing ??= new AbortController();
    if (this.#isClosed) this.#closing.abort();
    return this.#closing.signal;
  }

  /** Serves a stateless-era `subscriptions/listen` on its request's stream. */
  listen(request: ModernRequest, stream: ModernStream): Promise<JsonObject> {
    return serveListen(this, request, stream);
  }

  /** Ends listen streams gracefully, then closes every connection. */
  async close(): Promise<void> {
    this.#isClosed = true;
    this.#closing?.abort();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await Promise.all([...this.#sessions].map((session) => session.close()));
  }

  /**
   * Runs one feature request through the middleware chain and the method table. Session-scoped
   * methods (initialize, logging/setLevel, subscriptions) are the session's and arrive via `own`.
   */
  dispatch(
    method: string,
    params: JsonObject,
    ctx: RequestContext,
    own?: MethodHandler,
  ): Promise<JsonObject> {
    const run = (): Promise<JsonObject> => (own ? own(params, ctx) : runFeature(this, method, params, ctx));
    // No middleware, no runner: most servers have none, and this is every request's path.
    if (this.#middleware.length === 0) return run();
    return runMiddleware(this.#middleware, { method, params, ctx }, run);
  }

  /** Reports a local diagnostic. */
  reportError(error: Error): void {
    if (this.options.onError) this.options.onError(error);
    else console.error(`[mcpwire server] ${error.message}`, error.cause ?? '');
  }
}

function runFeature(
  server: Server,
  method: string,
  params: JsonObject,
  ctx: RequestContext,
): Promise<JsonObject> {
  const row = Object.hasOwn(FEATURE_METHODS, method)
    ? FEATURE_METHODS[method as keyof typeof FEATURE_METHODS]
    : undefined;
  if (!row) return Promise.reject(new RpcError(ErrorCode.MethodNotFound, `Method not found: "${method}"`));
  return row(server, params, ctx);
}

// The MCP client: one typed call per server method. Connecting and the era live in
// ./client-connection.ts, server requests in ./server-requests.ts, notifications in ./events.ts.

import { ConnectionClosedError } from '../jsonrpc/errors.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { hasCapability, ProtocolStateError } from '../protocol/capabilities.ts';
import { MethodTable } from '../protocol/method-table.ts';
import type { OutboundRequestMethod, ParamsOf, ResultOf } from '../protocol/method-types.ts';
import type { Method } from '../protocol/methods.ts';
import { HANDSHAKE_VERSIONS, STATELESS_VERSIONS } from '../protocol/revisions.ts';
import type { RequestOptions } from '../protocol/session.ts';
import type {
  CallToolRequestParams,
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  EmptyResult,
  GetPromptRequestParams,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PaginatedRequestParams,
  Prompt,
  ReadResourceRequestParams,
  ReadResourceResult,
  RequestParams,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  SetLevelRequestParams,
  SubscribeRequestParams,
  Tool,
  UnsubscribeRequestParams,
} from '../protocol/types/index.ts';
import type { Channel, Transport } from '../transports/channel.ts';
import { createDefaultValidator } from '#default-validator';
import { capabilitiesFromOptions } from './declared-capabilities.ts';
import { NotConnectedError } from './errors.ts';
import { ClientConnection } from './client-connection.ts';
import type { ClientOptions, ListAllOptions } from './client-options.ts';
import { ClientEvents, type ClientEvent, type ClientListener } from './events.ts';
import type { ClientMiddleware } from './middleware.ts';
import { collectList } from './pagination.ts';
import { checkRoots } from './server-requests.ts';
import { ClientInbound } from './client-inbound.ts';
import { Subscriptions, type Subscription, type SubscriptionFilter } from './subscription.ts';
import { ToolCalls } from './tool-calls.ts';

/** The core requests a client sends (its row's sender is the client, or either side). */
export type ClientMethod = OutboundRequestMethod<'client'>;

/** `request()`'s arguments after the method: params may be left out where the row's are all optional. */
type RequestArgs<M extends ClientMethod> =
  Record<never, never> extends ParamsOf<M>
    ? [params?: ParamsOf<M> | undefined, options?: RequestOptions | undefined]
    : [params: ParamsOf<M>, options?: RequestOptions | undefined];

/**
 * An MCP client for one server at a time. Calls made before `connect` resolves reject with
 * NotConnectedError; after the connection ends, with ConnectionClosedError. Calls for features
 * the server did not declare reject locally with CapabilityNotNegotiatedError, sending nothing.
 */
export class Client {
  readonly info: Implementation;
  #options: ClientOptions;
  #events: ClientEvents;
  #middleware: ClientMiddleware[] = [];
  /** How many of `#middleware`'s last entries are the extensions' (innermost). */
  #extensionMiddleware = 0;
  #tools: ToolCalls;
  #inbound: ClientInbound;
  #connection: ClientConnection;
  #subscriptions = new Subscriptions();
  #roots: readonly Root[] | undefined;

  constructor(info: Implementation, options: ClientOptions = {}) {
    const pinned = options.protocolVersion;
    const known: readonly string[] = [...STATELESS_VERSIONS, ...HANDSHAKE_VERSIONS];
    if (pinned !== undefined && !known.includes(pinned)) {
      throw new TypeError(`Unsupported protocolVersion "${pinned}": this client speaks ${known.join(', ')}`);
    }
    if (options.roots) checkRoots(options.roots);
    this.info = info;
    this.#options = options;
    // Extensions' middleware runs inside the app's (`use` inserts before it), as a handler would.
    for (const extension of options.extensions ?? [])
      if (extension.client?.middleware) this.#middleware.push(extension.client.middleware);
    this.#extensionMiddleware = this.#middleware.length;
    this.#roots = options.roots;
    this.#events = new ClientEvents((error) => this.#report(error));
    const send = {
      list: (params?: PaginatedRequestParams, requestOptions?: RequestOptions) =>
        this.request('tools/list', params, requestOptions),
      call: (params: CallToolRequestParams, requestOptions: RequestOptions) =>
        this.request('tools/call', params, requestOptions),
    };
    this.#tools = new ToolCalls(send, {
      validator: options.validator ?? createDefaultValidator(),
      // A listing cut short by close() is no news: the call it served fails with the same error.
      onListingFailure: (error) => {
        if (!(error.cause instanceof ConnectionClosedError)) this.#report(error);
      },
    });
    this.#inbound = new ClientInbound({
      handlers: options.handlers ?? {},
      roots: () => this.#roots ?? [],
      capabilities: () => this.#connection.session?.ownCapabilities ?? {},
      middleware: this.#middleware,
      events: this.#events,
      subscriptions: this.#subscriptions,
      protocolVersion: options.protocolVersion,
      handleToolsListChanged: () => this.#tools.invalidate(),
    });
    this.#connection = new ClientConnection({
      info,
      options,
      middleware: this.#middleware,
      methods: (options.extensions ?? []).reduce(
        (table, extension) => table.with(extension.methods, `Extension "${extension.id}"`),
        MethodTable.core,
      ),
      capabilities: (version) => this.#capabilities(version),
      handleConnecting: () => this.#tools.invalidate(),
      handleRequest: (session, request) => this.#inbound.handleRequest(session, request),
      handleNotification: (method, params) => this.#inbound.handleNotification(method, params),
      handleClose: (error) => this.#inbound.handleClose(error),
      report: (error) => this.#report(error),
    });
  }

  /** The server's `serverInfo`, once connected. */
  get serverInfo(): Implementation | undefined {
    return this.#connection.initialized?.serverInfo;
  }

  /** The server's declared capabilities, once connected. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#connection.initialized?.capabilities;
  }

  /** The negotiated protocol revision, once connected. */
  get protocolVersion(): string | undefined {
    return this.#connection.initialized?.protocolVersion;
  }

  /** The server's usage hints for the model (`instructions`), if it gave any. */
  get instructions(): string | undefined {
    return this.#connection.initialized?.instructions;
  }

  /** True while a negotiated connection is open. */
  get isConnected(): boolean {
    return this.#connection.session?.state === 'operating';
  }

  /** The era of the current connection, once connected. */
  get era(): 'handshake' | 'stateless' | undefined {
    if (!this.#connection.initialized) return undefined;
    return this.#connection.link ? 'stateless' : 'handshake';
  }

  /**
   * Opens one connection (a Transport's `connect` is called once: one process over stdio), settles
   * the era on it and runs the handshake; resolves once `notifications/initialized` is sent.
   * Rejects (after closing the connection) with UnsupportedProtocolVersionError when the server
   * answers a revision this client does not speak, RequestCancelledError when `signal` aborts,
   * ConnectTimeoutError naming the step (`server/discover` or `initialize`) that got no answer in
   * time, ConnectClosedError when the connection closed first (a stdio server that exited: its
   * ProcessExitError, with exit code and stderr tail, is the `cause`), or the server's RpcError.
   * One connection at a time: close() before reconnecting.
   */
  connect(target: Transport | Channel, options: { signal?: AbortSignal } = {}): Promise<void> {
    return this.#connection.connect(target, options);
  }

  /** Closes the connection: pending requests reject with ConnectionClosedError. Idempotent. */
  close(): Promise<void> {
    return this.#connection.close();
  }

  /** Adds middleware around every outbound request and every inbound request handler, outermost first. */
  use(middleware: ClientMiddleware): void {
    this.#middleware.splice(this.#middleware.length - this.#extensionMiddleware, 0, middleware);
  }

  /** Subscribes to a server notification (or `close`); returns the unsubscribe function. */
  on<E extends ClientEvent>(event: E, listener: ClientListener<E>): () => void {
    return this.#events.on(event, listener);
  }

  /**
   * Replaces the roots served to `roots/list` (when there is no roots handler) and tells the
   * server (ROOT-3). Roots set before `connect` declare the `roots` capability. Each `uri` must be
   * a `file://` URI (ROOT-2), else TypeError.
   */
  setRoots(roots: readonly Root[]): Promise<void> {
    checkRoots(roots);
    this.#roots = [...roots];
    return this.sendRootsListChanged();
  }

  /**
   * Sends `notifications/roots/list_changed` if this connection declared `roots.listChanged`;
   * resolves without sending anything when not connected or not declared. Call it after the
   * roots your roots handler serves change.
   */
  sendRootsListChanged(): Promise<void> {
    const session = this.#connection.session;
    // The stateless era has no roots notification: the next request's input rounds ask again.
    if (this.#connection.link) return Promise.resolve();
    if (session?.state !== 'operating' || !hasCapability(session.ownCapabilities, ['roots', 'listChanged']))
      return Promise.resolve();
    return session.notify('notifications/roots/list_changed');
  }

  /**
   * Sends a request through the middleware chain in the connection's era; resolves with its result.
   * A core method (`tools/call`, ...) takes the params its row in the method table describes and
   * resolves with the row's result type; a core method a client never sends (`roots/list`) does not
   * compile. Any other method (an extension's, `skills/list`) takes an object and resolves with `R`
   * (default: a JSON object). Results are the server's, not validated here (the typed calls that
   * check, such as `callTool`'s output schema, say so). Prefer the typed calls (`listTools`, ...) and
   * an extension's own client (`SkillsClient`) where there is one.
   */
  request<M extends ClientMethod>(method: M, ...args: RequestArgs<M>): Promise<ResultOf<M>>;
  request<R extends object = JsonObject, M extends string = string>(
    method: M extends Method ? never : M,
    params?: object,
    options?: RequestOptions,
  ): Promise<R>;
  request(method: string, params?: object, options?: RequestOptions): Promise<JsonObject> {
    return this.#connection.request(method, params, options);
  }

  /**
   * Answers one input request that reached this client inside a result rather than as a server
   * request (a stateless-era task's `inputRequests`, S26-TASK-10) through the same middleware and
   * handlers, with the same checks; resolves with the answer to send back.
   */
  handleInputRequest(
    request: { method: string; params: JsonObject },
    options: { signal?: AbortSignal } = {},
  ): Promise<JsonObject> {
    const session = this.#connection.session;
    if (!session) return Promise.reject(new NotConnectedError(request.method));
    const signal = options.signal ?? new AbortController().signal;
    return this.#inbound.handleRequest(session, {
      id: `input:${request.method}`,
      method: request.method,
      params: request.params,
      signal,
      get isCancelled() {
        return signal.aborted;
      },
    });
  }

  /** `ping`: resolves when the server answers (PING-1). */
  ping(params?: RequestParams, options?: RequestOptions): Promise<EmptyResult> {
    return this.request('ping', params, options);
  }

  /** `tools/list`, one page. Remembers the tools' output schemas for `callTool`. */
  listTools(params?: PaginatedRequestParams, options?: RequestOptions): Promise<ListToolsResult> {
    return this.#tools.list(params, options);
  }

  /** Every tool, following `nextCursor` (PAGE-2). */
  listAllTools(options: ListAllOptions = {}): Promise<Tool[]> {
    return this.#tools.listAll(options);
  }

  /**
   * `tools/call`. When the tool declares an `outputSchema` (as last listed; the list is fetched
   * if the tool is unknown), a result's `structuredContent` must match it, else the call rejects
   * with OutputValidationError (TOOL-3). Results with `isError: true` are returned unchecked:
   * tool failures are results, not exceptions (TOOL-7).
   */
  callTool(params: CallToolRequestParams, options: RequestOptions = {}): Promise<CallToolResult> {
    return this.#tools.call(params, options);
  }

  /** `resources/list`, one page. */
  listResources(params?: PaginatedRequestParams, options?: RequestOptions): Promise<ListResourcesResult> {
    return this.request('resources/list', params, options);
  }

  /** Every resource, following `nextCursor`. */
  listAllResources(options: ListAllOptions = {}): Promise<Resource[]> {
    const list = { method: 'resources/list', key: 'resources', maxPages: options.maxPages };
    return collectList((params) => this.listResources(params, options), list) as Promise<Resource[]>;
  }

  /** `resources/templates/list`, one page. */
  listResourceTemplates(
    params?: PaginatedRequestParams,
    options?: RequestOptions,
  ): Promise<ListResourceTemplatesResult> {
    return this.request('resources/templates/list', params, options);
  }

  /** Every resource template, following `nextCursor`. */
  listAllResourceTemplates(options: ListAllOptions = {}): Promise<ResourceTemplate[]> {
    const list = { method: 'resources/templates/list', key: 'resourceTemplates', maxPages: options.maxPages };
    const fetchPage = (params: PaginatedRequestParams) => this.listResourceTemplates(params, options);
    return collectList(fetchPage, list) as Promise<ResourceTemplate[]>;
  }

  /** `resources/read`. */
  readResource(params: ReadResourceRequestParams, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.request('resources/read', params, options);
  }

  /** `resources/subscribe`: the server then sends `resourceUpdated` events for `uri` (RES-5). */
  subscribeResource(params: SubscribeRequestParams, options?: RequestOptions): Promise<EmptyResult> {
    return this.request('resources/subscribe', params, options);
  }

  /** `resources/unsubscribe`. */
  unsubscribeResource(params: UnsubscribeRequestParams, options?: RequestOptions): Promise<EmptyResult> {
    return this.request('resources/unsubscribe', params, options);
  }

  /** `prompts/list`, one page. */
  listPrompts(params?: PaginatedRequestParams, options?: RequestOptions): Promise<ListPromptsResult> {
    return this.request('prompts/list', params, options);
  }

  /** Every prompt, following `nextCursor`. */
  listAllPrompts(options: ListAllOptions = {}): Promise<Prompt[]> {
    const list = { method: 'prompts/list', key: 'prompts', maxPages: options.maxPages };
    return collectList((params) => this.listPrompts(params, options), list) as Promise<Prompt[]>;
  }

  /** `prompts/get`. Argument values are strings (PROMPT-2). */
  getPrompt(params: GetPromptRequestParams, options?: RequestOptions): Promise<GetPromptResult> {
    return this.request('prompts/get', params, options);
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  complete(params: CompleteRequestParams, options?: RequestOptions): Promise<CompleteResult> {
    return this.request('completion/complete', params, options);
  }

  /**
   * `logging/setLevel`: the server then sends `log` events at this level and above (LOG-2). In the
   * stateless era the level travels on every later request instead (S26-LOG-1); nothing is sent.
   */
  setLoggingLevel(params: SetLevelRequestParams, options?: RequestOptions): Promise<EmptyResult> {
    const link = this.#connection.link;
    if (link) {
      link.logLevel = params.level;
      return Promise.resolve({});
    }
    return this.request('logging/setLevel', params, options);
  }

  /**
   * Stateless era: opens a `subscriptions/listen` stream (S26-SUB). Its notifications arrive as
   * this client's events; close the returned Subscription to end it. In the handshake era list
   * changes arrive without asking and resources use `subscribeResource`, so this throws.
   */
  listen(filter: SubscriptionFilter): Subscription {
    const link = this.#connection.link;
    const session = this.#connection.session;
    if (!link || !session)
      throw new ProtocolStateError('listen() needs a stateless-era (2026-07-28) connection');
    return this.#subscriptions.open(session, link, filter);
  }

  #capabilities(version: string): ClientCapabilities {
    return capabilitiesFromOptions(this.#options, this.#roots !== undefined, version);
  }

  #report(error: Error): void {
    if (this.#options.onError) this.#options.onError(error);
    else console.error(`[mcpwire client] ${error.message}`, error.cause ?? '');
  }
}

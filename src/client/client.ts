// The MCP client: connects over any Channel or Transport, negotiates, and offers one typed call per
// server method. Server requests go to ./server-requests.ts, notifications to ./events.ts.

import { ConnectionClosedError } from '../jsonrpc/errors.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { hasCapability, ProtocolStateError } from '../protocol/capabilities.ts';
import { isModernVersion, LEGACY_VERSIONS, MODERN_VERSIONS } from '../protocol/revisions.ts';
import { Session, type InboundRequest, type RequestOptions } from '../protocol/session.ts';
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
  InitializeResult,
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
import { createDefaultValidator } from '../validation/index.ts';
import { createClientCapabilities } from './client-capabilities.ts';
import { NotConnectedError } from './errors.ts';
import { ClientEvents, type ClientEvent, type ClientListener } from './events.ts';
import { runClientMiddleware, type ClientMiddleware } from './middleware.ts';
import { negotiate } from './negotiate.ts';
import { defaultEraCache } from './era-probe.ts';
import { establish, type Established } from './establish.ts';
import { sendModern, withEnvelope, type ModernLink } from './modern-request.ts';
import { Subscription, type SubscriptionFilter } from './subscription.ts';
import { collectList, readPage } from './pagination.ts';
import { findRootProblem, ServerRequests, type ClientRequestContext } from './server-requests.ts';
import type { ClientOptions, ListAllOptions } from './client-options.ts';
import { ToolOutputSchemas } from './tool-output.ts';

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
  #outputSchemas: ToolOutputSchemas;
  #serverRequests: ServerRequests;
  #session: Session | undefined;
  #initialized: InitializeResult | undefined;
  /** Set while connected in the stateless era. */
  #link: ModernLink | undefined;
  #subscriptions = new Map<string | number, Subscription>();
  #reinitializing: Promise<void> | undefined;
  #isConnecting = false;
  #roots: readonly Root[] | undefined;

  constructor(info: Implementation, options: ClientOptions = {}) {
    const pinned = options.protocolVersion;
    const known: readonly string[] = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];
    if (pinned !== undefined && !known.includes(pinned)) {
      throw new TypeError(`Unsupported protocolVersion "${pinned}": this client speaks ${known.join(', ')}`);
    }
    if (options.roots) checkRoots(options.roots);
    this.info = info;
    this.#options = options;
    this.#roots = options.roots;
    this.#events = new ClientEvents((error) => this.#report(error));
    this.#outputSchemas = new ToolOutputSchemas(options.validator ?? createDefaultValidator(), {
      // A listing cut short by close() is no news: the call it served fails with the same error.
      onListingFailure: (error) => {
        if (!(error.cause instanceof ConnectionClosedError)) this.#report(error);
      },
    });
    this.#serverRequests = new ServerRequests({
      handlers: options.handlers ?? {},
      roots: () => this.#roots ?? [],
      capabilities: () => this.#session?.ownCapabilities ?? {},
    });
  }

  /** The server's `serverInfo`, once connected. */
  get serverInfo(): Implementation | undefined {
    return this.#initialized?.serverInfo;
  }

  /** The server's declared capabilities, once connected. */
  get serverCapabilities(): ServerCapabilities | undefined {
    return this.#initialized?.capabilities;
  }

  /** The negotiated protocol revision, once connected. */
  get protocolVersion(): string | undefined {
    return this.#initialized?.protocolVersion;
  }

  /** The server's usage hints for the model (`instructions`), if it gave any. */
  get instructions(): string | undefined {
    return this.#initialized?.instructions;
  }

  /** True while a negotiated connection is open. */
  get isConnected(): boolean {
    return this.#session?.state === 'operating';
  }

  /**
   * Opens a connection and runs the handshake; resolves once `notifications/initialized` is sent.
   * Rejects (after closing the connection) with UnsupportedProtocolVersionError when the server
   * answers a revision this client does not speak, RequestCancelledError when `signal` aborts,
   * RequestTimeoutError, or the server's RpcError. One connection at a time: close() before reconnecting.
   */
  async connect(target: Transport | Channel, options: { signal?: AbortSignal } = {}): Promise<void> {
    if (this.#isConnecting || (this.#session && this.#session.state !== 'closed')) {
      throw new ProtocolStateError(
        'connect: the client is already connected or connecting; close() it first',
      );
    }
    this.#isConnecting = true;
    try {
      options.signal?.throwIfAborted();
      await this.#start(target, options.signal);
    } finally {
      this.#isConnecting = false;
    }
  }

  /** Closes the connection: pending requests reject with ConnectionClosedError. Idempotent. */
  async close(): Promise<void> {
    await this.#session?.close();
  }

  /** Adds middleware around every outbound request and every inbound request handler, outermost first. */
  use(middleware: ClientMiddleware): void {
    this.#middleware.push(middleware);
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
    const session = this.#session;
    // The stateless era has no roots notification: the next request's input rounds ask again.
    if (this.#link) return Promise.resolve();
    if (session?.state !== 'operating' || !hasCapability(session.ownCapabilities, ['roots', 'listChanged']))
      return Promise.resolve();
    return session.notify('notifications/roots/list_changed');
  }

  /** `ping`: resolves when the server answers (PING-1). */
  ping(params?: RequestParams, options?: RequestOptions): Promise<EmptyResult> {
    return this.#call('ping', params, options);
  }

  /** `tools/list`, one page. Remembers the tools' output schemas for `callTool`. */
  async listTools(params?: PaginatedRequestParams, options?: RequestOptions): Promise<ListToolsResult> {
    const generation = this.#outputSchemas.generation;
    const result = await this.#call<ListToolsResult>('tools/list', params, options);
    const page = readPage<Tool>(result, { method: 'tools/list', key: 'tools' });
    const isWholeList = params?.cursor === undefined && page.nextCursor === undefined;
    this.#outputSchemas.remember(page.items, { generation, isWholeList });
    return result;
  }

  /** Every tool, following `nextCursor` (PAGE-2). */
  async listAllTools(options: ListAllOptions = {}): Promise<Tool[]> {
    const generation = this.#outputSchemas.generation;
    const list = { method: 'tools/list', key: 'tools', maxPages: options.maxPages };
    const tools = (await collectList((params) => this.listTools(params, options), list)) as Tool[];
    this.#outputSchemas.remember(tools, { generation, isWholeList: true });
    return tools;
  }

  /**
   * `tools/call`. When the tool declares an `outputSchema` (as last listed; the list is fetched
   * if the tool is unknown), a result's `structuredContent` must match it, else the call rejects
   * with OutputValidationError (TOOL-3). Results with `isError: true` are returned unchecked:
   * tool failures are results, not exceptions (TOOL-7).
   */
  async callTool(params: CallToolRequestParams, options: RequestOptions = {}): Promise<CallToolResult> {
    // Task-augmented calls answer with a CreateTaskResult, which has nothing to check.
    const isChecked = params.task === undefined;
    // No signal for the listing: it is shared, so one caller's abort must not fail it for others.
    const listOptions = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
    const lookup = isChecked
      ? this.#outputSchemas.ensureKnown(params.name, () => this.listAllTools(listOptions))
      : undefined;
    const result = await this.#call<CallToolResult>('tools/call', params, options);
    if (!isChecked) return result;
    await lookup;
    await this.#outputSchemas.check(params.name, result);
    return result;
  }

  /** `resources/list`, one page. */
  listResources(params?: PaginatedRequestParams, options?: RequestOptions): Promise<ListResourcesResult> {
    return this.#call('resources/list', params, options);
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
    return this.#call('resources/templates/list', params, options);
  }

  /** Every resource template, following `nextCursor`. */
  listAllResourceTemplates(options: ListAllOptions = {}): Promise<ResourceTemplate[]> {
    const list = { method: 'resources/templates/list', key: 'resourceTemplates', maxPages: options.maxPages };
    const fetchPage = (params: PaginatedRequestParams) => this.listResourceTemplates(params, options);
    return collectList(fetchPage, list) as Promise<ResourceTemplate[]>;
  }

  /** `resources/read`. */
  readResource(params: ReadResourceRequestParams, options?: RequestOptions): Promise<ReadResourceResult> {
    return this.#call('resources/read', params, options);
  }

  /** `resources/subscribe`: the server then sends `resourceUpdated` events for `uri` (RES-5). */
  subscribeResource(params: SubscribeRequestParams, options?: RequestOptions): Promise<EmptyResult> {
    return this.#call('resources/subscribe', params, options);
  }

  /** `resources/unsubscribe`. */
  unsubscribeResource(params: UnsubscribeRequestParams, options?: RequestOptions): Promise<EmptyResult> {
    return this.#call('resources/unsubscribe', params, options);
  }

  /** `prompts/list`, one page. */
  listPrompts(params?: PaginatedRequestParams, options?: RequestOptions): Promise<ListPromptsResult> {
    return this.#call('prompts/list', params, options);
  }

  /** Every prompt, following `nextCursor`. */
  listAllPrompts(options: ListAllOptions = {}): Promise<Prompt[]> {
    const list = { method: 'prompts/list', key: 'prompts', maxPages: options.maxPages };
    return collectList((params) => this.listPrompts(params, options), list) as Promise<Prompt[]>;
  }

  /** `prompts/get`. Argument values are strings (PROMPT-2). */
  getPrompt(params: GetPromptRequestParams, options?: RequestOptions): Promise<GetPromptResult> {
    return this.#call('prompts/get', params, options);
  }

  /** `completion/complete`: suggestions for a prompt or resource-template argument. */
  complete(params: CompleteRequestParams, options?: RequestOptions): Promise<CompleteResult> {
    return this.#call('completion/complete', params, options);
  }

  /**
   * `logging/setLevel`: the server then sends `log` events at this level and above (LOG-2). In the
   * stateless era the level travels on every later request instead (S26-LOG-1); nothing is sent.
   */
  setLoggingLevel(params: SetLevelRequestParams, options?: RequestOptions): Promise<EmptyResult> {
    if (this.#link) {
      this.#link.logLevel = params.level;
      return Promise.resolve({});
    }
    return this.#call('logging/setLevel', params, options);
  }

  /** The era of the current connection, once connected. */
  get era(): 'legacy' | 'modern' | undefined {
    if (!this.#initialized) return undefined;
    return this.#link ? 'modern' : 'legacy';
  }

  /**
   * Stateless era: opens a `subscriptions/listen` stream (S26-SUB). Its notifications arrive as
   * this client's events; close the returned Subscription to end it. In the handshake era list
   * changes arrive without asking and resources use `subscribeResource`, so this throws.
   */
  listen(filter: SubscriptionFilter): Subscription {
    const link = this.#link;
    const session = this.#session;
    if (!link || !session)
      throw new ProtocolStateError('listen() needs a stateless-era (2026-07-28) connection');
    const controller = new AbortController();
    const ref: { current?: Subscription } = {};
    const options: RequestOptions = {
      signal: controller.signal,
      timeoutMs: Infinity,
      maxTotalTimeoutMs: Infinity,
      onRequestId: (id) => {
        ref.current!.id = id;
        this.#subscriptions.set(id, ref.current!);
      },
    };
    // Sent on a later microtask, once `ref` is set.
    const done = Promise.resolve().then(() =>
      session.request(
        'subscriptions/listen',
        withEnvelope(link, { notifications: filter as JsonObject }),
        options,
      ),
    );
    const subscription = new Subscription(controller, done);
    ref.current = subscription;
    void subscription.closed.then(() => {
      if (subscription.id !== undefined) this.#subscriptions.delete(subscription.id);
    });
    return subscription;
  }

  async #start(target: Transport | Channel, signal: AbortSignal | undefined): Promise<void> {
    this.#initialized = undefined;
    this.#link = undefined;
    this.#outputSchemas.invalidate();
    const pinned = this.#options.protocolVersion;
    const era =
      pinned === undefined ? (this.#options.era ?? 'auto') : isModernVersion(pinned) ? 'modern' : 'legacy';
    const modernVersion = pinned !== undefined && isModernVersion(pinned) ? pinned : MODERN_VERSIONS[0];
    const cache = this.#options.eraCache === false ? undefined : (this.#options.eraCache ?? defaultEraCache);
    let established: Established;
    try {
      established = await establish(target, {
        era,
        modernVersion,
        cache,
        probeTimeoutMs: this.#options.probeTimeoutMs ?? 5000,
        ...(signal ? { signal } : {}),
        open: (channel) => this.#open(channel),
        discover: (session, { version, timeoutMs }) => {
          session.ownCapabilities = this.#capabilities(version) as JsonObject;
          const link = this.#modernLink(session, version);
          return session.request('server/discover', withEnvelope(link, undefined), {
            timeoutMs,
            ...(signal ? { signal } : {}),
          });
        },
        initialize: (session) => this.#negotiate(session, signal),
      });
    } catch (error) {
      await this.#session?.close().catch(() => {});
      throw error;
    }
    if (established.era === 'legacy') {
      this.#initialized = established.initialized;
      return;
    }
    const { discover, version } = established;
    const capabilities = this.#capabilities(version);
    established.session.ownCapabilities = capabilities as JsonObject;
    established.session.peerCapabilities = (discover.capabilities as JsonObject | undefined) ?? {};
    this.#link = this.#modernLink(established.session, version);
    const meta = (discover._meta as JsonObject | undefined) ?? {};
    // S26-DISC-2: identity is in _meta; older drafts put it in the body, so read both.
    const serverInfo = (meta['io.modelcontextprotocol/serverInfo'] ??
      discover.serverInfo ?? { name: 'unknown', version: '0' }) as Implementation;
    this.#initialized = {
      protocolVersion: version,
      capabilities: established.session.peerCapabilities as ServerCapabilities,
      serverInfo,
      ...(typeof discover.instructions === 'string' ? { instructions: discover.instructions } : {}),
    };
  }

  #open(channel: Channel): Session {
    const session: Session = new Session({
      role: 'client',
      channel,
      handleRequest: (request) => this.#handleServerRequest(session, request),
      handleNotification: (method, params) => this.#handleNotification(method, params),
      handleClose: (error) => this.#handleClose(session, error),
      onError: (error) => this.#report(error),
    });
    this.#session = session;
    session.start();
    return session;
  }

  #negotiate(session: Session, signal: AbortSignal | undefined): Promise<InitializeResult> {
    const requested = this.#options.protocolVersion ?? LEGACY_VERSIONS[0];
    return negotiate(session, {
      clientInfo: this.info,
      capabilities: this.#capabilities(requested),
      protocolVersion: requested,
      supportedVersions: this.#options.protocolVersion === undefined ? LEGACY_VERSIONS : [requested],
      sendInitialize: (params) => this.#request('initialize', params, signal ? { signal } : {}),
    });
  }

  #modernLink(session: Session, version: string): ModernLink {
    return {
      version,
      capabilities: this.#capabilities(version),
      clientInfo: this.info,
      maxRounds: this.#options.maxInputRounds ?? 10,
      send: (method, params, options) => session.request(method, params, options),
      answer: (method, params, signal) => this.#answerInput(session, method, params, signal),
    };
  }

  /** Answers one embedded input request (S26-MRTR) through the same handlers as server requests. */
  #answerInput(
    session: Session,
    method: string,
    params: JsonObject,
    signal: AbortSignal | undefined,
  ): Promise<JsonObject> {
    const request = {
      id: `input:${method}`,
      method,
      params,
      signal: signal ?? new AbortController().signal,
      get isCancelled() {
        return this.signal.aborted;
      },
    };
    return this.#handleServerRequest(session, request);
  }

  #capabilities(version: string): ClientCapabilities {
    const handlers = this.#options.handlers ?? {};
    return createClientCapabilities({
      extra: this.#options.capabilities,
      hasSampling: handlers.sampling !== undefined,
      hasElicitation: handlers.elicitation !== undefined,
      elicitationModes: this.#options.elicitationModes,
      hasRoots: handlers.roots !== undefined || this.#roots !== undefined,
      protocolVersion: version,
    });
  }

  /**
   * Sends one request of the handshake era through the middleware chain. The one place that
   * knows how a request travels, so another era can branch here.
   */
  #request(method: string, params: object | undefined, options: RequestOptions = {}): Promise<JsonObject> {
    const session = this.#session;
    if (!session) return Promise.reject(new NotConnectedError(method));
    const timeoutMs = options.timeoutMs ?? this.#options.requestTimeoutMs;
    const effective: RequestOptions = timeoutMs === undefined ? options : { ...options, timeoutMs };
    const request = { direction: 'outbound' as const, method, params: params as JsonObject | undefined };
    const link = this.#link;
    const handler = link
      ? (outbound: JsonObject | undefined) => sendModern(link, method, outbound, effective)
      : (outbound: JsonObject | undefined) => this.#sendLegacy(session, method, outbound, effective);
    return runClientMiddleware(request, { chain: this.#middleware, handler });
  }

  /**
   * A handshake-era request. When an HTTP server has forgotten the session (404, HTTP-31), the
   * client initializes again on the same channel (once for all requests that failed together) and
   * re-sends the request once: the server never processed it.
   */
  async #sendLegacy(
    session: Session,
    method: string,
    params: JsonObject | undefined,
    options: RequestOptions,
  ): Promise<JsonObject> {
    try {
      return await session.request(method, params, options);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SESSION_EXPIRED' || method === 'initialize') throw error;
      this.#reinitializing ??= this.#reinitialize(session).finally(() => (this.#reinitializing = undefined));
      await this.#reinitializing;
      return session.request(method, params, options);
    }
  }

  async #reinitialize(session: Session): Promise<void> {
    session.protocolVersion = undefined;
    session.setState('new');
    this.#initialized = await this.#negotiate(session, undefined);
  }

  async #call<R>(
    method: string,
    params: object | undefined,
    options: RequestOptions | undefined,
  ): Promise<R> {
    return (await this.#request(method, params, options)) as unknown as R;
  }

  #handleServerRequest(session: Session, request: InboundRequest): Promise<JsonObject> {
    const ctx: ClientRequestContext = {
      signal: request.signal,
      requestId: request.id,
      meta: (request.params._meta as JsonObject | undefined) ?? {},
      protocolVersion: session.protocolVersion ?? this.#options.protocolVersion ?? LEGACY_VERSIONS[0],
    };
    const wrapped = {
      direction: 'inbound' as const,
      method: request.method,
      params: request.params as JsonObject | undefined,
    };
    const handler = (params: JsonObject | undefined) =>
      this.#serverRequests.handle({ method: request.method, params: params ?? {} }, ctx);
    return runClientMiddleware(wrapped, { chain: this.#middleware, handler });
  }

  #handleNotification(method: string, params: JsonObject): void {
    if (method === 'notifications/subscriptions/acknowledged') {
      const id = ((params._meta as JsonObject | undefined) ?? {})['io.modelcontextprotocol/subscriptionId'];
      const subscription =
        typeof id === 'string' || typeof id === 'number' ? this.#subscriptions.get(id) : undefined;
      subscription?.handleAcknowledged(params.notifications as SubscriptionFilter);
      return;
    }
    if (method === 'notifications/tools/list_changed') this.#outputSchemas.invalidate();
    // ELIC-11: unknown or already completed elicitation ids are ignored.
    if (
      method === 'notifications/elicitation/complete' &&
      !this.#serverRequests.completeElicitation(params.elicitationId)
    )
      return;
    this.#events.emitNotification(method, params);
  }

  #handleClose(session: Session, error: Error | undefined): void {
    if (this.#session !== session) return;
    this.#serverRequests.clear();
    this.#events.emit('close', error ? { error } : {});
  }

  #report(error: Error): void {
    if (this.#options.onError) this.#options.onError(error);
    else console.error(`[mcpwire client] ${error.message}`, error.cause ?? '');
  }
}

function checkRoots(roots: readonly Root[]): void {
  const problem = findRootProblem(roots);
  if (problem) throw new TypeError(`Invalid root: ${problem}`);
}

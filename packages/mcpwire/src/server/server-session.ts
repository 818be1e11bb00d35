// One handshake-era connection of a Server: initialize and negotiation, per-session logging level,
// resource subscriptions, coalesced list_changed notifications, and the handshake-era request context.

import type { JsonObject, RequestId, SendOptions } from '../jsonrpc/message.ts';
import type { Principal } from '../protocol/principal.ts';
import { LocalSessionState, withSubscription, type SessionState } from '../protocol/session-record.ts';
import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import { Session, type InboundRequest, type SessionOptions } from '../protocol/session.ts';
import type {
  ClientCapabilities,
  EmptyResult,
  Implementation,
  InitializeRequestParams,
  InitializeResult,
  LoggingLevel,
  SetLevelRequestParams,
  SubscribeRequestParams,
} from '../protocol/types/index.ts';
import { HANDSHAKE_VERSIONS } from '../protocol/revisions.ts';
import type { Channel } from '../transports/channel.ts';
import type { MethodTable } from '../protocol/method-table.ts';
import type { InputBroker } from './context.ts';
import type { InboundScope } from '../protocol/inbound-check.ts';
import type { RequestOrigin } from './method-handlers.ts';
import { isStatelessClaim } from '../protocol/envelope.ts';
import type { StatelessHost, StatelessStream } from './stateless.ts';
import { serve, type HandshakeScope, type RequestScope, type StatelessScope } from './serve.ts';
import { createHandshakeBroker } from './handshake-broker.ts';
import { disconnectForPolling } from './polling-channel.ts';
import type { ContextOutput } from './request-context.ts';
import { answerInitialize, requestedLevel } from './handshake.ts';
import { isLevelEnabled } from './logging.ts';

type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * What a session needs of its server definition (the Server class provides it). List changes and
 * resource updates reach a session through `listChanged` / `resourceUpdated`, called by the server
 * for each of its sessions: no per-session subscription to keep.
 */
export interface SessionHost extends StatelessHost {
  reportError(error: Error): void;
  /** The capabilities declared in `initialize` for `version`; default `capabilities()`. */
  capabilitiesAt?(version: string): object;
}

/** A live handshake-era connection of a Server. Created by `Server.connect`. */
export class ServerSession {
  readonly session: Session;
  #server: SessionHost;
  #channel: Channel;
  /** The connection's scope and the Session's hooks: one object for the connection's life. */
  readonly #scope: SessionScope;
  /**
   * What the session decided (revision, client capabilities and info, log level, subscriptions):
   * the channel's record when its transport keeps one (read there, written through it), else here.
   */
  readonly #state: SessionState;
  /** Made on first list change: most sessions never need it. */
  #pendingLists: Set<ListKind> | undefined;
  #sessionId: string | undefined;

  constructor(server: SessionHost, channel: Channel, onClose: () => void) {
    this.#server = server;
    this.#channel = channel;
    this.#scope = new SessionScope(this, server, channel, onClose);
    this.session = new Session(this.#scope);
    this.#state = channel.sessionState ?? new LocalSessionState();
    const version = this.#state.facts.protocolVersion;
    if (version !== undefined) this.#resume(version);
  }

  /**
   * A session negotiated elsewhere (another handler sharing the session store): takes up its
   * revision and capabilities from the record and serves it as operating, without an initialize.
   */
  #resume(version: string): void {
    this.#scope.connectionEra = 'handshake';
    const own = (this.#server.capabilitiesAt?.(version) ?? this.#server.capabilities()) as JsonObject;
    this.#negotiate(version, own, this.#state.facts.clientCapabilities ?? {});
    this.session.setState(this.#state.facts.initialized ? 'operating' : 'initializing');
  }

  /** The client's `notifications/initialized`: the session operates, here and wherever its record goes. */
  initialized(): void {
    this.session.setState('operating');
    this.#state.write(() => ({ initialized: true })).catch((error: Error) => this.#server.reportError(error));
  }

  /** Catches up with a `notifications/initialized` that reached the session through another handler. */
  catchUp(): void {
    if (this.session.state === 'initializing' && this.#state.facts.initialized)
      this.session.setState('operating');
  }

  /** The client's `clientInfo` from initialize. */
  get clientInfo(): Implementation | undefined {
    return this.#state.facts.clientInfo;
  }

  /** Starts receiving. */
  start(): void {
    this.session.start();
  }

  /** Closes the connection. */
  close(): Promise<void> {
    return this.session.close();
  }

  /** Sends `notifications/resources/updated` if the client subscribed to `uri` or a parent of it (RES-5). */
  resourceUpdated(uri: string): void {
    this.catchUp();
    const subscriptions = this.#state.facts.subscriptions;
    if (this.session.state !== 'operating' || !subscriptions) return;
    for (const subscribed of subscriptions) {
      if (uri === subscribed || uri.startsWith(subscribed.endsWith('/') ? subscribed : `${subscribed}/`)) {
        this.session
          .notify('notifications/resources/updated', { uri })
          .catch((error: Error) => this.#server.reportError(error));
        return;
      }
    }
  }

  /** `initialize` (answered by the session itself); answered once its facts are stored. */
  initialize(params: InitializeRequestParams): Promise<InitializeResult> {
    this.#scope.connectionEra = 'handshake';
    const { version, capabilities, result } = answerInitialize(this.#server, params);
    const clientCapabilities = params.capabilities as JsonObject;
    this.#negotiate(version, capabilities, clientCapabilities);
    this.session.setState('initializing');
    const clientInfo = params.clientInfo as Implementation;
    return this.#state
      .write(() => ({ protocolVersion: version, clientCapabilities, clientInfo }))
      .then(() => result);
  }

  /** Settles the connection's revision and both sides' capabilities. */
  #negotiate(version: string, own: JsonObject, clientCapabilities: JsonObject): void {
    const session = this.session;
    session.protocolVersion = version;
    session.ownCapabilities = own;
    session.peerCapabilities = clientCapabilities;
  }

  /** `logging/setLevel`: answered once the level is stored. */
  setLevel(params: SetLevelRequestParams): Promise<EmptyResult> {
    const logLevel = requestedLevel(params);
    return this.#state.write(() => ({ logLevel })).then(() => ({}));
  }

  /** `resources/subscribe` and `resources/unsubscribe`: answered once the subscriptions are stored. */
  subscribe(params: SubscribeRequestParams, isSubscribe: boolean): Promise<EmptyResult> {
    const uri = params.uri as string;
    return this.#state
      .write((facts) => ({ subscriptions: withSubscription(facts.subscriptions, uri, isSubscribe) }))
      .then(() => ({}));
  }

  /** A request to the client outside any inbound request (see `HandshakeConnection.sendRequest`). */
  sendRequest(
    method: string,
    params: JsonObject,
    options: { signal?: AbortSignal } = {},
  ): Promise<JsonObject> {
    return this.session.request(method, params, options.signal ? { signal: options.signal } : {});
  }

  /** A notification to the client on this connection. */
  sendNotification(method: string, params: JsonObject): Promise<void> {
    return this.session.notify(method, params);
  }

  /** A list of the server changed: tell the client once per tick and kind (if it is operating). */
  listChanged(kind: ListKind): void {
    if (this.session.state !== 'operating' && this.session.state !== 'initializing') return;
    // Coalesce: many registrations in one tick become one notification (per kind).
    const pending = (this.#pendingLists ??= new Set());
    if (pending.has(kind)) return;
    pending.add(kind);
    setTimeout(() => {
      pending.delete(kind);
      const session = this.session;
      if (session.state !== 'operating') return;
      const method = `notifications/${kind}/list_changed`;
      session.notify(method).catch(() => {
        // Not negotiated (no listChanged declared at initialize): nothing to tell this client.
      });
    }, 0);
  }

  /**
   * See `HandshakeConnection.sessionId`: the transport's session id when it has one (the HTTP
   * `Mcp-Session-Id`, the same on every node serving the session, so a task of the session is found
   * through any of them), else drawn on first use (most sessions never need it).
   */
  get sessionId(): string {
    return (this.#sessionId ??= this.#channel.info?.sessionId ?? crypto.randomUUID());
  }

  /** The client's chosen logging level (`logging/setLevel`), if any. */
  get logLevel(): LoggingLevel | undefined {
    return this.#state.facts.logLevel;
  }

  /** The connection's channel (for `disconnectForPolling`). */
  get channel(): Channel {
    return this.#channel;
  }
}

/**
 * One connection's scope for `serve` (the negotiated facts, read from the Session when a request
 * arrives) and the Session's hooks, as one object with prototype methods (no closures per
 * connection). It routes each inbound request by the connection's era, decided by its first request.
 */
class SessionScope implements SessionOptions, HandshakeScope {
  readonly channel: Channel;
  /** Decided by the first request (S26 section 3.4): `initialize` or a stateless-era envelope. */
  connectionEra: 'handshake' | 'stateless' | undefined;
  readonly #owner: ServerSession;
  readonly #server: SessionHost;
  readonly #onClose: () => void;
  /** Where stateless-era notifications go on this connection (made on first use). */
  #statelessScope: StatelessScope | undefined;

  constructor(owner: ServerSession, server: SessionHost, channel: Channel, onClose: () => void) {
    this.#owner = owner;
    this.#server = server;
    this.channel = channel;
    this.#onClose = onClose;
  }

  // Constants as prototype getters, not fields: an idle session's heap is these objects (issue 23).
  get role(): 'server' {
    return 'server';
  }

  get era(): 'handshake' {
    return 'handshake';
  }

  get checksInbound(): false {
    return false;
  }

  get methods(): MethodTable {
    return this.#server.methods;
  }

  /** Every inbound request of the connection, through the server's one serve path. */
  handleRequest(request: InboundRequest): Promise<JsonObject> | JsonObject {
    this.#owner.catchUp();
    const routed = this.#route(request);
    return routed instanceof RpcError ? Promise.reject(routed) : serve(this.#server, request, routed);
  }

  /** The scope a request is served in, or the error refusing it: one era per connection. */
  #route(request: InboundRequest): RequestScope | RpcError {
    // A handshake-only server ignores the claim, as a 2025 server would (`serve` refuses a 2026 method).
    if (this.#server.eras === 'handshake') return this;
    const isClaim = isStatelessClaim(request.params);
    const session = this.#owner.session;
    if (this.connectionEra === undefined && isClaim) {
      this.connectionEra = 'stateless';
      // The stream's revision, for observers; the handshake-era checks never run on this connection.
      session.protocolVersion = '2026-07-28';
    }
    if (this.connectionEra === 'stateless') {
      if (request.method === 'initialize' && !isClaim) {
        return new RpcError(
          ErrorCode.InvalidRequest,
          'Invalid Request: this connection is serving protocol revision 2026-07-28 without a handshake; "initialize" is not accepted on it',
        );
      }
      return this.#stateless;
    }
    // A stateless-only method without a claim is a broken stateless request (-32602), not a lifecycle error.
    if (this.connectionEra === undefined && this.methods.isStatelessOnly(request.method))
      return this.#stateless;
    if (isClaim) {
      return new RpcError(
        ErrorCode.InvalidRequest,
        `Invalid Request: this connection negotiated protocol revision ${session.protocolVersion ?? '(pending)'} with initialize; stateless-era requests are not accepted on it`,
      );
    }
    return this;
  }

  get #stateless(): StatelessScope {
    return (this.#statelessScope ??= {
      era: 'stateless',
      stream: new SessionStream(this.#owner.session, this.channel),
    });
  }

  get inbound(): InboundScope {
    return this.#owner.session.inboundScope;
  }

  get protocolVersion(): string {
    return this.#owner.session.protocolVersion ?? HANDSHAKE_VERSIONS[0];
  }

  get clientCapabilities(): ClientCapabilities {
    return this.#owner.session.peerCapabilities as ClientCapabilities;
  }

  get clientInfo(): Implementation | undefined {
    return this.#owner.clientInfo;
  }

  principalOf(requestId: RequestId): Principal | undefined {
    return this.channel.info?.principalOf?.(requestId);
  }

  outputFor(request: InboundRequest): HandshakeOutput {
    return new HandshakeOutput(this.#owner, this.#server, request);
  }

  handleNotification(method: string): void {
    const session = this.#owner.session;
    if (method === 'notifications/initialized' && session.state === 'initializing') this.#owner.initialized();
  }

  handleClose(): void {
    this.#onClose();
  }

  onError(error: Error): void {
    this.#server.reportError(error);
  }
}

/** Stateless-era notifications on a dual-era connection: unchecked against the handshake-era table. */
class SessionStream implements StatelessStream {
  readonly #session: Session;
  readonly #channel: Channel;

  constructor(session: Session, channel: Channel) {
    this.#session = session;
    this.#channel = channel;
  }

  notify(method: string, params: JsonObject, options?: SendOptions): Promise<void> {
    return this.#session.notifyUnchecked(method, params, options);
  }

  principalOf(requestId: RequestId): Principal | undefined {
    return this.#channel.info?.principalOf?.(requestId);
  }
}

/**
 * Where a handshake-era request's context sends things (the session; input is made on first use),
 * and its origin for the handler table (the server and this connection).
 */
class HandshakeOutput implements ContextOutput, RequestOrigin {
  readonly server: SessionHost;
  readonly #owner: ServerSession;
  readonly #request: InboundRequest;
  #broker: InputBroker | undefined;

  constructor(owner: ServerSession, server: SessionHost, request: InboundRequest) {
    this.#owner = owner;
    this.server = server;
    this.#request = request;
  }

  get connection(): ServerSession {
    return this.#owner;
  }

  notify(method: string, params: JsonObject, options: SendOptions): Promise<void> {
    return this.#owner.session.notify(method, params, options);
  }

  isLogEnabled(level: LoggingLevel): boolean {
    return isLevelEnabled(level, this.#owner.logLevel);
  }

  get broker(): InputBroker {
    return (this.#broker ??= createHandshakeBroker(this.#owner.session, {
      signal: this.#request.signal,
      relatedRequestId: this.#request.id,
    }));
  }

  disconnectForPolling(): boolean {
    return disconnectForPolling(this.#owner.channel, this.#request.id);
  }
}

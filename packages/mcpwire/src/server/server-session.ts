// One handshake-era connection of a Server: initialize and negotiation, per-session logging level,
// resource subscriptions, coalesced list_changed notifications, and the legacy request context.

import type { JsonObject, RequestId, SendOptions } from '../jsonrpc/message.ts';
import type { Principal } from '../protocol/principal.ts';
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
import { LEGACY_VERSIONS } from '../protocol/revisions.ts';
import type { Channel } from '../transports/channel.ts';
import type { MethodTable } from '../protocol/method-table.ts';
import type { InputBroker, RequestContext } from './context.ts';
import type { RequestOrigin } from './method-handlers.ts';
import { adaptResultForRevision } from '../protocol/downgrade.ts';
import { isModernClaim } from '../protocol/envelope.ts';
import { serveModern, type ModernHost, type ModernStream } from './modern.ts';
import { createLegacyBroker } from './legacy-broker.ts';
import { disconnectForPolling } from './polling-channel.ts';
import { createRequestContext, type ContextOutput } from './request-context.ts';
import { answerInitialize, requestedLevel } from './handshake.ts';
import { isLevelEnabled } from './logging.ts';

type ListKind = 'tools' | 'resources' | 'prompts';

/**
 * What a session needs of its server definition (the Server class provides it). List changes and
 * resource updates reach a session through `listChanged` / `resourceUpdated`, called by the server
 * for each of its sessions: no per-session subscription to keep.
 */
export interface SessionHost extends ModernHost {
  reportError(error: Error): void;
  /** The capabilities declared in `initialize` for `version`; default `capabilities()`. */
  capabilitiesAt?(version: string): object;
}

/** ServerSession's private steps, for SessionHooks (assigned in ServerSession's static block). */
let internals: {
  handleRequest(owner: ServerSession, request: InboundRequest): Promise<JsonObject>;
  intercept(owner: ServerSession, request: InboundRequest): Promise<JsonObject> | undefined;
  handleNotification(owner: ServerSession, method: string): void;
  handleClose(owner: ServerSession): void;
  reportError(owner: ServerSession, error: Error): void;
};

/** A live handshake-era connection of a Server. Created by `Server.connect`. */
export class ServerSession {
  readonly session: Session;
  /** The client's `clientInfo` from initialize. */
  clientInfo: Implementation | undefined;
  #server: SessionHost;
  #channel: Channel;
  /** Decided by the first request (S26 section 3.4): `initialize` or a stateless-era envelope. */
  #era: 'legacy' | 'modern' | undefined;
  /** Where stateless-era notifications go on this connection (made on first use). */
  #modern: ModernStream | undefined;
  #logLevel: LoggingLevel | undefined;
  /** Made on first subscription / first list change: most sessions never need them. */
  #subscriptions: Set<string> | undefined;
  #pendingLists: Set<ListKind> | undefined;
  #sessionId: string | undefined;
  #onClose: () => void;

  constructor(server: SessionHost, channel: Channel, onClose: () => void) {
    this.#server = server;
    this.#channel = channel;
    this.#onClose = onClose;
    this.session = new Session(new SessionHooks(this, channel, server.methods));
  }

  static {
    internals = {
      handleRequest: (owner, request) => owner.#handleRequest(request),
      intercept: (owner, request) => owner.#intercept(request),
      handleNotification: (owner, method) => owner.#handleNotification(method),
      handleClose: (owner) => owner.#handleClose(),
      reportError: (owner, error) => owner.#server.reportError(error),
    };
  }

  get #modernStream(): ModernStream {
    return (this.#modern ??= new SessionStream(this.session, this.#channel));
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
    if (this.session.state !== 'operating' || !this.#subscriptions) return;
    for (const subscribed of this.#subscriptions) {
      if (uri === subscribed || uri.startsWith(subscribed.endsWith('/') ? subscribed : `${subscribed}/`)) {
        this.session
          .notify('notifications/resources/updated', { uri })
          .catch((error: Error) => this.#server.reportError(error));
        return;
      }
    }
  }

  /** Every handshake-era request (initialize and ping too) goes through the server's one handler table. */
  async #handleRequest(request: InboundRequest): Promise<JsonObject> {
    const origin = new LegacyOutput(this, this.#server, request);
    const ctx = this.#context(request, origin);
    const result = await this.#server.dispatch(request.method, request.params, ctx, origin);
    return adaptResultForRevision(request.method, result, ctx.protocolVersion);
  }

  /** Routes stateless-era requests; keeps the two eras' state machines apart on one stream. */
  #intercept(request: InboundRequest): Promise<JsonObject> | undefined {
    const isClaim = isModernClaim(request.params);
    if (this.#era === undefined && isClaim) {
      this.#era = 'modern';
      // The stream's revision, for observers; the handshake-era checks never run on this connection.
      this.session.protocolVersion = '2026-07-28';
    }
    if (this.#era === 'modern') {
      if (request.method === 'initialize' && !isClaim) {
        return Promise.reject(
          new RpcError(
            ErrorCode.InvalidRequest,
            'Invalid Request: this connection is serving protocol revision 2026-07-28 without a handshake; "initialize" is not accepted on it',
          ),
        );
      }
      return serveModern(this.#server, request, this.#modernStream);
    }
    // A stateless-only method without a claim is a broken stateless request (-32602), not a lifecycle error.
    if (this.#era === undefined && this.#server.methods.isStatelessOnly(request.method))
      return serveModern(this.#server, request, this.#modernStream);
    if (isClaim) {
      return Promise.reject(
        new RpcError(
          ErrorCode.InvalidRequest,
          `Invalid Request: this connection negotiated protocol revision ${this.session.protocolVersion ?? '(pending)'} with initialize; stateless-era requests are not accepted on it`,
        ),
      );
    }
    return undefined;
  }

  /** `initialize` (answered by the session itself). */
  initialize(params: InitializeRequestParams): InitializeResult {
    this.#era = 'legacy';
    const { version, capabilities, result } = answerInitialize(this.#server, params);
    this.#negotiate(version, capabilities, params.capabilities as JsonObject);
    this.clientInfo = params.clientInfo as Implementation;
    this.session.setState('initializing');
    return result;
  }

  /** Settles the connection's revision and both sides' capabilities. */
  #negotiate(version: string, own: JsonObject, clientCapabilities: JsonObject): void {
    const session = this.session;
    session.protocolVersion = version;
    session.ownCapabilities = own;
    session.peerCapabilities = clientCapabilities;
  }

  /** `logging/setLevel`. */
  setLevel(params: SetLevelRequestParams): EmptyResult {
    this.#logLevel = requestedLevel(params);
    return {};
  }

  /** `resources/subscribe` and `resources/unsubscribe`. */
  subscribe(params: SubscribeRequestParams, isSubscribe: boolean): EmptyResult {
    const uri = params.uri as string;
    if (isSubscribe) (this.#subscriptions ??= new Set()).add(uri);
    else this.#subscriptions?.delete(uri);
    return {};
  }

  /** A request to the client outside any inbound request (see `LegacyConnection.sendRequest`). */
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

  #handleNotification(method: string): void {
    if (method === 'notifications/initialized' && this.session.state === 'initializing')
      this.session.setState('operating');
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

  #context(request: InboundRequest, output: LegacyOutput): RequestContext {
    const session = this.session;
    const meta = (request.params._meta as JsonObject | undefined) ?? {};
    return createRequestContext(
      {
        era: 'legacy',
        protocolVersion: session.protocolVersion ?? LEGACY_VERSIONS[0],
        clientCapabilities: session.peerCapabilities as ClientCapabilities,
        clientInfo: this.clientInfo,
        request,
        meta,
        auth: this.#channel.info?.principalOf?.(request.id),
      },
      output,
    );
  }

  /** See `LegacyConnection.sessionId`: drawn on first use (most sessions never need it). */
  get sessionId(): string {
    return (this.#sessionId ??= crypto.randomUUID());
  }

  /** The client's chosen logging level (`logging/setLevel`), if any. */
  get logLevel(): LoggingLevel | undefined {
    return this.#logLevel;
  }

  /** The connection's channel (for `disconnectForPolling`). */
  get channel(): Channel {
    return this.#channel;
  }

  #handleClose(): void {
    this.#onClose();
  }
}

/** The Session's options as one object with prototype methods (no closures per connection). */
class SessionHooks implements SessionOptions {
  readonly role = 'server';
  readonly servesPing = true;
  readonly channel: Channel;
  readonly methods: MethodTable;
  readonly #owner: ServerSession;

  constructor(owner: ServerSession, channel: Channel, methods: MethodTable) {
    this.#owner = owner;
    this.channel = channel;
    this.methods = methods;
  }

  handleRequest(request: InboundRequest): Promise<JsonObject> {
    return internals.handleRequest(this.#owner, request);
  }

  intercept(request: InboundRequest): Promise<JsonObject> | undefined {
    return internals.intercept(this.#owner, request);
  }

  handleNotification(method: string): void {
    internals.handleNotification(this.#owner, method);
  }

  handleClose(): void {
    internals.handleClose(this.#owner);
  }

  onError(error: Error): void {
    internals.reportError(this.#owner, error);
  }
}

/** Stateless-era notifications on a dual-era connection: unchecked against the handshake-era table. */
class SessionStream implements ModernStream {
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
class LegacyOutput implements ContextOutput, RequestOrigin {
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
    return (this.#broker ??= createLegacyBroker(this.#owner.session, {
      signal: this.#request.signal,
      relatedRequestId: this.#request.id,
    }));
  }

  disconnectForPolling(): boolean {
    return disconnectForPolling(this.#owner.channel, this.#request.id);
  }
}

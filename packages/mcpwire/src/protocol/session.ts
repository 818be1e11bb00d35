// A handshake-era MCP session over one connection: lifecycle, method-table checks both ways,
// cancellation, progress and timeouts. Client and Server each own one; neither inherits it.

import { RequestCancelledError, RequestTimeoutError } from '../jsonrpc/errors.ts';
import type { JsonObject, Message, RequestId, SendOptions } from '../jsonrpc/message.ts';
import { CapabilityNotNegotiatedError, hasCapability, ProtocolStateError } from './capabilities.ts';
import type { InboundScope } from './inbound-check.ts';
import { MethodTable } from './method-table.ts';
import { canSend, checkParams, isGateRequired, isMethodInRevision, type MethodSpec } from './methods.ts';
import type { ProgressHandler } from './progress.ts';
import { isStatelessVersion } from './revisions.ts';
import { type ChannelReceiver, type InboundRequest, SessionLink } from './session-link.ts';

export type { InboundRequest };

/** Where a session is in the handshake-era lifecycle. */
export type SessionState = 'new' | 'initializing' | 'operating' | 'closed';

/** The structural channel a session needs (transports' Channel satisfies it). */
export interface SessionChannel {
  open(receiver: ChannelReceiver): void;
  send(message: Message | readonly Message[], options?: SendOptions): Promise<void>;
  close(): Promise<void>;
}

/** The session's owner: its role, its method handlers and its negotiated facts. */
export interface SessionOptions {
  role: 'client' | 'server';
  channel: SessionChannel;
  /** The methods this side knows: the core's and its extensions'. Default: the core table. */
  methods?: MethodTable;
  /**
   * True if `handleRequest` answers `ping` (a Server's handler table does, so middleware sees it);
   * otherwise the session answers it with `{}` (PING-2).
   */
  servesPing?: boolean;
  /** Serves one inbound request (checked, unless `checksInbound` is false). Throw RpcError for protocol errors. */
  handleRequest(request: InboundRequest): Promise<JsonObject> | JsonObject;
  /** Receives one inbound notification that passed the table checks (cancel and progress are handled here). */
  handleNotification?(method: string, params: JsonObject): void;
  /**
   * False when `handleRequest` checks every inbound request itself against `inboundScope` (a
   * Server's one serve path does, for both eras on one connection, S26 section 3.4). Default true:
   * the session checks, answers `ping` unless `servesPing`, and hands on what passed.
   */
  checksInbound?: boolean;
  handleClose?(error?: Error): void;
  /** Local diagnostics (bad input, handler crashes). Never sent on the wire. */
  onError?: (error: Error) => void;
}

/** Per-call options for an outbound request. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Milliseconds without a response (or progress, see below) before cancelling; default 60,000. */
  timeoutMs?: number;
  /** Progress notifications restart the timeout (LIFE-15); default true when onProgress is given. */
  resetTimeoutOnProgress?: boolean;
  /** Hard maximum regardless of progress; default 10 minutes. */
  maxTotalTimeoutMs?: number;
  /** Receives `notifications/progress` for this request; sets `_meta.progressToken`. */
  onProgress?: ProgressHandler;
  /** Told the request's id once it is allocated (e.g. a listen request's subscription id). */
  onRequestId?: (id: RequestId) => void;
  /** The inbound request this one is made while serving (HTTP puts it on that request's stream). */
  relatedRequestId?: RequestId;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_TOTAL_MS = 600_000;

/**
 * One handshake-era MCP connection. Inbound messages are checked against the method table in
 * order: known, right sender, right kind, lifecycle, revision, negotiated capability, params.
 * Outbound messages get the same checks and fail locally instead of breaking the protocol.
 */
export class Session {
  readonly role: 'client' | 'server';
  /** The negotiated protocol revision once initialize has been answered. */
  protocolVersion: string | undefined;
  /** This side's declared capabilities. */
  ownCapabilities: JsonObject = {};
  /** The peer's declared capabilities (known after initialize). */
  peerCapabilities: JsonObject = {};
  #state: SessionState = 'new';
  #options: SessionOptions;
  readonly #link: SessionLink;

  constructor(options: SessionOptions) {
    this.role = options.role;
    this.#options = options;
    this.#link = new SessionLink(this, options, options.methods ?? MethodTable.core);
  }

  /** The lifecycle state. */
  get state(): SessionState {
    return this.#state;
  }

  /** What the inbound check reads of this session (lifecycle, revision, own capabilities); one object. */
  get inboundScope(): InboundScope {
    return this.#link;
  }

  /** Starts receiving from the channel. Call once, after wiring. */
  start(): void {
    this.#options.channel.open(this.#link.peer);
  }

  /** Moves the lifecycle forward (the owner drives the handshake). */
  setState(state: SessionState): void {
    if (this.#state !== 'closed') this.#state = state;
  }

  /** Closes the connection; pending requests reject with ConnectionClosedError. Idempotent. */
  async close(): Promise<void> {
    await this.#options.channel.close();
    this.#link.peer.handleClose();
  }

  /**
   * Sends a request after the table checks and resolves with its result. Rejects with RpcError
   * (the peer's error), RequestTimeoutError, RequestCancelledError, ConnectionClosedError, or a
   * local CapabilityNotNegotiatedError / ProtocolStateError without sending anything.
   */
  async request(
    method: string,
    params: JsonObject | undefined,
    options: RequestOptions = {},
  ): Promise<JsonObject> {
    this.#checkOutbound(method, 'request', params);
    options.signal?.throwIfAborted();
    const id = this.#link.peer.nextId();
    options.onRequestId?.(id);
    let outbound = params;
    if (options.onProgress) outbound = this.#link.progress.attach(id, params, options.onProgress);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const started = Date.now();
    const maxTotal = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cancel = (error: Error, reason: string): void => {
      if (!this.#link.peer.abandon(id, error)) return;
      // LIFE-12: initialize is never cancelled.
      if (method !== 'initialize')
        this.#link.peer.notify('notifications/cancelled', { requestId: id, reason }).catch(() => {});
    };
    const arm = (): void => {
      clearTimeout(timer);
      // No timer at all for requests meant to stay open (a listen stream): both limits infinite.
      if (!Number.isFinite(timeoutMs) && !Number.isFinite(maxTotal)) return;
      const remaining = Math.min(timeoutMs, maxTotal - (Date.now() - started), 2 ** 31 - 1);
      timer = setTimeout(
        () => cancel(new RequestTimeoutError(method, timeoutMs), 'Request timed out'),
        Math.max(0, remaining),
      );
    };
    if (options.onProgress && options.resetTimeoutOnProgress !== false)
      this.#link.progressIfAny?.onActivity(id, arm);
    const onAbort = (): void =>
      cancel(new RequestCancelledError(method, options.signal?.reason), abortReason(options.signal));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    arm();
    try {
      const sendOptions =
        options.relatedRequestId === undefined ? undefined : { relatedRequestId: options.relatedRequestId };
      return await this.#link.peer.request(method, outbound, id, sendOptions);
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      this.#link.progressIfAny?.detach(id);
    }
  }

  /** Sends a notification after the table checks (own or peer capability, lifecycle). */
  notify(method: string, params?: JsonObject, options?: SendOptions): Promise<void> {
    try {
      this.#checkOutbound(method, 'notification', params);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.#link.peer.notify(method, params, options);
  }

  /** Sends a notification without table checks, for messages the owner has already vetted. */
  notifyUnchecked(method: string, params?: JsonObject, options?: SendOptions): Promise<void> {
    return this.#link.peer.notify(method, params, options);
  }

  #checkOutbound(method: string, kind: MethodSpec['kind'], params: JsonObject | undefined): void {
    const spec = this.#link.methods.lookup(method);
    if (!spec) return; // Custom and experimental methods are the caller's business.
    if (spec.kind !== kind) throw new ProtocolStateError(`"${method}" is a ${spec.kind}, not a ${kind}`);
    if (!canSend(spec, this.role)) throw new ProtocolStateError(`A ${this.role} cannot send "${method}"`);
    if (this.#state === 'closed') return; // The peer layer reports the closed connection.
    const version = this.protocolVersion;
    if (version === undefined) {
      const isEarly =
        method === 'initialize' ||
        method === 'ping' ||
        method === 'notifications/message' ||
        method === 'notifications/progress';
      if (!isEarly) throw new ProtocolStateError(`Cannot send "${method}" before initialization`);
      return;
    }
    if (!isMethodInRevision(spec, version)) {
      throw new ProtocolStateError(`"${method}" does not exist in protocol revision ${version}`);
    }
    // LIFE-6: before `initialized`, a server sends only ping and logging.
    if (this.role === 'server' && this.#state === 'initializing' && kind === 'request' && method !== 'ping') {
      throw new ProtocolStateError(`Cannot send "${method}" before the client's notifications/initialized`);
    }
    // The stateless era gates a method it moved into an extension by that extension (statelessGate).
    const gate = isStatelessVersion(version) ? (spec.statelessGate ?? spec.gate) : spec.gate;
    if (gate && isGateRequired(method, version)) {
      const isOwn = gate.side === this.role || (gate.side === 'receiver' && kind === 'notification');
      const caps = isOwn ? this.ownCapabilities : this.peerCapabilities;
      if (!hasCapability(caps, gate.path)) throw new CapabilityNotNegotiatedError(method, gate);
    }
    const problem = checkParams(method, spec, params);
    if (problem) throw new TypeError(`Cannot send: ${problem}`);
  }
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (typeof reason === 'string') return reason;
  if (reason instanceof Error && reason.name !== 'AbortError') return reason.message;
  return 'Cancelled by the caller';
}

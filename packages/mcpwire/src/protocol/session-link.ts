// The inbound side of a handshake-era Session, one object per connection: the Peer's options and
// handler (what the Peer sends through, and where inbound requests and notifications go, checked
// against the method table), with the progress of the session's outbound requests. The Peer is the
// channel's receiver. Also the InboundRequest a session hands upward.

import type { Frame } from '../jsonrpc/codec.ts';
import type {
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  Message,
  RequestId,
  SendOptions,
} from '../jsonrpc/message.ts';
import { type Cancellation, Peer, type PeerHandler, type PeerOptions } from '../jsonrpc/peer.ts';
import { checkInbound, checkLifecycle, type InboundScope } from './inbound-check.ts';
import type { MethodTable } from './method-table.ts';
import { canSend, checkParams } from './methods.ts';
import { ProgressTracker } from './progress.ts';
import { isWireObserved, observeWire } from './wire-observer.ts';

/** What a channel delivers to: frames, then its close. */
export interface ChannelReceiver {
  handleFrame(frame: Frame): void;
  handleClose(error?: Error): void;
}

/** What the upper layer sees of one inbound request. */
export interface InboundRequest {
  id: RequestId;
  method: string;
  params: JsonObject;
  /** Aborts when the request is cancelled or the session closes (made on first use). */
  readonly signal: AbortSignal;
  /** True once cancelled: the cheap check, no signal made. */
  readonly isCancelled: boolean;
}

/** The Session as its link reads and moves it (structural: session.ts imports this file). */
export interface LinkedSession {
  readonly role: 'client' | 'server';
  readonly protocolVersion: string | undefined;
  readonly ownCapabilities: object;
  readonly state: 'new' | 'initializing' | 'operating' | 'closed';
  setState(state: 'closed'): void;
}

/** What the link uses of the session's options (`SessionOptions` of session.ts). */
export interface LinkOptions {
  channel: { send(message: Message | readonly Message[], options?: SendOptions): Promise<void> };
  checksInbound?: boolean;
  servesPing?: boolean;
  handleRequest(request: InboundRequest): Promise<JsonObject> | JsonObject;
  handleNotification?(method: string, params: JsonObject): void;
  handleClose?(error?: Error): void;
  onError?: (error: Error) => void;
}

/**
 * An InboundRequest whose signal is the cancellation's (made on first use). A class: an object
 * literal with accessors costs a closure pair per request.
 */
export class Inbound implements InboundRequest {
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject;
  readonly #cancellation: Cancellation;

  constructor(id: RequestId, method: string, params: JsonObject, cancellation: Cancellation) {
    this.id = id;
    this.method = method;
    this.params = params;
    this.#cancellation = cancellation;
  }

  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }

  get isCancelled(): boolean {
    return this.#cancellation.aborted;
  }
}

/**
 * A session's Peer wiring and inbound side. Inbound requests are checked (unless the owner checks
 * them itself) and handed to the owner; `notifications/cancelled` and `notifications/progress` are
 * handled here. Every frame and every message sent is reported to the wire observer, if any. It is
 * also the inbound check's view of the session (`InboundScope`): one object for the connection.
 */
export class SessionLink implements PeerOptions, PeerHandler, InboundScope {
  /** The connection's Peer (ids, pending map, inbound cancellations); the channel delivers to it. */
  readonly peer: Peer;
  readonly #session: LinkedSession;
  readonly #options: LinkOptions;
  /** The methods this side knows. */
  readonly methods: MethodTable;
  /** Made for the first outbound request that wants progress. */
  #progress: ProgressTracker | undefined;

  constructor(session: LinkedSession, options: LinkOptions, methods: MethodTable) {
    this.#session = session;
    this.#options = options;
    this.methods = methods;
    this.peer = new Peer(this);
  }

  get handler(): PeerHandler {
    return this;
  }

  /** InboundScope: the side receiving requests. */
  get receiver(): 'client' | 'server' {
    return this.#session.role;
  }

  get era(): 'handshake' {
    return 'handshake';
  }

  get protocolVersion(): string | undefined {
    return this.#session.protocolVersion;
  }

  get ownCapabilities(): object {
    return this.#session.ownCapabilities;
  }

  checkLifecycle(method: string): void {
    checkLifecycle(this.#session.role, this.#session.state, method);
  }

  /** A server answers an undecodable frame with its error response; a client only reports it. */
  get shouldAnswerInvalid(): boolean {
    return this.#session.role === 'server';
  }

  /** The progress of outbound requests, made on first use. */
  get progress(): ProgressTracker {
    return (this.#progress ??= new ProgressTracker());
  }

  /** The progress tracker if one was made. */
  get progressIfAny(): ProgressTracker | undefined {
    return this.#progress;
  }

  onError(error: Error): void {
    this.#options.onError?.(error);
  }

  send(message: Message | readonly Message[], options?: SendOptions): Promise<void> {
    if (isWireObserved()) this.#observe('sent', message);
    return this.#options.channel.send(message, options);
  }

  onFrame(frame: Frame): void {
    if (isWireObserved()) this.#observe('received', frame);
  }

  canBatch(): boolean {
    return this.#session.protocolVersion === '2025-03-26';
  }

  handleRequest(request: JsonRpcRequest, cancellation: Cancellation): Promise<JsonObject> | JsonObject {
    const params = request.params ?? {};
    const inbound = new Inbound(request.id, request.method, params, cancellation);
    const options = this.#options;
    if (options.checksInbound === false) return options.handleRequest(inbound);
    checkInbound(this.methods.lookup(request.method), request, this);
    if (request.method === 'ping' && options.servesPing !== true) return {};
    return options.handleRequest(inbound);
  }

  handleNotification(notification: JsonRpcNotification): void {
    const { method } = notification;
    const params = notification.params ?? {};
    const spec = this.methods.lookup(method);
    const options = this.#options;
    if (!spec) return options.handleNotification?.(method, params);
    const peerRole = this.#session.role === 'client' ? 'server' : 'client';
    if (spec.kind !== 'notification' || !canSend(spec, peerRole)) {
      return options.onError?.(new Error(`Ignored "${method}": not a notification a ${peerRole} may send`));
    }
    const problem = checkParams(method, spec, notification.params);
    if (problem) return options.onError?.(new Error(`Ignored notification: ${problem}`));
    switch (method) {
      case 'notifications/cancelled':
        // CANCEL-7: unknown or finished ids are ignored silently.
        if (params.requestId !== undefined)
          this.peer.abortInbound(params.requestId as RequestId, params.reason);
        return;
      case 'notifications/progress':
        // Progress for no active request goes to the owner (PROG-5: a task's token outlives its request).
        if (this.#progress?.handle(params) === true) return;
        break;
    }
    options.handleNotification?.(method, params);
  }

  handleClose(error?: Error): void {
    this.#session.setState('closed');
    this.#progress?.clear();
    this.#options.handleClose?.(error);
  }

  #observe(direction: 'sent' | 'received', message: Message | readonly Message[] | Frame): void {
    const session = this.#session;
    observeWire({
      connection: session,
      role: session.role,
      direction,
      protocolVersion: session.protocolVersion,
      message,
    });
  }
}

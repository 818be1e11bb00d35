// How a Session talks to its Peer and its channel without a closure per connection: one object each,
// with prototype methods that reach the Session's private steps (bound once, from Session's static
// block). Per-session closures were most of an idle session's memory and of a stateless request's
// garbage. Also the InboundRequest a session hands upward.

import type { Frame } from '../jsonrpc/codec.ts';
import type {
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  Message,
  RequestId,
  SendOptions,
} from '../jsonrpc/message.ts';
import type { Cancellation, PeerHandler, PeerOptions } from '../jsonrpc/peer.ts';
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

/** The session as the bridges know it (no import of session.ts): handed back to its own steps. */
interface Session {
  readonly protocolVersion: string | undefined;
}

/** Session's private steps, as the bridges call them. */
export interface SessionSteps {
  send(session: Session, message: Message | readonly Message[], options?: SendOptions): Promise<void>;
  handleRequest(
    session: Session,
    request: JsonRpcRequest,
    cancellation: Cancellation,
  ): Promise<JsonObject> | JsonObject;
  handleNotification(session: Session, notification: JsonRpcNotification): void;
  handleClose(session: Session, error?: Error): void;
  received(session: Session, frame: Frame): void;
  closed(session: Session, error?: Error): void;
}

let steps: SessionSteps;

/** What a PeerBridge reads of the session's options. */
interface BridgeOptions {
  role: 'client' | 'server';
  onError?: (error: Error) => void;
}

/** Called once, by Session's static block. */
export function bindSessionSteps(bound: SessionSteps): void {
  steps = bound;
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

/** The Peer's options and handler in one object. */
export class PeerBridge implements PeerOptions, PeerHandler {
  readonly handler: PeerHandler = this;
  readonly shouldAnswerInvalid: boolean;
  readonly #session: Session;
  readonly #options: BridgeOptions;

  constructor(session: Session, options: BridgeOptions) {
    this.#session = session;
    this.#options = options;
    this.shouldAnswerInvalid = options.role === 'server';
  }

  onError(error: Error): void {
    this.#options.onError?.(error);
  }

  send(message: Message | readonly Message[], options?: SendOptions): Promise<void> {
    return steps.send(this.#session, message, options);
  }

  canBatch(): boolean {
    return this.#session.protocolVersion === '2025-03-26';
  }

  handleRequest(request: JsonRpcRequest, cancellation: Cancellation): Promise<JsonObject> | JsonObject {
    return steps.handleRequest(this.#session, request, cancellation);
  }

  handleNotification(notification: JsonRpcNotification): void {
    steps.handleNotification(this.#session, notification);
  }

  handleClose(error?: Error): void {
    steps.handleClose(this.#session, error);
  }
}

/** The channel's receiver. */
export class SessionReceiver implements ChannelReceiver {
  readonly #session: Session;

  constructor(session: Session) {
    this.#session = session;
  }

  handleFrame(frame: Frame): void {
    steps.received(this.#session, frame);
  }

  handleClose(error?: Error): void {
    steps.closed(this.#session, error);
  }
}

// One session of the 2024-11-05 HTTP+SSE transport, server side: the SSE response stream carries
// every server message out, POSTs to the session's endpoint carry client messages in (COMPAT-3).

import { encodeMessage, type Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import type { Message } from '../../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from '../channel.ts';
import { Inbox } from '../inbox.ts';
import { SseConnection } from './sse-writer.ts';

/** Options of {@link LegacySseChannel}. */
export interface LegacySseChannelOptions {
  /** The session id, already in `endpoint`. */
  sessionId: string;
  /** The URI the client must POST to, sent as the stream's first event (`event: endpoint`). */
  endpoint: string;
  /** Milliseconds between keep-alive comments on an idle stream; 0 sends none. */
  keepAliveMs: number;
  /** The GET request's signal: its abort (the client went away) closes the session. */
  signal: AbortSignal;
  /** Called exactly once, when the session closes for any reason, so the owner can forget it. */
  handleRelease: () => void;
}

/**
 * A Channel over one SSE response. `body` is the response body; its first event is `endpoint`.
 * `send` writes each message (or batch) as one `event: message` and resolves once it is queued.
 * The channel closes, exactly once, when the request's signal aborts, the reader cancels `body`,
 * or `close()` is called; closing ends the body, stops its keep-alive timer, tells the receiver and
 * calls `handleRelease`. After close, `send` rejects with ConnectionClosedError and `deliver` drops frames.
 */
export class LegacySseChannel implements Channel {
  readonly info: ChannelInfo;
  readonly #connection: SseConnection;
  readonly #inbox = new Inbox();
  readonly #signal: AbortSignal;
  readonly #handleRelease: () => void;

  constructor(options: LegacySseChannelOptions) {
    this.info = { sessionId: options.sessionId };
    this.#signal = options.signal;
    this.#handleRelease = options.handleRelease;
    this.#connection = new SseConnection({ keepAliveMs: options.keepAliveMs });
    this.#connection.write({ event: 'endpoint', data: options.endpoint });
    this.#connection.onGone(() => this.#finish());
    if (this.#signal.aborted) this.#finish();
    else this.#signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** The SSE response body. */
  get body(): ReadableStream<Uint8Array> {
    return this.#connection.body;
  }

  /** True once the session has closed. */
  get isClosed(): boolean {
    return this.#inbox.isClosed;
  }

  open(receiver: ChannelReceiver): void {
    this.#inbox.open(receiver);
  }

  /** Hands one POSTed frame to the receiver (buffered before `open`); a no-op after close. */
  deliver(frame: Frame): void {
    this.#inbox.deliver(frame);
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (this.#inbox.isClosed) {
      return Promise.reject(new ConnectionClosedError('The SSE stream of this session is closed'));
    }
    this.#connection.write({ event: 'message', data: encodeMessage(message) });
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.#finish();
    return Promise.resolve();
  }

  readonly #onAbort = (): void => {
    this.#finish();
  };

  #finish(): void {
    if (!this.#inbox.close()) return;
    this.#signal.removeEventListener('abort', this.#onAbort);
    this.#connection.close();
    this.#handleRelease();
  }
}

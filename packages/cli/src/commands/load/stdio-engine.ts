// `load`'s wire engine over stdio: sits between the Client and its process channel, writes the
// timed loop's requests as text straight to the channel (writeRaw: whose writer sends all written in
// one tick as one write, with no promise) and takes their answers by id from the channel's lines
// as bytes, before they are decoded (takeLineBytes), settling each request as its answer is read (a closed-loop
// worker's reused request: no promise per request); every other line (the Client's own answers, the
// server's requests and notifications) still reaches the Client. A request's send time is the moment
// of the write that carries it, its answer's the moment it is taken.

import {
  ConnectionClosedError,
  MessageTooLargeError,
  RequestTimeoutError,
  RpcError,
  type Channel,
  type ChannelReceiver,
  type DiscardedMessage,
  type Frame,
  type JsonObject,
  type Message,
  parseMessage,
} from 'mcpwire';
import type { StdioClientChannel } from 'mcpwire/stdio';
// Imported, not the globals: in Node 20 `process` and `performance` on globalThis are getters, which
// compiled code calls on every use (130 and 100 ns more per use here, a microbenchmark at load 13).
import { performance } from 'node:perf_hooks';
import { nextTick } from 'node:process';
import { lineOf, messageOf, type WireTemplate } from './load-wire.ts';
import { PendingRequests } from './pending-requests.ts';
import { runInMicrotask } from './microtask.ts';
import { SameAnswer } from './same-answer.ts';
import type { SendTiming } from './send-timing.ts';
import { TimeoutSweep, type EngineRequest } from './timeout-sweep.ts';

/** The library's stdio channel's raw seam: its lines before they are decoded, text written as is. */
type RawChannel = Pick<StdioClientChannel, 'takeLineBytes' | 'writeRaw'>;

/** One connection's engine over stdio; `wrap` is given the Client's channel once. */
export class StdioEngine {
  #channel: Channel | undefined;
  /** The channel, when it is the library's process channel (not one wrapped by --trace or --record). */
  #raw: RawChannel | undefined;
  #isClosed = false;
  readonly #pending = new PendingRequests<EngineRequest>();
  readonly #sameAnswer = new SameAnswer();
  readonly #sweep: TimeoutSweep;
  /** The requests sent in this tick: the channel's writer joins them into one write when it ends. */
  #unstamped: EngineRequest[] = [];
  /**
   * The clock reading of the read being taken, NaN between reads: every answer of one read is
   * stamped with one reading, as a hand-written driver stamps its read (each reading costs a native
   * call and an array in Node 20's performance.now). The lines of a read reach `#takeLine`
   * synchronously, so a microtask after the first is past the read's last.
   */
  #readAt = NaN;
  readonly #endRead = (): void => {
    this.#readAt = NaN;
  };
  readonly #stamp = (): void => {
    const now = performance.now();
    for (const request of this.#unstamped) {
      request.sentAt = now;
      if (request.timing !== undefined) request.timing.sentAt = now;
    }
    this.#unstamped.length = 0;
  };

  constructor(timeoutMs: number) {
    this.#sweep = new TimeoutSweep(this.#pending, timeoutMs, (request) =>
      request.reject(new RequestTimeoutError(request.method, timeoutMs)),
    );
  }

  /** False once the process channel has closed. */
  get isConnected(): boolean {
    return this.#channel !== undefined && !this.#isClosed;
  }

  /** The Client's channel with this engine between it and the process. */
  wrap(channel: Channel): Channel {
    this.#channel = channel;
    if (isRawChannel(channel)) {
      this.#raw = channel;
      channel.takeLineBytes(this.#takeLine);
    }
    const wrapped: Channel = {
      open: (receiver: ChannelReceiver) =>
        channel.open({
          handleFrame: (frame) => {
            if (!this.#takeFrame(frame)) receiver.handleFrame(frame);
          },
          handleClose: (error) => {
            this.#close(error);
            receiver.handleClose(error);
          },
        }),
      send: (message, options) => channel.send(message, options),
      close: () => channel.close(),
    };
    Object.defineProperty(wrapped, 'info', { get: () => channel.info, enumerable: true });
    Object.defineProperty(wrapped, 'exitStatus', {
      get: () => (channel as { exitStatus?: unknown }).exitStatus,
    });
    return wrapped;
  }

  /**
   * Sends `message` (a request with id `id`) and resolves with its result; rejects as the Client
   * would. Fills `timing`: sent when the write carrying it is handed to the pipe, answered when taken.
   */
  request(
    template: WireTemplate,
    id: number,
    params: JsonObject | undefined,
    timing?: SendTiming,
  ): Promise<JsonObject> {
    const method = template.message.method as string;
    return new Promise((resolve, reject) => {
      this.send(template, id, params, { method, sentAt: 0, timing, resolve, reject });
    });
  }

  /**
   * Sends `template`'s request with id `id` and `params` and settles `request` with its answer (`resolve` with
   * the result, `reject` as the Client would), never before this call returns; `request` may be
   * reused once settled (a closed-loop worker's, so its hot path allocates no promise). Fills
   * `request.timing` as `request` does.
   */
  send(template: WireTemplate, id: number, params: JsonObject | undefined, request: EngineRequest): void {
    if (!this.isConnected) {
      nextTick(() => request.reject(new ConnectionClosedError('The stdio channel is closed')));
      return;
    }
    // Its sentAt is the write's time (#stamp, before any timer of the sweep can run).
    this.#pending.set(id, request);
    this.#sweep.start();
    // Queued before the channel's writer queues its flush (nextTick, in order): the stamp
    // runs after every request of this tick is queued, just before their one write.
    if (this.#unstamped.push(request) === 1) nextTick(this.#stamp);
    if (this.#raw !== undefined) {
      // A write that fails later fails the request when the channel closes (the process has gone).
      if (this.#raw.writeRaw(lineOf(template, id, params))) return;
      this.#pending.delete(id);
      nextTick(() => request.reject(new ConnectionClosedError('The stdio channel is closed')));
      return;
    }
    const message = messageOf(template, id, params) as unknown as Message;
    this.#channel!.send(message).catch((error: unknown) => {
      if (this.#pending.get(id) !== request) return;
      this.#pending.delete(id);
      request.reject(error);
    });
  }

  /**
   * The channel's listener for each line, before it is decoded: true when it answers a request of
   * the engine (which it settles), else false and the line goes on to the Client as the library
   * decodes it. The engine's answers are checked by the library's own `parseMessage`, but for a
   * line that is the last result answer again around another id (same-answer.ts); nothing is
   * parsed while none of the engine's requests is in flight (the handshake, the Client's requests).
   */
  readonly #takeLine = (bytes: Buffer, start: number, end: number): boolean => {
    if (this.#pending.size === 0) return false;
    // The last result again around another id: settled with the result already parsed, and the
    // line never decoded to text.
    const sameId = this.#sameAnswer.idOf(bytes, start, end);
    if (sameId !== -1) {
      const request = this.#pending.get(sameId);
      if (request !== undefined) return this.#resolve(sameId, request, this.#sameAnswer.result);
    }
    const text = bytes.toString('utf8', start, end);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return false;
    }
    if (typeof value !== 'object' || value === null || 'method' in value) return false;
    const { id } = value as { id?: unknown };
    if (typeof id !== 'number' || !this.#pending.has(id)) return false;
    // An answer of the engine's that missed the template (a notification above is none).
    this.#sameAnswer.countMiss();
    const frame = parseMessage(value);
    if (frame.type !== 'message' || !this.#take(frame.message)) return false;
    if ('result' in frame.message) this.#sameAnswer.remember(text, id, frame.message.result);
    return true;
  };

  /** Settles the engine's request `frame` answers or fails; false when it is none of the engine's. */
  #takeFrame(frame: Frame): boolean {
    if (frame.type === 'message') return this.#take(frame.message);
    if (frame.type !== 'invalid' || frame.discarded === undefined) return false;
    return this.#failDiscarded(frame.discarded);
  }

  /**
   * A line over --max-message-size was discarded (the library's splitter read its first bytes): the
   * request it answers fails now, as the Client fails its own (the Client never knew of the engine's
   * ids), rather than waiting for its timeout. Without an id, every request of the engine fails, and
   * the Client still gets the frame for its own. True when the frame was the engine's alone.
   */
  #failDiscarded(discarded: DiscardedMessage): boolean {
    if (discarded.kind === 'request') return false;
    const { id, bytes, limit } = discarded;
    const isIdRead = id !== undefined;
    const ids: number[] = typeof id === 'number' ? [id] : [];
    if (!isIdRead) this.#pending.forEach((_, each) => ids.push(each));
    let isTaken = false;
    for (const each of ids) {
      const request = this.#pending.get(each);
      if (request === undefined) continue;
      this.#pending.delete(each);
      if (request.timing !== undefined) request.timing.answeredAt = performance.now();
      request.reject(new MessageTooLargeError(request.method, { bytes, limit, isIdRead }));
      isTaken = isIdRead;
    }
    return isTaken;
  }

  /** Settles the engine's request `message` answers; false when it is not one. */
  #take(message: Message): boolean {
    if ('method' in message || typeof message.id !== 'number') return false;
    const request = this.#pending.get(message.id);
    if (request === undefined) return false;
    if (!('error' in message)) return this.#resolve(message.id, request, message.result);
    this.#pending.delete(message.id);
    if (request.timing !== undefined) request.timing.answeredAt = this.#readTime();
    const { code, message: text, data } = message.error;
    request.reject(new RpcError(code, text, data));
    return true;
  }

  #resolve(id: number, request: EngineRequest, result: JsonObject): true {
    this.#pending.delete(id);
    if (request.timing !== undefined) request.timing.answeredAt = this.#readTime();
    request.resolve(result);
    return true;
  }

  /** The time of the read being taken: read once per read. */
  #readTime(): number {
    if (Number.isNaN(this.#readAt)) {
      this.#readAt = performance.now();
      runInMicrotask(this.#endRead);
    }
    return this.#readAt;
  }

  #close(error: Error | undefined): void {
    this.#isClosed = true;
    this.#raw?.takeLineBytes(undefined);
    this.#sweep.stop();
    const failure = error ?? new ConnectionClosedError('The stdio channel is closed');
    const requests: EngineRequest[] = [];
    this.#pending.forEach((request) => requests.push(request));
    this.#pending.clear();
    for (const request of requests) request.reject(failure);
  }

  /** Stops the timeout sweep (the channel is closed by the Client). */
  dispose(): void {
    this.#sweep.stop();
    this.#raw?.takeLineBytes(undefined);
  }
}

function isRawChannel(channel: Channel): channel is Channel & RawChannel {
  const candidate = channel as Partial<RawChannel>;
  return typeof candidate.takeLineBytes === 'function' && typeof candidate.writeRaw === 'function';
}

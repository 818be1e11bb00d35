// Writes lines to a Node Writable with backpressure; a failing stream (EPIPE, destroyed, ended)
// rejects writes with ConnectionClosedError instead of throwing or crashing the process.

// Imported, not the global: in Node 20 `process` on globalThis is a getter, called on every use.
import { nextTick } from 'node:process';
import type { Writable } from 'node:stream';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';

/** The shape of `Writable.write` used here: a chunk and a completion callback. */
export type WriteFunction = (chunk: string, callback: (error?: Error | null) => void) => boolean;

/** Options of {@link LineWriter}. */
export interface LineWriterOptions {
  /** Names the stream in error messages, e.g. `'stdout'`. */
  name: string;
  /** Writes to the stream; defaults to its own `write`. The stdout guard passes the real one. */
  write?: WriteFunction | undefined;
  /** Called once, on the first failure of the stream itself (not after `fail`). */
  handleFailure?: ((error: ConnectionClosedError) => void) | undefined;
  /**
   * Hand the lines written in one tick to the stream together (joined, and written when the tick
   * ends: one write). For a stream of our own, such as a child's stdin or a stdio server's stdout;
   * default false.
   */
  isCoalescing?: boolean | undefined;
  /**
   * With `isCoalescing`, how long the lines wait: `'tick'` (default) until the current tick ends;
   * `'turn'` until the current turn of the event loop ends (`setImmediate`), so the lines of
   * several ticks (answers read from several sockets in one poll) go out in one write.
   */
  coalesceUntil?: 'tick' | 'turn' | undefined;
}

/** Who waits for a write: settled by the stream's write callback. */
interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

interface QueuedLine extends Waiter {
  text: string;
}

const NO_LINES: readonly Waiter[] = [];
const ignore = (): void => {};

/**
 * Serialises writes in call order (with `isCoalescing`, those of one tick reach the stream
 * together: N pipelined lines, one write). Each `write` resolves once the stream has flushed that text
 * (its write callback). While the stream's buffer is full (`write()` returned false), later texts
 * wait in a queue and are handed over on 'drain'. The writer listens for 'error' on the stream
 * until `release`, so an EPIPE never becomes an uncaught exception.
 */
export class LineWriter {
  readonly #stream: Writable;
  readonly #name: string;
  readonly #write: WriteFunction;
  readonly #handleFailure: ((error: ConnectionClosedError) => void) | undefined;
  #queue: QueuedLine[] = [];
  #head = 0;
  #isBlocked = false;
  #inFlight = 0;
  #failure: ConnectionClosedError | undefined;
  #hasStreamFailed = false;
  #isReleased = false;
  #idleWaiters: Array<() => void> = [];
  readonly #isCoalescing: boolean;
  readonly #isTurnLong: boolean;
  /**
   * With `isCoalescing`: the texts of this tick, joined, written at its end; who waits for them, and
   * how many texts in all (`writeRaw`'s have no waiter). The `write`s of one batch share one promise
   * (`#batchWritten`): one write flushes them all, so they settle together anyway.
   */
  #batchText = '';
  #batchLines: Waiter[] = [];
  #batchCount = 0;
  #batchWritten: Promise<void> | undefined;
  readonly #flushBatch = (): void => {
    if (this.#batchCount === 0) return; // Already written by `flush`.
    const lines = this.#batchLines;
    const text = this.#batchText;
    const count = this.#batchCount;
    this.#batchLines = [];
    this.#batchText = '';
    this.#batchCount = 0;
    this.#batchWritten = undefined;
    this.#writeNow(text, lines, count);
  };

  constructor(stream: Writable, options: LineWriterOptions) {
    this.#stream = stream;
    this.#name = options.name;
    this.#write = options.write ?? ((chunk, callback) => stream.write(chunk, callback));
    this.#handleFailure = options.handleFailure;
    this.#isCoalescing = options.isCoalescing === true;
    this.#isTurnLong = options.coalesceUntil === 'turn';
    stream.on('error', this.#onError);
    stream.on('drain', this.#onDrain);
    stream.on('close', this.#onClose);
  }

  /** Writes `text` as is; resolves when flushed, rejects with ConnectionClosedError on failure. */
  write(text: string): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#stream.destroyed || this.#stream.writableEnded) {
      this.#onFailure(new ConnectionClosedError(`Cannot write to ${this.#name}: it is closed`));
      return Promise.reject(this.#failure);
    }
    if (this.#isCoalescing && !this.#isBlocked) {
      this.#inFlight++;
      this.#addToBatch(text);
      return (this.#batchWritten ??= new Promise<void>((resolve, reject) => {
        this.#batchLines.push({ resolve, reject });
      }));
    }
    return new Promise<void>((resolve, reject) => {
      const line = { text, resolve, reject };
      if (this.#isBlocked) this.#queue.push(line);
      else this.#start(line);
    });
  }

  /**
   * Writes `text` as `write` does (in order with it, through the same batch and queue) but settles
   * nothing: no promise, and no allocation unless the stream is blocked. Returns false, writing
   * nothing, once the writer has failed or the stream is closed; a failure after that is the
   * stream's own (`handleFailure`, and the rejection of later `write`s), not reported to this call.
   */
  writeRaw(text: string): boolean {
    if (this.#failure !== undefined) return false;
    if (this.#stream.destroyed || this.#stream.writableEnded) {
      this.#onFailure(new ConnectionClosedError(`Cannot write to ${this.#name}: it is closed`));
      return false;
    }
    if (this.#isBlocked) {
      this.#queue.push({ text, resolve: ignore, reject: ignore });
      return true;
    }
    this.#inFlight++;
    if (!this.#isCoalescing) this.#writeNow(text, NO_LINES, 1);
    else this.#addToBatch(text);
    return true;
  }

  /**
   * With `isCoalescing`: hands what this tick has written so far to the stream now rather than at the
   * end of the tick (a message that should not wait for the ones after it). Otherwise does nothing.
   */
  flush(): void {
    this.#flushBatch();
  }

  /** Refuses all further writes with `error` and rejects the queued ones; in-flight writes settle on their own. */
  fail(error: ConnectionClosedError): void {
    if (this.#failure !== undefined) return;
    this.#failure = error;
    const queue = this.#queue.slice(this.#head);
    this.#queue = [];
    this.#head = 0;
    for (const line of queue) line.reject(error);
    this.#notifyIfIdle();
  }

  /**
   * Resolves once every text written so far is flushed (or has failed): nothing queued, nothing in
   * flight. What a server awaits before it exits, so that closing stdin loses no queued response.
   */
  whenIdle(): Promise<void> {
    if (this.#isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  #isIdle(): boolean {
    return this.#inFlight === 0 && this.#head === this.#queue.length;
  }

  #notifyIfIdle(): void {
    if (this.#idleWaiters.length === 0 || !this.#isIdle()) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  /**
   * Detaches from the stream once no write is in flight (immediately if none). Idempotent. The
   * 'error' listener stays on a stream that has failed, where it can only swallow late errors.
   */
  release(): void {
    this.#isReleased = true;
    if (this.#inFlight === 0) this.#detach();
  }

  #start(line: QueuedLine): void {
    this.#inFlight++;
    if (!this.#isCoalescing) {
      this.#writeNow(line.text, [line], 1);
      return;
    }
    this.#addToBatch(line.text);
    this.#batchLines.push(line);
  }

  #addToBatch(text: string): void {
    // The lines of one tick (a pipelining client's requests) go to the stream together: joined,
    // then one write at the end of the tick, one syscall and one callback, not one each.
    if (this.#batchCount++ === 0) {
      if (this.#isTurnLong) setImmediate(this.#flushBatch);
      else nextTick(this.#flushBatch);
    }
    this.#batchText += text;
  }

  /**
   * Hands `text` (`count` texts, in order; those of `lines` among them) to the stream; settles
   * `lines` when it is flushed.
   */
  #writeNow(text: string, lines: readonly Waiter[], count: number): void {
    const isBelowHighWaterMark = this.#write(text, (error) => {
      this.#inFlight -= count;
      if (error) {
        // Node calls this before it destroys the stream and emits 'error': stay subscribed.
        this.#hasStreamFailed = true;
        const closed = this.#toClosedError(error);
        for (const line of lines) line.reject(closed);
      } else {
        for (const line of lines) line.resolve();
      }
      if (this.#isReleased && this.#inFlight === 0) this.#detach();
      this.#notifyIfIdle();
    });
    if (!isBelowHighWaterMark) this.#isBlocked = true;
  }

  readonly #onDrain = (): void => {
    this.#isBlocked = false;
    while (!this.#isBlocked && this.#head < this.#queue.length) {
      const line = this.#queue[this.#head]!;
      this.#head++;
      this.#start(line);
    }
    if (this.#head === this.#queue.length) {
      this.#queue = [];
      this.#head = 0;
    }
  };

  readonly #onError = (error: Error): void => {
    this.#hasStreamFailed = true;
    this.#onFailure(this.#toClosedError(error));
  };

  readonly #onClose = (): void => {
    this.#onFailure(new ConnectionClosedError(`Cannot write to ${this.#name}: it was closed`));
  };

  #onFailure(error: ConnectionClosedError): void {
    if (this.#failure !== undefined) return;
    this.fail(error);
    this.#handleFailure?.(error);
  }

  #toClosedError(error: Error): ConnectionClosedError {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code ?? error.message;
    return new ConnectionClosedError(`Cannot write to ${this.#name}: ${reason}`, { cause: error });
  }

  #detach(): void {
    // A failed stream may still emit 'error' later; without a listener that would crash the process.
    if (!this.#hasStreamFailed) this.#stream.off('error', this.#onError);
    this.#stream.off('drain', this.#onDrain);
    this.#stream.off('close', this.#onClose);
  }
}

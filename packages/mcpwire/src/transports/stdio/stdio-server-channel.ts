// The server side of stdio (STDIO-1..3): messages in on stdin, out on stdout, one JSON line each,
// with stdout guarded so stray console output cannot corrupt the wire.

import type { Readable, Writable } from 'node:stream';
import { encodeMessage, type Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import { isNotification, type Message } from '../../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from '../channel.ts';
import { decodeLine } from './decode-line.ts';
import { Inbox } from '../inbox.ts';
import { LineWriter } from './line-writer.ts';
import { NdjsonSplitter } from './ndjson.ts';
import { UnansweredRequests } from './unanswered.ts';
import { installStdoutGuard, type StdoutGuard } from './stdout-guard.ts';

/** Options of {@link createStdioServerChannel}. */
export interface StdioServerChannelOptions {
  /** Where messages come from; default `process.stdin`. */
  stdin?: Readable;
  /** Where messages go; default `process.stdout`. */
  stdout?: Writable;
  /**
   * The largest message accepted, in bytes; default 64 MiB (DEFAULT_MAX_MESSAGE_BYTES). A longer
   * line is discarded as it streams (never buffered past the limit) and answered at once with
   * -32600 naming its size and the limit, with the request's id when its first 1 KiB holds it (a
   * client that writes "id" before "params", as mcpwire's does); the server keeps serving.
   */
  maxMessageBytes?: number;
  /**
   * While the channel is open, send everyone else's writes to `stdout` (console.log, console.info,
   * stdout.write) to `process.stderr`. Default: on when `stdout` is `process.stdout`.
   */
  guardStdout?: boolean;
  /**
   * After stdin ends, how long to wait for the next response while requests already read are still
   * unanswered, before closing anyway; default 1,000 ms. Responses keep coming as long as the
   * handlers produce them, so a burst piped in and closed is answered whole, and a stuck handler
   * delays the exit by at most this (hosts send SIGTERM about 2 s after closing stdin).
   */
  endDrainIdleMs?: number;
  /**
   * How long responses wait to share one stdout write: `'tick'` (default) the current tick (the
   * answers of one chunk of pipelined requests); `'turn'` the current turn of the event loop, for
   * a process whose answers arrive in several ticks of one turn, such as a bridge whose remote
   * answers each request on a socket of its own. Notifications never wait (they flush what waits).
   */
  coalesceUntil?: 'tick' | 'turn';
}

const DEFAULT_END_DRAIN_IDLE_MS = 1000;

/**
 * Creates the server's stdio channel. Reading (and the stdout guard) starts at once; frames that
 * arrive before `open` are buffered. Each line becomes one Frame; an oversize line becomes an
 * `invalid` frame with code -32600 (and its id, when read from its head). stdin ending, stdin failing or stdout failing
 * (EPIPE) closes the channel, as does `close()`; the receiver hears `handleClose` exactly once.
 * Closing stops reading stdin (without destroying it, so the process can exit) and removes the guard.
 * Throws RangeError for a `maxMessageBytes` that is not a positive integer.
 */
export function createStdioServerChannel(options: StdioServerChannelOptions = {}): Channel {
  return new StdioServerChannel(options);
}

class StdioServerChannel implements Channel {
  readonly info: ChannelInfo = {};
  readonly #inbox = new Inbox();
  readonly #stdin: Readable;
  readonly #splitter: NdjsonSplitter;
  readonly #writer: LineWriter;
  readonly #guard: StdoutGuard | undefined;
  /** Settles once the channel is closed and what it had queued for stdout is flushed. */
  #flushed: Promise<void> | undefined;
  readonly #unanswered = new UnansweredRequests();
  readonly #endDrainIdleMs: number;
  /** Set while stdin has ended and requests read before are still being answered. */
  #drainTimer: NodeJS.Timeout | undefined;

  constructor(options: StdioServerChannelOptions) {
    // First, so that a bad limit throws before anything is patched or subscribed.
    this.#splitter = new NdjsonSplitter(
      (line) => {
        this.#unanswered.receive(decodeLine(line), this.#deliver);
      },
      { maxMessageBytes: options.maxMessageBytes },
    );
    this.#endDrainIdleMs = options.endDrainIdleMs ?? DEFAULT_END_DRAIN_IDLE_MS;
    const stdout = options.stdout ?? process.stdout;
    this.#stdin = options.stdin ?? process.stdin;
    const shouldGuard = options.guardStdout ?? stdout === process.stdout;
    this.#guard = shouldGuard ? installStdoutGuard(stdout) : undefined;
    this.#writer = new LineWriter(stdout, {
      name: 'stdout',
      write: this.#guard?.write,
      handleFailure: (error) => this.#finish(error),
      // The answers to a chunk of pipelined requests go out in one pipe write, not one each: a pipe
      // write is a synchronous syscall, the largest single cost per call without it.
      isCoalescing: true,
      coalesceUntil: options.coalesceUntil,
    });
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('error', this.#onError);
    this.#stdin.on('close', this.#onStdinClose);
  }

  open(receiver: ChannelReceiver): void {
    this.#inbox.open(receiver);
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (this.#inbox.isClosed) return Promise.reject(new ConnectionClosedError('The stdio channel is closed'));
    const written = this.#writer.write(encodeMessage(message) + '\n');
    // Responses and requests wait for the end of the tick: the requests a handler makes at once
    // (elicitation, sampling and roots in parallel) reach the client in one chunk, which a bridge
    // reads as one turn (one input round). A notification (progress, a log) goes out at once, with
    // what the tick wrote before it: official SDK clients drop a progress notification read together
    // with its response (modelcontextprotocol/typescript-sdk#2580).
    if (Array.isArray(message) || isNotification(message as Message)) this.#writer.flush();
    this.#unanswered.sent(message);
    if (this.#drainTimer !== undefined) {
      // The last answer after stdin ended: close once this send has returned to its caller.
      if (this.#unanswered.size === 0) queueMicrotask(() => this.#finish());
      else this.#drainTimer.refresh();
    }
    return written;
  }

  /** Closes the channel; resolves once the responses it had already queued are written. */
  close(): Promise<void> {
    this.#finish();
    return this.#flushed ?? Promise.resolve();
  }

  readonly #deliver = (frame: Frame): void => {
    this.#inbox.deliver(frame);
  };

  readonly #onData = (chunk: Buffer | string): void => {
    this.#splitter.push(chunk);
  };

  readonly #onEnd = (): void => {
    this.#splitter.end();
    this.#endOfInput();
  };

  readonly #onError = (error: Error): void => {
    this.#finish(new ConnectionClosedError(`Cannot read stdin: ${error.message}`, { cause: error }));
  };

  readonly #onStdinClose = (): void => {
    this.#endOfInput();
  };

  /** stdin is over: close now, or once the requests already read are answered (or stall). */
  #endOfInput(): void {
    if (this.#drainTimer !== undefined) return;
    if (this.#unanswered.size === 0 || this.#inbox.isClosed) return this.#finish();
    this.#stdin.off('data', this.#onData);
    this.#drainTimer = setTimeout(() => this.#finish(), this.#endDrainIdleMs);
  }

  #finish(error?: ConnectionClosedError): void {
    clearTimeout(this.#drainTimer);
    if (!this.#inbox.close(error)) return;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onStdinClose);
    // Keep the 'error' listener: a late stdin error must not become an uncaught exception.
    this.#stdin.pause();
    const stop = (): void => {
      this.#writer.fail(error ?? new ConnectionClosedError('The stdio channel is closed'));
      this.#writer.release();
      this.#guard?.restore();
    };
    // stdin ending (the client's shutdown) or close() still delivers what was queued for a slow
    // reader (STDIO-2); nothing new is accepted. A failing stream has nothing left to deliver.
    if (error === undefined) this.#flushed = this.#writer.whenIdle().then(stop);
    else stop();
  }
}

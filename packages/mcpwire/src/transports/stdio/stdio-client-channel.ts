// The client's end of a stdio connection: messages out on the child's stdin, in on its stdout,
// and the child's lifetime bound to the channel's (it exits, the channel closes, and vice versa).

import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { decodeFrame, encodeMessage } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import type { Message } from '../../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from '../channel.ts';
import { decodeLine } from './decode-line.ts';
import { Inbox } from '../inbox.ts';
import { LineWriter } from './line-writer.ts';
import { NdjsonSplitter } from './ndjson.ts';
import { ProcessExitError, type ExitStatus } from './process-errors.ts';
import { hasExited, shutdownProcess } from './process-shutdown.ts';
import { StderrCapture, type StderrOption } from './stderr-capture.ts';

/** A spawned server with piped stdin and stdout; stderr is piped, inherited or ignored. */
export type ServerProcess = ChildProcessByStdio<Writable, Readable, Readable | null>;

/**
 * Given the text of each complete stdout line before it is decoded (see
 * {@link StdioClientChannel.takeLines}); returns true when it took the line. Must not throw.
 */
export type RawLineListener = (text: string) => boolean;

/**
 * Given each complete stdout line as a view of its bytes, `bytes[start, end)` (see
 * {@link StdioClientChannel.takeLineBytes}); returns true when it took the line. The view is valid
 * only during the call. Must not throw.
 */
export type RawLineBytesListener = (bytes: Buffer, start: number, end: number) => boolean;

/** Options of {@link StdioClientChannel}, resolved by the transport. */
export interface StdioClientChannelOptions {
  maxMessageBytes: number | undefined;
  shutdownTimeoutMs: number;
  stderr: StderrOption;
}

/**
 * A channel to a spawned server process. Each stdout line becomes one Frame (non-JSON is an
 * `invalid` -32700 frame, an oversize line -32600; the receiver decides what to do). When the
 * process exits or closes its stdout, the receiver's `handleClose` gets a ConnectionClosedError
 * (a ProcessExitError naming the code or signal) once every line it wrote has been delivered, or
 * after `shutdownTimeoutMs` if a grandchild keeps the pipes open. Closing, by either side, runs
 * the LIFE-13 shutdown sequence; `close()` resolves once the process has exited.
 *
 * A caller that speaks the wire itself for a while (`mcpwire load`) can take lines before they are
 * decoded (`takeLines`) and write text without a promise per write (`writeRaw`).
 */
export class StdioClientChannel implements Channel {
  readonly info: ChannelInfo;
  readonly #child: ServerProcess;
  readonly #inbox = new Inbox();
  readonly #writer: LineWriter;
  readonly #stderr: StderrCapture;
  readonly #timeoutMs: number;
  #graceTimer: NodeJS.Timeout | undefined;
  #shutdown: Promise<void> | undefined;
  /** Settles with the close error (undefined for a local close) once the channel has closed. */
  readonly #ended: Promise<ConnectionClosedError | undefined>;
  #settleEnded: (error: ConnectionClosedError | undefined) => void = () => {};
  #rawLines: RawLineListener | undefined;
  readonly #splitter: NdjsonSplitter;

  /** Takes ownership of a process that has spawned; reads its stdout from now on. */
  constructor(child: ServerProcess, options: StdioClientChannelOptions) {
    this.#child = child;
    this.#timeoutMs = options.shutdownTimeoutMs;
    this.#ended = new Promise((resolve) => (this.#settleEnded = resolve));
    this.info = child.pid === undefined ? {} : { pid: child.pid };
    // Coalescing: a client pipelining N requests in one tick writes them with one syscall.
    this.#writer = new LineWriter(child.stdin, { name: "the server process's stdin", isCoalescing: true });
    this.#stderr = new StderrCapture(child.stderr, options.stderr);
    // Lines as bare text: no object per line on the path every answer takes.
    const splitter = (this.#splitter = new NdjsonSplitter((line) => this.#inbox.deliver(decodeLine(line)), {
      maxMessageBytes: options.maxMessageBytes,
      handleText: (text) => this.#handleText(text),
    }));
    child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
    child.stdout.on('end', () => {
      splitter.end();
      this.#startGrace();
    });
    child.stdout.on('error', (error) => {
      this.#finish(
        new ConnectionClosedError(`Cannot read the server process's stdout: ${error.message}`, {
          cause: error,
        }),
      );
    });
    child.on('exit', () => this.#startGrace());
    child.on('close', () => this.#finish(this.#endError()));
    // After spawn, 'error' only reports a failed kill; the exit (or timeout) still decides.
    child.on('error', () => {});
    if (hasExited(child)) this.#startGrace();
  }

  /** The child's stderr when the transport's `stderr` option is 'pipe', else null. */
  get stderr(): Readable | null {
    return this.#stderr.stream;
  }

  /** How the process ended, once it has; undefined while it runs. */
  get exitStatus(): ExitStatus | undefined {
    return hasExited(this.#child)
      ? { code: this.#child.exitCode, signal: this.#child.signalCode }
      : undefined;
  }

  open(receiver: ChannelReceiver): void {
    this.#inbox.open(receiver);
  }

  /**
   * Gives each complete stdout line to `listener` from now on (undefined: to nobody), before it is
   * decoded, synchronously and in arrival order, while the channel is open: the text without its
   * line ending, never blank, never over the line cap (an oversize line still reaches the receiver
   * as its -32600 frame). A line the listener returns true for is neither decoded nor delivered;
   * any other reaches the receiver as it would have. One listener at a time: this replaces the last.
   */
  takeLines(listener: RawLineListener | undefined): void {
    this.#rawLines = listener;
  }

  /**
   * Gives each complete stdout line to `listener` from now on (undefined: to nobody) as bytes, before
   * it is decoded to text, on the terms of `takeLines` (in order, never blank, without its line
   * ending, never over the cap); a line it does not take goes on as text, to `takeLines`' listener
   * and then the receiver. For a caller that matches lines as bytes: a line it takes is never decoded.
   */
  takeLineBytes(listener: RawLineBytesListener | undefined): void {
    this.#splitter.takeLineBytes(
      listener === undefined
        ? undefined
        : (bytes, start, end) => !this.#inbox.isClosed && listener(bytes, start, end),
    );
  }

  /**
   * Writes `text` (whole lines, each ending in `\n`, JSON the caller encoded) to the process's stdin,
   * in order with `send` and through the same writer (the writes of one tick are one write), but
   * with no promise. False, writing nothing, once the channel is closed or stdin has failed; a
   * later failure is not reported to the caller (the process going closes the channel as usual).
   */
  writeRaw(text: string): boolean {
    return !this.#inbox.isClosed && this.#writer.writeRaw(text);
  }

  send(message: Message | readonly Message[]): Promise<void> {
    if (this.#inbox.isClosed) return Promise.reject(new ConnectionClosedError('The stdio channel is closed'));
    return this.#writer
      .write(encodeMessage(message) + '\n')
      .catch((error: unknown) => this.#explainWriteFailure(error));
  }

  /**
   * A write fails (EPIPE) when the process has gone or is going, usually before its exit is seen:
   * once the channel closes (within the grace period), its ProcessExitError, with the exit code and
   * the stderr tail, says why; the bare write error otherwise.
   */
  async #explainWriteFailure(error: unknown): Promise<never> {
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      this.#ended,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), this.#timeoutMs))),
    ]);
    clearTimeout(timer);
    throw ended instanceof ProcessExitError ? ended : error;
  }

  /** Closes the channel and shuts the process down (LIFE-13); idempotent, resolves once it has exited. */
  close(): Promise<void> {
    this.#finish();
    return this.#shutdown ?? Promise.resolve();
  }

  #handleText(text: string): void {
    const listener = this.#rawLines;
    if (listener !== undefined && !this.#inbox.isClosed && listener(text)) return;
    this.#inbox.deliver(decodeFrame(text));
  }

  /** Gives the last stdout lines and stderr a moment to arrive after exit or stdout EOF. */
  #startGrace(): void {
    if (this.#graceTimer !== undefined || this.#inbox.isClosed) return;
    this.#graceTimer = setTimeout(() => this.#finish(this.#endError()), this.#timeoutMs);
  }

  #endError(): ConnectionClosedError {
    const status = this.exitStatus;
    if (status !== undefined) return new ProcessExitError(status, this.#stderr.tail);
    return new ConnectionClosedError(
      'Server process closed its stdout but is still running; shutting it down',
    );
  }

  #finish(error?: ConnectionClosedError): void {
    if (this.#inbox.isClosed) return;
    clearTimeout(this.#graceTimer);
    this.#writer.fail(error ?? new ConnectionClosedError('The stdio channel is closed'));
    // Before the receiver hears of it, so a close() called from its handleClose waits for the exit.
    this.#shutdown = this.#stop();
    this.#inbox.close(error);
    this.#settleEnded(error);
  }

  async #stop(): Promise<void> {
    await shutdownProcess(this.#child, { timeoutMs: this.#timeoutMs });
    // Nothing can read stdin now; destroying it also stops a late EPIPE from being emitted.
    this.#child.stdin.destroy();
    this.#writer.release();
    // Read what is left in the pipes, unless a grandchild holds them open.
    if (!this.#child.stdout.closed || (this.#child.stderr !== null && !this.#child.stderr.closed)) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.#timeoutMs);
        this.#child.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    this.#child.stdout.destroy();
    this.#child.stderr?.destroy();
    this.#stderr.release();
  }
}

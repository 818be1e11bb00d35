// Incremental NDJSON framing on bytes (STDIO-2): splits a byte stream into lines, never holding
// more than `maxMessageBytes` of one line, and decodes each complete line as UTF-8.

import { Buffer } from 'node:buffer';

/**
 * The default cap on one line: 64 MiB. Large enough for what tools really return (a 6 MB file or
 * screenshot, which the official SDKs pass), small enough that one line cannot exhaust memory.
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 67_108_864;

/** How many bytes of an oversize line are kept (`head`), to read its id without buffering the rest. */
export const OVERSIZE_HEAD_BYTES = 1024;

/**
 * One unit of splitter output: the text of a complete line (without `\n` and an optional trailing
 * `\r`), or a marker for a line longer than the limit, whose bytes were discarded. `bytes` is how
 * many bytes of that line had been received when it was reported: the whole line when its end
 * arrived in the same chunk that crossed the limit, otherwise a count that is at least `limit + 1`.
 * `head` is the line's first {@link OVERSIZE_HEAD_BYTES} bytes as UTF-8 text (for its id).
 */
export type NdjsonLine =
  { type: 'line'; text: string } | { type: 'oversize'; bytes: number; limit: number; head: string };

/** Options of {@link NdjsonSplitter}. */
export interface NdjsonSplitterOptions {
  /** The largest line (in bytes, excluding the line ending) that is delivered; default 64 MiB. */
  maxMessageBytes?: number | undefined;
  /**
   * When given, each complete line comes here as its text, and `handleLine` sees only oversize
   * markers: no object per line, for a reader of many small lines (a stdio channel under load).
   */
  handleText?: ((text: string) => void) | undefined;
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * Splits chunks of bytes into lines and hands each one, in order, to `handleLine`, synchronously
 * from `push` or `end`. Empty and whitespace-only lines are skipped. A line over the limit is
 * reported once as `oversize` and skipped up to its newline, so memory stays bounded by the limit
 * (plus the chunk being scanned). The splitter keeps views of pushed chunks instead of copying
 * them: the caller hands over each chunk and must not modify it afterwards.
 */
export class NdjsonSplitter {
  readonly #limit: number;
  readonly #handleLine: (line: NdjsonLine) => void;
  readonly #handleText: (text: string) => void;
  /** Bytes of the current, unterminated line, held as views into the chunks they came in. */
  #pieces: Buffer[] = [];
  #pendingBytes = 0;
  /** While skipping an oversize line: how many of its bytes were seen; -1 when not skipping. */
  #skippedBytes = -1;
  #takeBytes: ((bytes: Buffer, start: number, end: number) => boolean) | undefined;

  constructor(handleLine: (line: NdjsonLine) => void, options: NdjsonSplitterOptions = {}) {
    const limit = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    if (!Number.isSafeInteger(limit) || limit < 1) {
      throw new RangeError(`maxMessageBytes must be a positive integer, got ${String(limit)}`);
    }
    this.#limit = limit;
    this.#handleLine = handleLine;
    this.#handleText = options.handleText ?? ((text) => handleLine({ type: 'line', text }));
  }

  /** Feeds the next chunk; a string is taken as UTF-8 text. Delivers every line it completes. */
  push(chunk: Uint8Array | string): void {
    const bytes = toBuffer(chunk);
    let start = 0;
    const last = bytes.lastIndexOf(LF);
    if (
      last !== -1 &&
      last <= this.#limit &&
      this.#pendingBytes === 0 &&
      this.#skippedBytes === -1 &&
      this.#takeBytes === undefined
    ) {
      // Nothing held and no line of the chunk can be over the limit: decode its complete lines in
      // one call and split the text, not one native indexOf and one decode per line (a chunk of
      // pipelined requests holds dozens). `\n` never occurs inside a UTF-8 sequence, so the lines
      // are the same as decoded one by one. A byte listener takes the line-by-line path below:
      // it is given each line's bytes before any decode.
      this.#emitLines(bytes.toString('utf8', 0, last));
      start = last + 1;
    } else {
      let newline = last === -1 ? -1 : bytes.indexOf(LF);
      while (newline !== -1) {
        this.#endLine(bytes, start, newline);
        start = newline + 1;
        newline = bytes.indexOf(LF, start);
      }
    }
    if (start < bytes.length) this.#hold(bytes, start);
  }

  /**
   * Ends the input: a final line that had no `\n` is delivered as if it had one (a peer that exits
   * right after its last message still gets it through; a truncated line then fails to decode).
   * The splitter is empty afterwards and may be reused.
   */
  end(): void {
    if (this.#skippedBytes !== -1) {
      this.#skippedBytes = -1;
      return;
    }
    if (this.#pendingBytes === 0) return;
    const line = this.#takePending();
    this.#emit(line, 0, line.length);
  }

  /**
   * Gives each complete line within the limit to `listener` from now on (undefined: to nobody) as a
   * view of its bytes, `bytes[start, end)` (no `\n`, no trailing `\r`, never blank), before it is
   * decoded: a line it returns true for goes no further, any other is delivered as text as before.
   * The view is valid only during the call. Oversize lines never reach it.
   */
  takeLineBytes(listener: ((bytes: Buffer, start: number, end: number) => boolean) | undefined): void {
    this.#takeBytes = listener;
  }

  /** True when part of a line is held, waiting for its newline. */
  get hasPartialLine(): boolean {
    return this.#pendingBytes > 0 || this.#skippedBytes !== -1;
  }

  #endLine(bytes: Buffer, start: number, end: number): void {
    if (this.#skippedBytes !== -1) {
      this.#skippedBytes = -1;
      return;
    }
    if (this.#pendingBytes === 0) {
      this.#emit(bytes, start, end);
      return;
    }
    const total = this.#pendingBytes + (end - start);
    if (total > this.#limit + 1) {
      // Too long even if its last byte is a `\r` that would be stripped: no need to join it.
      const head = this.#headWith(bytes.subarray(start, end));
      this.#pieces = [];
      this.#pendingBytes = 0;
      this.#handleLine({ type: 'oversize', bytes: total, limit: this.#limit, head });
      return;
    }
    this.#pieces.push(bytes.subarray(start, end));
    this.#pendingBytes = total;
    const line = this.#takePending();
    this.#emit(line, 0, line.length);
  }

  #hold(bytes: Buffer, start: number): void {
    const length = bytes.length - start;
    if (this.#skippedBytes !== -1) {
      this.#skippedBytes += length;
      return;
    }
    const total = this.#pendingBytes + length;
    // limit + 1 leaves room for a `\r` that the coming `\n` would strip.
    if (total > this.#limit + 1) {
      const head = this.#headWith(bytes.subarray(start));
      this.#pieces = [];
      this.#pendingBytes = 0;
      this.#skippedBytes = total;
      this.#handleLine({ type: 'oversize', bytes: total, limit: this.#limit, head });
      return;
    }
    this.#pieces.push(bytes.subarray(start));
    this.#pendingBytes = total;
  }

  /** The first OVERSIZE_HEAD_BYTES of the held pieces followed by `rest`, as text. */
  #headWith(rest: Buffer): string {
    const parts: Buffer[] = [];
    let length = 0;
    for (const piece of [...this.#pieces, rest]) {
      if (length >= OVERSIZE_HEAD_BYTES) break;
      const part = piece.subarray(0, OVERSIZE_HEAD_BYTES - length);
      parts.push(part);
      length += part.length;
    }
    return Buffer.concat(parts, length).toString('utf8');
  }

  #takePending(): Buffer {
    const pieces = this.#pieces;
    const line = pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces, this.#pendingBytes);
    this.#pieces = [];
    this.#pendingBytes = 0;
    return line;
  }

  #emit(bytes: Buffer, start: number, end: number): void {
    if (end > start && bytes[end - 1] === CR) end--;
    if (end - start > this.#limit) {
      const head = bytes.toString('utf8', start, Math.min(end, start + OVERSIZE_HEAD_BYTES));
      this.#handleLine({ type: 'oversize', bytes: end - start, limit: this.#limit, head });
      return;
    }
    let first = start;
    while (first < end && isJsonWhitespace(bytes[first]!)) first++;
    if (first === end) return;
    if (this.#takeBytes?.(bytes, start, end) === true) return;
    this.#handleText(bytes.toString('utf8', start, end));
  }

  /** Delivers each line of `text` (complete lines joined by `\n`, each within the limit), as #emit does. */
  #emitLines(text: string): void {
    let start = 0;
    while (start <= text.length) {
      const newline = text.indexOf('\n', start);
      const next = newline === -1 ? text.length : newline;
      let end = next;
      if (end > start && text.charCodeAt(end - 1) === CR) end--;
      let first = start;
      while (first < end && isJsonWhitespace(text.charCodeAt(first))) first++;
      if (first < end) this.#handleText(text.slice(start, end));
      start = next + 1;
    }
  }
}

function isJsonWhitespace(byte: number): boolean {
  return byte === SPACE || byte === TAB || byte === CR || byte === LF;
}

function toBuffer(chunk: Uint8Array | string): Buffer {
  if (typeof chunk === 'string') return Buffer.from(chunk, 'utf8');
  if (Buffer.isBuffer(chunk)) return chunk;
  return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

// The strict HTTP/1.1 response reader of `load`'s wire engine: status line, headers, a body framed by
// Content-Length, chunked, or the end of the connection; capped head, line and body sizes. Bytes in,
// events out; a malformed answer is an HttpWireError, never an unbounded buffer.

/** A response the engine refuses: malformed, over a cap, or cut short. */
export class HttpWireError extends Error {
  readonly code = 'HTTP_WIRE';
  constructor(message: string) {
    super(message);
    this.name = 'HttpWireError';
  }
}

/** What the parser reports, in order: a head, body chunks, the end (the socket may carry the next response). */
export interface ResponseEvents {
  handleHead(status: number, headers: ReadonlyMap<string, string>): void;
  handleBody(chunk: Buffer): void;
  /** The response ended; `isReusable` is false when the connection must close (Connection: close, or read to EOF). */
  handleEnd(isReusable: boolean): void;
}

/** The caps on what a server may send. */
export interface ResponseLimits {
  /** Status line and headers together. */
  maxHeadBytes: number;
  /** The body of one response (after de-chunking). */
  maxBodyBytes: number;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
/** A chunk-size line (hex size and extensions) or a trailer line at most this long. */
const MAX_LINE_BYTES = 4096;
/** A buffer with nothing left in it (shared: a Buffer of length 0 holds no state). */
const EMPTY = Buffer.alloc(0);
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CHUNK_SIZE = /^([0-9A-Fa-f]{1,12})(?:[ \t]*;[\t\x20-\x7e]*)?$/;

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkDataEnd,
  Trailers,
  UntilClose,
  Done,
}

/**
 * Reads the responses of one connection, one after the other (no pipelining: `push` bytes after a
 * response has ended and before the next request is an error). Throws HttpWireError from `push` or
 * `end`; after a throw the parser and its connection are done.
 */
export class HttpResponseParser {
  readonly #events: ResponseEvents;
  readonly #limits: ResponseLimits;
  #buffer: Buffer = EMPTY;
  #state = State.Done;
  #remaining = 0;
  #bodyBytes = 0;
  #isClose = false;
  #isHeadOfHead = false;

  constructor(events: ResponseEvents, limits: ResponseLimits) {
    this.#events = events;
    this.#limits = limits;
  }

  /** Expects a response (a request was written); `isHead` for a response without a body. */
  expect(isHead = false): void {
    this.#state = State.Head;
    this.#isHeadOfHead = isHead;
  }

  /** True between `expect` and the response's end. */
  get isBusy(): boolean {
    return this.#state !== State.Done;
  }

  push(chunk: Buffer): void {
    if (this.#state === State.Done) throw new HttpWireError('bytes received with no request in flight');
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    while (this.#buffer.length > 0 && this.#step());
  }

  /** The connection ended: the end of a body read to EOF, else an HttpWireError if a response was due. */
  end(): void {
    if (this.#state === State.UntilClose) {
      this.#state = State.Done;
      this.#events.handleEnd(false);
    } else if (this.#state !== State.Done)
      throw new HttpWireError('the connection closed before the response ended');
  }

  /** One step of the state machine; false when it needs more bytes. */
  #step(): boolean {
    switch (this.#state) {
      case State.Head:
        return this.#readHead();
      case State.Length:
      case State.ChunkData:
        return this.#readCounted();
      case State.ChunkSize:
        return this.#readChunkSize();
      case State.ChunkDataEnd:
        return this.#readChunkEnd();
      case State.Trailers:
        return this.#readTrailer();
      case State.UntilClose:
        this.#deliver(this.#buffer);
        this.#buffer = EMPTY;
        return false;
      case State.Done:
        throw new HttpWireError('bytes received after the response ended, with no request in flight');
    }
  }

  #readHead(): boolean {
    const end = this.#buffer.indexOf(HEAD_END);
    if (end === -1) {
      if (this.#buffer.length > this.#limits.maxHeadBytes)
        throw new HttpWireError(`response head over ${this.#limits.maxHeadBytes} bytes`);
      return false;
    }
    if (end > this.#limits.maxHeadBytes)
      throw new HttpWireError(`response head over ${this.#limits.maxHeadBytes} bytes`);
    const buffer = this.#buffer;
    const code = statusOf(buffer, end);
    const headers = parseHeaders(buffer, end);
    this.#buffer = end + 4 === buffer.length ? EMPTY : buffer.subarray(end + 4);
    // 1xx (100 Continue, 103 Early Hints): informational, the real response follows.
    if (code < 200) return true;
    this.#events.handleHead(code, headers);
    this.#isClose = headers.get('connection')?.toLowerCase() === 'close';
    this.#bodyBytes = 0;
    this.#frameBody(code, headers);
    return true;
  }

  #frameBody(code: number, headers: ReadonlyMap<string, string>): void {
    const encoding = headers.get('transfer-encoding');
    const length = headers.get('content-length');
    if (this.#isHeadOfHead || code === 204 || code === 304) return this.#finish();
    if (encoding !== undefined) {
      if (length !== undefined) throw new HttpWireError('both Transfer-Encoding and Content-Length');
      if (encoding.toLowerCase() !== 'chunked')
        throw new HttpWireError(`unsupported Transfer-Encoding ${JSON.stringify(encoding)}`);
      this.#state = State.ChunkSize;
    } else if (length !== undefined) {
      if (!/^\d{1,15}$/.test(length)) throw new HttpWireError(`bad Content-Length ${JSON.stringify(length)}`);
      this.#remaining = Number(length);
      this.#checkBody(this.#remaining);
      if (this.#remaining === 0) return this.#finish();
      this.#state = State.Length;
    } else this.#state = State.UntilClose;
  }

  #readCounted(): boolean {
    const buffer = this.#buffer;
    const take = Math.min(this.#remaining, buffer.length);
    // The whole buffer when it is all body (the common case): no view of it made.
    this.#deliver(take === buffer.length ? buffer : buffer.subarray(0, take));
    this.#buffer = take === buffer.length ? EMPTY : buffer.subarray(take);
    this.#remaining -= take;
    if (this.#remaining > 0) return false;
    if (this.#state === State.Length) this.#finish();
    else this.#state = State.ChunkDataEnd;
    return true;
  }

  #readChunkSize(): boolean {
    const line = this.#line();
    if (line === undefined) return false;
    const size = CHUNK_SIZE.exec(line);
    if (size === null) throw new HttpWireError(`bad chunk size line ${JSON.stringify(line.slice(0, 80))}`);
    this.#remaining = parseInt(size[1]!, 16);
    this.#checkBody(this.#bodyBytes + this.#remaining);
    this.#state = this.#remaining === 0 ? State.Trailers : State.ChunkData;
    return true;
  }

  #readChunkEnd(): boolean {
    if (this.#buffer.length < 2) return false;
    if (this.#buffer[0] !== 13 || this.#buffer[1] !== 10)
      throw new HttpWireError('chunk data not followed by CRLF');
    this.#buffer = this.#buffer.subarray(2);
    this.#state = State.ChunkSize;
    return true;
  }

  #readTrailer(): boolean {
    const line = this.#line();
    if (line === undefined) return false;
    if (line === '') this.#finish();
    return true;
  }

  /** The next CRLF-terminated line (consumed), undefined until it is complete; capped. */
  #line(): string | undefined {
    const end = this.#buffer.indexOf(CRLF);
    if (end === -1) {
      if (this.#buffer.length > MAX_LINE_BYTES)
        throw new HttpWireError(`a chunk line over ${MAX_LINE_BYTES} bytes`);
      return undefined;
    }
    if (end > MAX_LINE_BYTES) throw new HttpWireError(`a chunk line over ${MAX_LINE_BYTES} bytes`);
    const line = this.#buffer.toString('latin1', 0, end);
    this.#buffer = this.#buffer.subarray(end + 2);
    return line;
  }

  #checkBody(bytes: number): void {
    if (bytes > this.#limits.maxBodyBytes)
      throw new HttpWireError(`response body over ${this.#limits.maxBodyBytes} bytes`);
  }

  #deliver(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#bodyBytes += chunk.length;
    this.#checkBody(this.#bodyBytes);
    this.#events.handleBody(chunk);
  }

  #finish(): void {
    this.#state = State.Done;
    // No pipelining: nothing may follow a response before the next request is written.
    if (this.#buffer.length > 0) throw new HttpWireError('bytes received after the response ended');
    this.#events.handleEnd(!this.#isClose);
  }
}

/**
 * The status code of the head `buffer[0, end)`: its first line must be `HTTP/1.x NNN` with an
 * optional reason phrase (tab, space, visible and obs-text bytes). Read from the bytes, no string.
 */
function statusOf(buffer: Buffer, end: number): number {
  const lineEnd = buffer.indexOf(CRLF);
  const last = lineEnd === -1 || lineEnd > end ? end : lineEnd;
  let isValid =
    last >= 12 &&
    buffer[0] === 0x48 && // HTTP/1.
    buffer[1] === 0x54 &&
    buffer[2] === 0x54 &&
    buffer[3] === 0x50 &&
    buffer[4] === 0x2f &&
    buffer[5] === 0x31 &&
    buffer[6] === 0x2e &&
    (buffer[7] === 0x30 || buffer[7] === 0x31) &&
    buffer[8] === 0x20 &&
    buffer[9]! >= 0x31 &&
    buffer[9]! <= 0x35 &&
    isDigit(buffer[10]!) &&
    isDigit(buffer[11]!) &&
    (last === 12 || buffer[12] === 0x20);
  for (let index = 13; isValid && index < last; index++) {
    const byte = buffer[index]!;
    isValid = byte === 0x09 || (byte >= 0x20 && byte !== 0x7f);
  }
  if (!isValid)
    throw new HttpWireError(
      `not an HTTP/1.1 status line: ${JSON.stringify(buffer.toString('latin1', 0, Math.min(last, 80)))}`,
    );
  return (buffer[9]! - 0x30) * 100 + (buffer[10]! - 0x30) * 10 + (buffer[11]! - 0x30);
}

function isDigit(byte: number): boolean {
  return byte >= 0x30 && byte <= 0x39;
}

/**
 * The header lines of the head `buffer[0, end)` after its status line: names lowercased; repeated
 * values joined with ", ". One string for the head, each line found with indexOf (no array of lines).
 */
function parseHeaders(buffer: Buffer, end: number): Map<string, string> {
  const headers = new Map<string, string>();
  const statusEnd = buffer.indexOf(CRLF);
  if (statusEnd === -1 || statusEnd >= end) return headers;
  const head = buffer.toString('latin1', statusEnd + 2, end);
  for (let start = 0; start <= head.length;) {
    const lineEnd = head.indexOf('\r\n', start);
    const stop = lineEnd === -1 ? head.length : lineEnd;
    const colon = head.indexOf(':', start);
    const name = colon <= start || colon >= stop ? '' : head.slice(start, colon);
    if (!HEADER_NAME.test(name))
      throw new HttpWireError(
        `bad header line ${JSON.stringify(head.slice(start, Math.min(stop, start + 80)))}`,
      );
    const key = name.toLowerCase();
    const value = head.slice(colon + 1, stop).trim();
    const known = headers.get(key);
    if (known !== undefined && key === 'content-length' && known !== value)
      throw new HttpWireError('conflicting Content-Length headers');
    headers.set(key, known === undefined || key === 'content-length' ? value : `${known}, ${value}`);
    start = stop + 2;
  }
  return headers;
}

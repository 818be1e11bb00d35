// The text/event-stream reader of `load`'s wire engine: bytes of a response body in, each event's
// data out as it completes (WHATWG "event stream interpretation": `data:` lines joined with LF, a
// blank line dispatches; `event:`, `id:`, `retry:` and comments are read and ignored).

const LF = 10;
const CR = 13;

/**
 * Reads one SSE body incrementally. Lines are split on bytes (CR, LF, CRLF), which never occur
 * inside a UTF-8 sequence, so a chunk may end anywhere. The body's cap bounds what is kept.
 */
export class SseReader {
  readonly #onData: (data: string) => void;
  #pending: Buffer = Buffer.alloc(0);
  #data: string[] = [];
  #isAfterCr = false;

  /** `onData` gets the data of each event that has any; it may throw (the body is then abandoned). */
  constructor(onData: (data: string) => void) {
    this.#onData = onData;
  }

  push(chunk: Buffer): void {
    let start = 0;
    if (this.#isAfterCr && chunk.length > 0 && chunk[0] === LF) start = 1;
    this.#isAfterCr = false;
    for (let index = start; index < chunk.length; index++) {
      const byte = chunk[index];
      if (byte !== LF && byte !== CR) continue;
      const piece = chunk.subarray(start, index);
      const line = this.#pending.length === 0 ? piece : Buffer.concat([this.#pending, piece]);
      this.#pending = Buffer.alloc(0);
      this.#line(line.toString('utf8'));
      if (byte === CR) {
        if (index + 1 < chunk.length) {
          if (chunk[index + 1] === LF) index++;
        } else this.#isAfterCr = true;
      }
      start = index + 1;
    }
    if (start < chunk.length) this.#pending = Buffer.concat([this.#pending, chunk.subarray(start)]);
  }

  #line(line: string): void {
    if (line === '') {
      if (this.#data.length > 0) {
        const data = this.#data.join('\n');
        this.#data = [];
        this.#onData(data);
      }
      return;
    }
    if (line.startsWith('data')) {
      if (line.length === 4) this.#data.push('');
      else if (line[4] === ':') this.#data.push(line.slice(line[5] === ' ' ? 6 : 5));
    }
  }
}

// The server process's stderr (STDIO-5: logs, not errors): forwarded as the caller chose, with the
// last ~2 KB kept so that an exit error can show why the process died.

import { PassThrough, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/** Where the child's stderr goes: our stderr, a readable stream, nowhere, or a text callback. */
export type StderrOption = 'inherit' | 'pipe' | 'ignore' | ((text: string) => void);

/** How much stderr text (in UTF-16 units) the exit error keeps. */
export const STDERR_TAIL_LENGTH = 2048;

/** The `stdio[2]` value for spawn that implements `option`. */
export function toStderrStdio(option: StderrOption): 'inherit' | 'pipe' | 'ignore' {
  return typeof option === 'function' ? 'pipe' : option;
}

/**
 * Reads a piped stderr: hands decoded text to the callback, or re-exposes the bytes as `stream`
 * (which then must be consumed, or the child blocks once the pipe fills, as with any pipe), and
 * keeps the tail. With no source (inherit, ignore) it captures nothing.
 */
export class StderrCapture {
  /** The child's stderr for the 'pipe' option, else null. It ends when the child's stderr does. */
  readonly stream: Readable | null;
  readonly #passThrough: PassThrough | null = null;
  readonly #decoder = new StringDecoder('utf8');
  #tail = '';

  constructor(source: Readable | null, option: StderrOption) {
    this.stream = null;
    if (source === null) return;
    const callback = typeof option === 'function' ? option : undefined;
    source.on('data', (chunk: Buffer) => {
      const text = this.#decoder.write(chunk);
      if (text === '') return;
      this.#keep(text);
      callback?.(text);
    });
    if (callback === undefined) {
      this.#passThrough = new PassThrough();
      source.pipe(this.#passThrough);
      this.stream = this.#passThrough;
    }
  }

  /** The last ~2 KB of text seen so far. */
  get tail(): string {
    return this.#tail.length > STDERR_TAIL_LENGTH ? this.#tail.slice(-STDERR_TAIL_LENGTH) : this.#tail;
  }

  /** Ends `stream` if the source was torn down without ending (its 'end' never came). Idempotent. */
  release(): void {
    if (this.#passThrough !== null && !this.#passThrough.writableEnded) this.#passThrough.end();
  }

  #keep(text: string): void {
    this.#tail += text;
    // Trim only now and then, so a chatty child costs amortised O(1) per chunk.
    if (this.#tail.length > 2 * STDERR_TAIL_LENGTH) this.#tail = this.#tail.slice(-STDERR_TAIL_LENGTH);
  }
}

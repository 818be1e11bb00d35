// Reads the SSE events of a fetch Response one at a time (the tests' view of a stream).

/** One event: its id (if any) and its data. */
export interface SseFrame {
  readonly id: string | undefined;
  readonly data: string;
}

/** Reads `response`'s body as SSE events, in order. */
export class SseFrames {
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #decoder = new TextDecoder();
  #buffer = '';

  constructor(response: Response) {
    this.#reader = response.body!.getReader();
  }

  /** The next event, or undefined once the stream ended. */
  async next(): Promise<SseFrame | undefined> {
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        let id: string | undefined;
        const data: string[] = [];
        for (const line of block.split('\n')) {
          if (line.startsWith('id:')) id = line.slice(3).trim();
          else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
        }
        if (id === undefined && data.length === 0) continue;
        return { id, data: data.join('\n') };
      }
      const { done, value } = await this.#reader.read();
      if (done) return undefined;
      this.#buffer += this.#decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
    }
  }

  /** The next event with data, parsed as JSON (priming events skipped). */
  async nextMessage(): Promise<Record<string, unknown> & { id?: unknown; method?: unknown }> {
    for (;;) {
      const frame = await this.next();
      if (frame === undefined) throw new Error('The stream ended before a message');
      if (frame.data !== '') return JSON.parse(frame.data) as Record<string, unknown>;
    }
  }

  /** Every remaining event, until the server ends the stream. */
  async rest(): Promise<SseFrame[]> {
    const frames: SseFrame[] = [];
    for (let frame = await this.next(); frame !== undefined; frame = await this.next()) frames.push(frame);
    return frames;
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

// Server-sent events as a web TransformStream: text in, dispatched events out, following the WHATWG
// "event stream interpretation" (https://html.spec.whatwg.org/multipage/server-sent-events.html).

/** One dispatched event. */
export interface ServerSentEvent {
  /** The `event` field, or `'message'` when the event had none. */
  type: string;
  /** The `data` lines joined by `\n`; may be empty (a priming event, HTTP-9): never JSON-parse it blindly. */
  data: string;
  /** The stream's last event id when this event was dispatched (set by this or an earlier event). */
  lastEventId: string;
  /** The `id` field of this very event, if it had one; `lastEventId` alone cannot tell. */
  id?: string;
}

/** Options of {@link SseParserStream}. */
export interface SseParserOptions {
  /** The longest line or event data accepted, in characters; default 16 Mi. Longer errors the stream. */
  maxEventLength?: number;
}

/** The default limit on one line or one event's data, in characters. */
export const DEFAULT_MAX_EVENT_LENGTH = 16 * 1024 * 1024;

/** The event stream is larger than the parser accepts. */
export class SseEventTooLargeError extends Error {
  readonly code = 'SSE_EVENT_TOO_LARGE';
  constructor(limit: number) {
    super(`An SSE line or event exceeds ${limit} characters`);
    this.name = 'SseEventTooLargeError';
  }
}

/**
 * Parses an event stream: lines end in CRLF, LF or CR (a CRLF split across chunks counts once), a
 * leading BOM is dropped, `:` lines are comments, unknown fields are ignored, an `id` containing NUL
 * is ignored and a `retry` that is not all ASCII digits is ignored. Events are dispatched at a blank
 * line; one whose data is empty is still dispatched (`data` is `""`), one with no `data` field at
 * all is not, but both update `lastEventId`. An incomplete event at the end of input is discarded.
 * `lastEventId` and `retry` can be read at any time, including after the stream failed, to resume.
 */
export class SseParserStream extends TransformStream<string, ServerSentEvent> {
  #state: ParserState;

  constructor(options: SseParserOptions = {}) {
    const state = new ParserState(options.maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH);
    super({ transform: (chunk, controller) => state.push(chunk, (event) => controller.enqueue(event)) });
    this.#state = state;
  }

  /** The last event id string: what a reconnection sends as `Last-Event-ID` (empty means none). */
  get lastEventId(): string {
    return this.#state.lastEventId;
  }

  /** The reconnection time the server asked for with `retry:`, in ms, if it did. */
  get retry(): number | undefined {
    return this.#state.retry;
  }
}

/** Decodes a UTF-8 body (a multi-byte character may be split across chunks) and parses it with `parser`. */
export function decodeSse(
  body: ReadableStream<Uint8Array>,
  parser: SseParserStream = new SseParserStream(),
): ReadableStream<ServerSentEvent> {
  // The decoder keeps the BOM so that the parser drops exactly one, as WHATWG decoding does.
  return body.pipeThrough(new TextDecoderStream('utf-8', { ignoreBOM: true })).pipeThrough(parser);
}

class ParserState {
  lastEventId = '';
  retry: number | undefined;
  readonly #limit: number;
  #partial = '';
  #isStart = true;
  #isAfterCR = false;
  #type = '';
  #data = '';
  #hasData = false;
  #idBuffer = '';
  #ownId: string | undefined;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: string, emit: (event: ServerSentEvent) => void): void {
    let text = chunk;
    if (text.length === 0) return;
    if (this.#isStart) {
      this.#isStart = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    // A CR ended the previous chunk: an LF starting this one belongs to the same line break.
    if (this.#isAfterCR && text.startsWith('\n')) text = text.slice(1);
    this.#isAfterCR = false;
    const breaks = /\r\n|\r|\n/g;
    let start = 0;
    for (let match = breaks.exec(text); match !== null; match = breaks.exec(text)) {
      const line = this.#partial + text.slice(start, match.index);
      this.#partial = '';
      // Measured whole too: a long line that arrives in one chunk is never held as a partial line.
      if (line.length > this.#limit) throw new SseEventTooLargeError(this.#limit);
      this.#handleLine(line, emit);
      start = match.index + match[0].length;
      if (match[0] === '\r' && start === text.length) this.#isAfterCR = true;
    }
    this.#partial += text.slice(start);
    if (this.#partial.length > this.#limit) throw new SseEventTooLargeError(this.#limit);
  }

  #handleLine(line: string, emit: (event: ServerSentEvent) => void): void {
    if (line.length === 0) return this.#dispatch(emit);
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        this.#type = value;
        return;
      case 'data':
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
        this.#hasData = true;
        if (this.#data.length > this.#limit) throw new SseEventTooLargeError(this.#limit);
        return;
      case 'id':
        if (value.includes('\0')) return;
        this.#idBuffer = value;
        this.#ownId = value;
        return;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retry = Number(value);
        return;
      default:
        return;
    }
  }

  #dispatch(emit: (event: ServerSentEvent) => void): void {
    this.lastEventId = this.#idBuffer;
    const event: ServerSentEvent = {
      type: this.#type || 'message',
      data: this.#data,
      lastEventId: this.lastEventId,
    };
    if (this.#ownId !== undefined) event.id = this.#ownId;
    const hasData = this.#hasData;
    this.#type = '';
    this.#data = '';
    this.#hasData = false;
    this.#ownId = undefined;
    if (hasData) emit(event);
  }
}

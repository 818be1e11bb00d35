// One place every observed message and transport event goes through: stamped with its time,
// redacted once, then handed to each sink (the --record file, the --trace printer, tap's live lint).

import { createWriteStream, type WriteStream } from 'node:fs';
import type { Message } from 'mcpwire';
import { CliError, ExitCode } from '../exit-code.ts';
import { capDepth, DEPTH_MARKER, MAX_JSON_DEPTH } from './json-depth.ts';
import { Redactor } from './redact.ts';
import {
  MAX_KEPT_TEXT,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type EventEntry,
  type HeaderEntry,
  type MessageEntry,
  type Side,
} from './transcript.ts';

/** Receives each entry after redaction, in order. */
export interface WireSink {
  header?(header: HeaderEntry): void;
  /**
   * One entry. `messageJson`, for some message entries, is the message's JSON text as it crossed the
   * wire (one line, no CR), given only when redaction left the message unchanged: a sink that writes
   * JSON may use it instead of serializing `entry.message` again. The entry is the sink's to keep.
   */
  entry(entry: EventEntry, messageJson?: string): void;
  /** True for a sink that uses `messageJson`: without one, the recorder does not work it out. */
  readonly isJsonWriter?: boolean;
  /** Flushes and releases what the sink holds. */
  close?(): Promise<void>;
}

/** An entry as a caller reports it: the recorder adds the time. */
export type Observed = EventEntry extends infer E ? (E extends EventEntry ? Omit<E, 't'> : never) : never;

/** Where a message was seen, and the JSON text it was parsed from (see WireRecorder.message). */
export interface MessageExtra {
  /** Over HTTP: the exchange that carried it. */
  exchange?: number;
  /** Over HTTP: the SSE event id it arrived with. */
  eventId?: string;
  /** The JSON text `message` was parsed from, exactly (a batch's whole text for a batch). */
  text?: string;
}

/** What a recording is of. */
export interface RecordingSubject {
  recorder: string;
  transport: 'stdio' | 'http';
  /** The command line or URL, as given (redacted here). */
  target: string;
}

/** Stamps, redacts and fans out what a client, proxy or mock server sees. */
export class WireRecorder {
  readonly redactor: Redactor;
  readonly #sinks: WireSink[];
  /** Whether any sink takes a message's JSON text (see WireSink.isJsonWriter). */
  readonly #hasJsonWriter: boolean;
  readonly #clock: () => number;
  readonly #started: number;
  readonly header: HeaderEntry;

  /**
   * `clock` (ms; default performance.now) stamps each entry, `t = 0` being its reading now: a caller
   * that records later than it observed (tap's deferred observation) gives the observed times.
   */
  constructor(
    subject: RecordingSubject,
    options: { sinks: WireSink[]; redactor?: Redactor; clock?: () => number },
  ) {
    this.redactor = options.redactor ?? new Redactor();
    this.#sinks = options.sinks;
    this.#hasJsonWriter = options.sinks.some((sink) => sink.isJsonWriter === true);
    this.#clock = options.clock ?? (() => performance.now());
    this.#started = this.#clock();
    const target =
      subject.transport === 'http'
        ? this.redactor.url(subject.target)
        : this.redactor.args(subject.target.split(' ')).join(' ');
    this.header = {
      type: 'header',
      format: TRANSCRIPT_FORMAT,
      version: TRANSCRIPT_VERSION,
      recorder: subject.recorder,
      transport: subject.transport,
      target,
      startedAt: new Date().toISOString(),
    };
    for (const sink of this.#sinks) sink.header?.(this.header);
  }

  /** Milliseconds since the recording started (three decimals). */
  now(): number {
    return Math.round((this.#clock() - this.#started) * 1000) / 1000;
  }

  /** Records one entry (redacted here; callers pass what they saw). */
  record(observed: Observed): void {
    const { type, ...rest } = observed;
    // `type` then `t` first, so a transcript reads well line by line.
    const entry = this.#redact({ type, t: this.now(), ...rest } as EventEntry);
    for (const sink of this.#sinks) sink.entry(entry);
  }

  /**
   * Records a message (a batch as one entry per member). `extra.text` is the JSON the message was
   * parsed from, when the caller has it: redaction then skips text that names no secret, and a
   * single message's text is handed to the sinks as it crossed (see WireSink.entry).
   */
  message(from: Side, message: Message | readonly Message[], extra: MessageExtra = {}): void {
    if (Array.isArray(message)) {
      const batch = this.#batches++;
      for (const item of message as readonly Message[]) this.#message(from, item, extra, batch);
    } else this.#message(from, message as Message, extra, undefined);
  }

  #batches = 0;

  /** Records one line read off a stdio stream: a message, a batch, or an invalid line. */
  line(from: Side, text: string): void {
    const classified = classifyLine(text);
    if (classified.kind === 'invalid')
      this.record({ type: 'invalid', from, text: text.slice(0, MAX_KEPT_TEXT), reason: classified.reason });
    else this.message(from, classified.message, { text });
  }

  /** One message entry, built in its transcript order (type, t, from, message, exchange, eventId, batch). */
  #message(from: Side, message: Message, extra: MessageExtra, batch: number | undefined): void {
    const { text } = extra;
    // Cut before any walk (issue 21): redaction, the lint and the trace printer then never meet a
    // message deeper than MAX_JSON_DEPTH. What is forwarded stays as it was.
    const capped = capDepth(message, text === undefined ? {} : { text });
    const redacted = this.redactor.message(capped, capped === message ? text : undefined);
    const entry: MessageEntry = { type: 'message', t: this.now(), from, message: redacted };
    if (extra.exchange !== undefined) entry.exchange = extra.exchange;
    if (extra.eventId !== undefined) entry.eventId = extra.eventId;
    if (batch !== undefined) entry.batch = batch;
    const json =
      this.#hasJsonWriter && text !== undefined && batch === undefined && redacted === message
        ? asOneLine(text)
        : undefined;
    for (const sink of this.#sinks) sink.entry(entry, json);
    if (capped !== message) this.record({ type: 'note', text: cutNote(from, capped) });
  }

  /** Closes every sink (the file is complete when this resolves). */
  async close(): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.close?.() ?? Promise.resolve()));
  }

  #redact(entry: EventEntry): EventEntry {
    const { redactor } = this;
    switch (entry.type) {
      case 'message':
        return { ...entry, message: redactor.message(capDepth(entry.message)) };
      case 'spawn':
        return { ...entry, args: redactor.args(entry.args) };
      case 'http-request':
        return {
          ...entry,
          url: redactor.url(entry.url),
          headers: redactor.headers(entry.headers),
          ...(entry.body === undefined
            ? {}
            : { body: redactor.body(entry.body, contentTypeOf(entry.headers)) }),
        };
      case 'http-response':
        return {
          ...entry,
          headers: redactor.headers(entry.headers),
          ...(entry.body === undefined
            ? {}
            : { body: redactor.body(entry.body, contentTypeOf(entry.headers)) }),
        };
      default:
        return entry;
    }
  }
}

/** The note recorded after a message was cut at MAX_JSON_DEPTH (`capped`: the message as cut). */
function cutNote(from: Side, capped: Message): string {
  const { id, method } = capped as { id?: unknown; method?: unknown };
  const idText = typeof id === 'string' || typeof id === 'number' ? ` ${JSON.stringify(id)}` : '';
  const what = typeof method === 'string' ? `${method}${idText}` : `response${idText}`;
  return `the ${from}'s message (${what.slice(0, 200)}) nests deeper than ${MAX_JSON_DEPTH} levels: recorded with what is deeper replaced by "${DEPTH_MARKER}" (only the recorded copy is cut)`;
}

function contentTypeOf(headers: Record<string, string>): string {
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'content-type') return value;
  return '';
}

/** `text` without a CR that ends it, when what is left is one line with no CR; else undefined. */
function asOneLine(text: string): string | undefined {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  // A lone CR ends a line for some JSONL readers (readline); an LF may occur in an HTTP body.
  return line.includes('\r') || line.includes('\n') ? undefined : line;
}

/** What one line of a stdio stream is. */
export type ClassifiedLine =
  { kind: 'message'; message: Message | Message[] } | { kind: 'invalid'; reason: string };

/** Classifies a line without its `\n` (a trailing `\r` is allowed, as the stdio transport allows it). */
export function classifyLine(text: string): ClassifiedLine {
  let value: unknown;
  try {
    // A CR that ends the line is JSON whitespace: the line parses as it is, with no copy.
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: text.trim() === '' ? 'blank line' : 'not JSON' };
  }
  if (Array.isArray(value)) {
    if (
      value.length > 0 &&
      value.every((item) => typeof item === 'object' && item !== null && !Array.isArray(item))
    )
      return { kind: 'message', message: value as Message[] };
    return {
      kind: 'invalid',
      reason: value.length === 0 ? 'an empty batch' : 'a batch with a member that is not an object',
    };
  }
  if (typeof value !== 'object' || value === null)
    return { kind: 'invalid', reason: 'JSON that is not an object' };
  return { kind: 'message', message: value as Message };
}

/**
 * Splits a byte stream into lines as they complete, for observing (not forwarding): a line longer
 * than `maxLine` bytes is reported cut, and the rest of it skipped, so memory stays bounded.
 */
export class LineSplitter {
  readonly #onLine: (line: string, isCut: boolean) => void;
  readonly #maxLine: number;
  #parts: Buffer[] = [];
  #size = 0;
  #isSkipping = false;

  constructor(onLine: (line: string, isCut: boolean) => void, maxLine = 16 * 1024 * 1024) {
    this.#onLine = onLine;
    this.#maxLine = maxLine;
  }

  /** Takes the next chunk of the stream (not kept: the splitter copies what it holds on to). */
  push(chunk: Buffer): void {
    if (this.#size === 0 && !this.#isSkipping && chunk.length <= this.#maxLine && chunk.at(-1) === 10) {
      // The common case (tap's observe queue cuts after a newline): whole lines only, decoded in
      // one go and cut as strings. UTF-8 never has a 0x0A inside a character, so each line decodes
      // as it would alone.
      const text = chunk.toString('utf8');
      let start = 0;
      for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
        this.#onLine(text.slice(start, newline), false);
        start = newline + 1;
      }
      return;
    }
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline >= 0; newline = chunk.indexOf(10, start)) {
      if (this.#size === 0 && !this.#isSkipping && newline - start <= this.#maxLine)
        // The common case, a whole line inside one chunk: decoded in place, no copy.
        this.#onLine(chunk.toString('utf8', start, newline), false);
      else {
        this.#take(chunk.subarray(start, newline));
        this.#emit();
      }
      start = newline + 1;
    }
    if (start < chunk.length) this.#take(chunk.subarray(start));
  }

  /** Reports a last line without its `\n`, if any. */
  end(): void {
    if (this.#size > 0 || this.#isSkipping) this.#emit();
  }

  #take(part: Buffer): void {
    if (this.#isSkipping || part.length === 0) return;
    if (this.#size + part.length > this.#maxLine) {
      this.#parts.push(part.subarray(0, this.#maxLine - this.#size));
      this.#size = this.#maxLine;
      this.#isSkipping = true;
      return;
    }
    this.#parts.push(part);
    this.#size += part.length;
  }

  #emit(): void {
    const line = Buffer.concat(this.#parts, this.#size).toString('utf8');
    const isCut = this.#isSkipping;
    this.#parts = [];
    this.#size = 0;
    this.#isSkipping = false;
    this.#onLine(line, isCut);
  }
}

/** How much JSONL the file sink gathers before it writes at once. */
const FLUSH_BYTES = 64 * 1024;

/**
 * How long the file sink holds lines before it writes them. Each write is a trip to libuv's thread
 * pool (a thread woken, a completion back on the loop): under one-at-a-time traffic a write per
 * turn of the event loop would be one per message or two (bench/tap.ts, sequential --record).
 */
const FLUSH_DELAY_MS = 20;

/**
 * Writes the transcript to `file` as JSONL (the header first). Fails early when it cannot open the
 * file. Lines are gathered and written FLUSH_DELAY_MS after the first one waiting (or every 64 KiB),
 * not one write per entry; `close` writes what is left and resolves once it is on disk. A new file
 * is created readable by its owner only (0600: a transcript may hold what redaction missed); an
 * existing file keeps its mode.
 */
export async function openFileSink(file: string): Promise<WireSink> {
  const stream: WriteStream = createWriteStream(file, { flags: 'w', mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) =>
      reject(new CliError(`cannot write the transcript to ${file}: ${error.message}`, ExitCode.usage)),
    );
  });
  let failure: Error | undefined;
  stream.on('error', (error) => (failure = error));
  let pending = '';
  let flushing: NodeJS.Timeout | undefined;
  const flush = (): void => {
    clearTimeout(flushing);
    flushing = undefined;
    if (pending !== '' && failure === undefined) stream.write(pending);
    pending = '';
  };
  const write = (line: string): void => {
    pending += line;
    if (pending.length >= FLUSH_BYTES) flush();
    else flushing ??= setTimeout(flush, FLUSH_DELAY_MS);
  };
  return {
    isJsonWriter: true,
    header: (header) => write(`${JSON.stringify(header)}\n`),
    entry: (entry, messageJson) => write(`${toJsonLine(entry, messageJson)}\n`),
    close: () =>
      new Promise<void>((resolve, reject) => {
        flush();
        stream.end(() => (failure ? reject(failure) : resolve()));
      }),
  };
}

/** `entry` as one JSON line, with `messageJson` spliced in as its message when given. */
function toJsonLine(entry: EventEntry, messageJson: string | undefined): string {
  if (messageJson === undefined || entry.type !== 'message') return JSON.stringify(entry);
  // The members in the order the recorder builds them, as JSON.stringify would write them.
  // `t` is a finite number and `from` a fixed word: their JSON is their text.
  let line = `{"type":"message","t":${entry.t},"from":"${entry.from}","message":${messageJson}`;
  if (entry.exchange !== undefined) line += `,"exchange":${JSON.stringify(entry.exchange)}`;
  if (entry.eventId !== undefined) line += `,"eventId":${JSON.stringify(entry.eventId)}`;
  if (entry.batch !== undefined) line += `,"batch":${JSON.stringify(entry.batch)}`;
  return `${line}}`;
}

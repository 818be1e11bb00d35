// One place every observed message and transport event goes through: stamped with its time,
// redacted once, then handed to each sink (the --record file, the --trace printer, tap's live lint).

import { createWriteStream, type WriteStream } from 'node:fs';
import type { Message } from 'mcpwire';
import { CliError, ExitCode } from '../exit-code.ts';
import { Redactor } from './redact.ts';
import {
  MAX_KEPT_TEXT,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type EventEntry,
  type HeaderEntry,
  type Side,
} from './transcript.ts';

/** Receives each entry after redaction, in order. */
export interface WireSink {
  header?(header: HeaderEntry): void;
  entry(entry: EventEntry): void;
  /** Flushes and releases what the sink holds. */
  close?(): Promise<void>;
}

/** An entry as a caller reports it: the recorder adds the time. */
export type Observed = EventEntry extends infer E ? (E extends EventEntry ? Omit<E, 't'> : never) : never;

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
  readonly #started = performance.now();
  readonly header: HeaderEntry;

  constructor(subject: RecordingSubject, options: { sinks: WireSink[]; redactor?: Redactor }) {
    this.redactor = options.redactor ?? new Redactor();
    this.#sinks = options.sinks;
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
    return Math.round((performance.now() - this.#started) * 1000) / 1000;
  }

  /** Records one entry (redacted here; callers pass what they saw). */
  record(observed: Observed): void {
    const { type, ...rest } = observed;
    // `type` then `t` first, so a transcript reads well line by line.
    const entry = this.#redact({ type, t: this.now(), ...rest } as EventEntry);
    for (const sink of this.#sinks) sink.entry(entry);
  }

  /** Records a message (a batch as one entry per member). */
  message(
    from: Side,
    message: Message | readonly Message[],
    extra: { exchange?: number; eventId?: string } = {},
  ): void {
    if (Array.isArray(message)) {
      const batch = this.#batches++;
      for (const item of message as readonly Message[])
        this.record({ type: 'message', from, message: item, ...extra, batch });
    } else this.record({ type: 'message', from, message: message as Message, ...extra });
  }

  #batches = 0;

  /** Records one line read off a stdio stream: a message, a batch, or an invalid line. */
  line(from: Side, text: string): void {
    const classified = classifyLine(text);
    if (classified.kind === 'invalid')
      this.record({ type: 'invalid', from, text: text.slice(0, MAX_KEPT_TEXT), reason: classified.reason });
    else this.message(from, classified.message);
  }

  /** Closes every sink (the file is complete when this resolves). */
  async close(): Promise<void> {
    await Promise.all(this.#sinks.map((sink) => sink.close?.() ?? Promise.resolve()));
  }

  #redact(entry: EventEntry): EventEntry {
    const { redactor } = this;
    switch (entry.type) {
      case 'message':
        return { ...entry, message: redactor.message(entry.message) };
      case 'spawn':
        return { ...entry, args: redactor.args(entry.args) };
      case 'http-request':
        return { ...entry, url: redactor.url(entry.url), headers: redactor.headers(entry.headers) };
      case 'http-response':
        return { ...entry, headers: redactor.headers(entry.headers) };
      default:
        return entry;
    }
  }
}

/** What one line of a stdio stream is. */
export type ClassifiedLine =
  { kind: 'message'; message: Message | Message[] } | { kind: 'invalid'; reason: string };

/** Classifies a line without its `\n` (a trailing `\r` is allowed, as the stdio transport allows it). */
export function classifyLine(text: string): ClassifiedLine {
  const line = text.endsWith('\r') ? text.slice(0, -1) : text;
  if (line.trim() === '') return { kind: 'invalid', reason: 'blank line' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'invalid', reason: 'not JSON' };
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

  push(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline >= 0; newline = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, newline));
      this.#emit();
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

/** Writes the transcript to `file` as JSONL (the header first). Fails early when it cannot open the file. */
export async function openFileSink(file: string): Promise<WireSink> {
  const stream: WriteStream = createWriteStream(file, { flags: 'w' });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) =>
      reject(new CliError(`cannot write the transcript to ${file}: ${error.message}`, ExitCode.usage)),
    );
  });
  let failure: Error | undefined;
  stream.on('error', (error) => (failure = error));
  const write = (value: unknown): void => {
    if (failure === undefined) stream.write(`${JSON.stringify(value)}\n`);
  };
  return {
    header: write,
    entry: write,
    close: () =>
      new Promise<void>((resolve, reject) => {
        stream.end(() => (failure ? reject(failure) : resolve()));
      }),
  };
}

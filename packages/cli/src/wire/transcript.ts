// The transcript: what `--record`, `tap` and `replay` write and `lint`, `replay` and `report` read.
// One JSON object per line (JSONL): a header, then every message and transport event in the order
// it happened, each with its time in ms since the header. See docs/design.md ("Transcripts").

import type { Message } from 'mcpwire';
import { capDepth, DEPTH_MARKER, MAX_JSON_DEPTH } from './json-depth.ts';
import { entryShapeProblem } from './transcript-shape.ts';

/** The `format` of a transcript's first line. */
export const TRANSCRIPT_FORMAT = 'mcpwire-transcript';
/** The version this code writes and reads. */
export const TRANSCRIPT_VERSION = 1;

/** Which side a message came from: the client (host) or the server. */
export type Side = 'client' | 'server';

/** The first line: what recorded the transcript and of what. */
export interface HeaderEntry {
  type: 'header';
  format: typeof TRANSCRIPT_FORMAT;
  version: typeof TRANSCRIPT_VERSION;
  /** The command that recorded it, e.g. `mcpwire tap` or `mcpwire list`. */
  recorder: string;
  transport: 'stdio' | 'http';
  /** The server command line or URL (secrets redacted). */
  target: string;
  /** Wall-clock time of `t = 0`, ISO 8601. */
  startedAt: string;
}

/** One JSON-RPC message (a batch is recorded as one entry per member, `batch` set). */
export interface MessageEntry {
  type: 'message';
  t: number;
  from: Side;
  message: Message;
  /** Over HTTP: the exchange (see HttpRequestEntry.exchange) that carried it. */
  exchange?: number;
  /** Over HTTP: the SSE event id it arrived with. */
  eventId?: string;
  /** Set on each member of a JSON-RPC batch: the batch's index among the side's lines. */
  batch?: number;
}

/** A line on the wire that is not a JSON-RPC message: blank, not JSON, not an object. */
export interface InvalidEntry {
  type: 'invalid';
  t: number;
  from: Side;
  /** The line as it crossed the wire (cut at 64 KiB). */
  text: string;
  reason: string;
}

/** A stdio server process started. */
export interface SpawnEntry {
  type: 'spawn';
  t: number;
  command: string;
  args: string[];
  pid?: number;
}

/** A stdio server process ended. */
export interface ExitEntry {
  type: 'exit';
  t: number;
  code: number | null;
  signal: string | null;
}

/** What a stdio server wrote to stderr (one entry per chunk). */
export interface StderrEntry {
  type: 'stderr';
  t: number;
  text: string;
}

/** An HTTP request the client made (headers redacted). */
export interface HttpRequestEntry {
  type: 'http-request';
  t: number;
  /** Numbers the exchanges of one transcript, from 1; its response and messages carry it. */
  exchange: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** A body that is no JSON-RPC (an OAuth token request, a registration), credentials redacted, cut at 64 KiB. */
  body?: string;
}

/** The status and headers of the response to exchange `exchange`. */
export interface HttpResponseEntry {
  type: 'http-response';
  t: number;
  exchange: number;
  status: number;
  headers: Record<string, string>;
  /** A body that is not JSON-RPC (an error page, a 202's empty body is ''), cut at 64 KiB. */
  body?: string;
}

/** The response body of exchange `exchange` ended (an SSE stream closed, by either side). */
export interface HttpEndEntry {
  type: 'http-end';
  t: number;
  exchange: number;
  error?: string;
}

/** Something the recorder noticed that is no message: a connection error, a lint finding it printed. */
export interface NoteEntry {
  type: 'note';
  t: number;
  text: string;
}

export type TranscriptEntry =
  | HeaderEntry
  | MessageEntry
  | InvalidEntry
  | SpawnEntry
  | ExitEntry
  | StderrEntry
  | HttpRequestEntry
  | HttpResponseEntry
  | HttpEndEntry
  | NoteEntry;

/** Every entry but the header. */
export type EventEntry = Exclude<TranscriptEntry, HeaderEntry>;

/** An entry parseTranscript left out: its line, its time, and what is wrong with it. */
export interface MalformedEntry {
  line: number;
  t: number;
  reason: string;
}

/** A transcript read from a file. */
export interface Transcript {
  header: HeaderEntry;
  entries: EventEntry[];
  /** Entries of a known type but the wrong shape (see entryShapeProblem), left out of `entries`. */
  malformed?: MalformedEntry[];
  /**
   * The lines (1-based) of entries nested deeper than MAX_JSON_DEPTH (a message at level 2), read
   * with what is deeper replaced by DEPTH_MARKER (see cutNotices).
   */
  cutLines?: number[];
}

/** A transcript file that cannot be read: which line and why. */
export class TranscriptError extends Error {
  override readonly name = 'TranscriptError';
  constructor(
    readonly file: string,
    readonly line: number,
    reason: string,
  ) {
    super(`${file}:${line}: ${reason}`);
  }
}

/** The longest text kept of an invalid line or a non-JSON-RPC body. */
export const MAX_KEPT_TEXT = 64 * 1024;

const ENTRY_TYPES: ReadonlySet<string> = new Set([
  'message',
  'invalid',
  'spawn',
  'exit',
  'stderr',
  'http-request',
  'http-response',
  'http-end',
  'note',
]);

/**
 * Parses a transcript's text. Throws TranscriptError naming the line for a missing or foreign
 * header, a line that is not a JSON object, an unknown entry type, or a time that is not a number.
 */
export function parseTranscript(text: string, file = 'transcript'): Transcript {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const header = capDepth(parseLine(lines[0] ?? '', file, 1), { maxDepth: MAX_JSON_DEPTH });
  if (header?.type !== 'header' || header.format !== TRANSCRIPT_FORMAT)
    throw new TranscriptError(
      file,
      1,
      `not an mcpwire transcript (its first line must be {"type":"header","format":"${TRANSCRIPT_FORMAT}",...}); record one with --record or mcpwire tap`,
    );
  if (header.version !== TRANSCRIPT_VERSION)
    throw new TranscriptError(
      file,
      1,
      `transcript version ${String(header.version)} is not supported (this mcpwire reads version ${TRANSCRIPT_VERSION})`,
    );
  const entries: EventEntry[] = [];
  const malformed: MalformedEntry[] = [];
  const cutLines: number[] = [];
  for (let index = 1; index < lines.length; index++) {
    const parsed = parseLine(lines[index]!, file, index + 1);
    if (parsed === undefined) continue;
    // The entry's own object is level 1, so a message keeps MAX_JSON_DEPTH levels (issue 21).
    const entry = capDepth(parsed, { maxDepth: MAX_JSON_DEPTH + 1, text: lines[index]! });
    if (entry !== parsed) cutLines.push(index + 1);
    if (!ENTRY_TYPES.has(entry.type) || entry.type === 'header')
      throw new TranscriptError(file, index + 1, `unknown entry type ${JSON.stringify(entry.type)}`);
    if (typeof entry.t !== 'number' || !Number.isFinite(entry.t))
      throw new TranscriptError(file, index + 1, 'entry without a numeric "t" (ms since the header)');
    // An entry of a known type but the wrong shape is set aside, not trusted by every reader after.
    const problem = entryShapeProblem(entry as unknown as Record<string, unknown>);
    if (problem !== undefined) {
      malformed.push({ line: index + 1, t: entry.t, reason: problem });
      continue;
    }
    entries.push(entry);
  }
  return {
    header,
    entries,
    ...(cutLines.length === 0 ? {} : { cutLines }),
    ...(malformed.length === 0 ? {} : { malformed }),
  };
}

/**
 * One line per entry parseTranscript cut at MAX_JSON_DEPTH or left out as malformed, for a command to
 * print on stderr.
 */
export function cutNotices(transcript: Transcript, file: string): string[] {
  return [
    ...(transcript.cutLines ?? []).map(
      (line) =>
        `${file} line ${line}: an entry nested deeper than ${MAX_JSON_DEPTH} levels, read with what is deeper replaced by "${DEPTH_MARKER}"`,
    ),
    ...(transcript.malformed ?? []).map(({ line, reason }) => `${file} line ${line}: left out, ${reason}`),
  ];
}

/** One line: undefined for a blank line (a file edited by hand may end with one). */
function parseLine(line: string, file: string, number: number): TranscriptEntry | undefined {
  if (line.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    throw new TranscriptError(file, number, `not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('type' in value))
    throw new TranscriptError(file, number, 'not a transcript entry (an object with "type")');
  return value as TranscriptEntry;
}

/** The messages of a transcript in order, with the side each came from. */
export function messagesOf(transcript: Transcript): MessageEntry[] {
  return transcript.entries.filter((entry): entry is MessageEntry => entry.type === 'message');
}

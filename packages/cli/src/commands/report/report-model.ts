// What the report draws, worked out from a transcript in one pass: a row per message, invalid line
// and transport event in transcript order, each request joined to its response (BASE-5, BASE-6)
// with the time between them, and the bracket tracks that keep overlapping exchanges apart.

import { findEraProbe, type EraProbe } from '../../wire/era-probe.ts';
import type { EventEntry, HeaderEntry, Side, Transcript } from '../../wire/transcript.ts';
import { eraOf, summarizeMessage, type MessageSummary } from './message-label.ts';
import { headerOf, noteOf, type NoteRow } from './report-notes.ts';

export type { NoteRow } from './report-notes.ts';

/** A message or an invalid line: an arrow from its sender's lane to the other. */
export interface ArrowRow {
  type: 'arrow';
  /** The entry's index in `transcript.entries`. */
  entry: number;
  t: number;
  from: Side;
  /** Its index among the transcript's messages (see messagesOf); absent for an invalid line. */
  index?: number;
  summary: MessageSummary;
  /** The message as indented JSON, or the invalid line as it crossed the wire. */
  body: string;
  /** Small facts shown beside the label: the HTTP exchange, the SSE event id, the batch. */
  tags: string[];
  /** The pair (index into `pairs`) this request or response belongs to. */
  pair?: number;
  /** A request no response in the transcript answers. */
  isUnanswered?: boolean;
  /** A response to no request of the transcript. */
  isUnmatched?: boolean;
}

/** One row of the diagram. */
export type ReportRow = ArrowRow | NoteRow;

/** A request and its response: a bracket from one row to the other. */
export interface ReportPair {
  request: number;
  response: number;
  /** Milliseconds from the request to its response. */
  elapsedMs: number;
  /** The bracket column (0 is nearest the time column). */
  track: number;
  isFailure: boolean;
}

/** Everything the HTML needs, in transcript order. */
export interface ReportModel {
  header: HeaderEntry;
  rows: ReportRow[];
  pairs: ReportPair[];
  /** How many bracket columns the pairs use (at most MAX_TRACKS). */
  tracks: number;
  /** How the transcript's first exchange names its era, if it shows one. */
  era: string | undefined;
  counts: { messages: number; requests: number; failures: number; notifications: number; invalid: number };
}

/** Bracket columns before overlapping brackets share the least busy one. */
export const MAX_TRACKS = 6;

/** Builds the model in time linear in the transcript's size (the tracks add a constant factor). */
export function toReportModel(transcript: Transcript): ReportModel {
  const rows: ReportRow[] = [];
  const pairs: ReportPair[] = [];
  const pending = new Map<string, number>();
  const sseExchanges = new Set<number>();
  const counts = { messages: 0, requests: 0, failures: 0, notifications: 0, invalid: 0 };
  const probe = findEraProbe(transcript.entries);
  transcript.entries.forEach((entry, position) => {
    if (entry.type === 'http-response' && isEventStream(entry.headers)) sseExchanges.add(entry.exchange);
    if (entry.type !== 'message' && entry.type !== 'invalid') {
      const note = noteOf(entry, position, { isStream: isStreamEnd(entry, sseExchanges) });
      if (note !== undefined) rows.push(asProbeNote(note, entry, probe));
      return;
    }
    const row = asProbeArrow(arrowOf(entry, position, counts.messages), entry, probe);
    if (row.index !== undefined) counts.messages++;
    count(row, counts);
    const kind = row.summary.kind;
    if (kind === 'request' && row.summary.idKey !== undefined) {
      pending.set(`${row.from} ${row.summary.idKey}`, rows.length);
      row.isUnanswered = true;
    } else if (kind === 'result' || kind === 'error') {
      const key = `${row.from === 'client' ? 'server' : 'client'} ${row.summary.idKey ?? ''}`;
      const request = row.summary.idKey === undefined ? undefined : pending.get(key);
      if (request === undefined) row.isUnmatched = true;
      else {
        pending.delete(key);
        const requestRow = rows[request] as ArrowRow;
        requestRow.isUnanswered = false;
        requestRow.pair = row.pair = pairs.length;
        pairs.push({
          request,
          response: rows.length,
          elapsedMs: row.t - requestRow.t,
          track: 0,
          isFailure: row.summary.failure !== undefined,
        });
      }
    }
    rows.push(row);
  });
  return {
    header: transcript.header,
    rows,
    pairs,
    tracks: assignTracks(pairs),
    era: eraOf(clientMessages(transcript, probe)),
    counts,
  };
}

function arrowOf(
  entry: EventEntry & { type: 'message' | 'invalid' },
  position: number,
  index: number,
): ArrowRow {
  if (entry.type === 'invalid')
    return {
      type: 'arrow',
      entry: position,
      t: entry.t,
      from: entry.from,
      summary: { kind: 'unknown', label: 'invalid line', failure: 'invalid', detail: entry.reason },
      body: entry.text,
      tags: [],
    };
  const tags: string[] = [];
  if (entry.exchange !== undefined) tags.push(`exchange ${entry.exchange}`);
  if (entry.eventId !== undefined) tags.push(`event ${entry.eventId}`);
  if (entry.batch !== undefined) tags.push(`batch ${entry.batch}`);
  return {
    type: 'arrow',
    entry: position,
    t: entry.t,
    from: entry.from,
    index,
    summary: summarizeMessage(entry.message),
    body: JSON.stringify(entry.message, null, 2),
    tags,
  };
}

function count(row: ArrowRow, counts: ReportModel['counts']): void {
  if (row.summary.kind === 'request') counts.requests++;
  if (row.summary.kind === 'notification') counts.notifications++;
  if (row.index === undefined || row.summary.kind === 'unknown') counts.invalid++;
  else if (row.summary.failure !== undefined) counts.failures++;
}

/**
 * Gives each pair the first bracket column free at its request's row (pairs come sorted by their
 * response; sorting by request keeps the greedy choice optimal for intervals). Returns the columns used.
 */
function assignTracks(pairs: ReportPair[]): number {
  const ends: number[] = [];
  const byStart = [...pairs].sort((a, b) => a.request - b.request);
  for (const pair of byStart) {
    let track = ends.findIndex((end) => end < pair.request);
    if (track < 0 && ends.length < MAX_TRACKS) track = ends.length;
    if (track < 0) track = ends.indexOf(Math.min(...ends));
    pair.track = track;
    ends[track] = pair.response;
  }
  return ends.length;
}

function isEventStream(headers: Record<string, string>): boolean {
  return headerOf(headers, 'content-type')?.toLowerCase().startsWith('text/event-stream') === true;
}

/** The client's messages but a refused era probe: the era is what was negotiated. */
function* clientMessages(transcript: Transcript, probe: EraProbe): Iterable<object> {
  for (const entry of transcript.entries)
    if (entry.type === 'message' && entry.from === 'client' && !probe.entries.has(entry)) yield entry.message;
}

/** A refused era probe's messages are negotiation: labelled as the probe, never a failure. */
function asProbeArrow(row: ArrowRow, entry: EventEntry, probe: EraProbe): ArrowRow {
  if (!probe.entries.has(entry)) return row;
  const { kind } = row.summary;
  const id = row.summary.idKey === undefined ? '' : `#${row.summary.idKey} `;
  const label =
    kind === 'request'
      ? `${id}server/discover: era probe`
      : kind === 'error' || kind === 'result'
        ? `${id}era probe (refused: handshake era)`
        : `${row.summary.label} (era probe)`;
  const { failure: _failure, ...summary } = row.summary;
  return { ...row, summary: { ...summary, label } };
}

/** The HTTP status that refused an era probe (400, 404, 405) is part of negotiation, not a failure. */
function asProbeNote(note: NoteRow, entry: EventEntry, probe: EraProbe): NoteRow {
  if (entry.type !== 'http-response' || !probe.exchanges.has(entry.exchange)) return note;
  return { ...note, text: `${note.text}: era probe refused`, isFailure: false };
}

function isStreamEnd(entry: EventEntry, sseExchanges: ReadonlySet<number>): boolean {
  return entry.type === 'http-end' && sseExchanges.has(entry.exchange);
}

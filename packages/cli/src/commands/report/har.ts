// An HTTP transcript as a HAR 1.2 log: one entry per exchange, in the order its requests were made,
// with the headers as recorded (already redacted), the posted JSON-RPC text, and the response's JSON
// body or SSE events rebuilt from the messages the transcript kept.

import { STATUS_CODES } from 'node:http';
import type {
  EventEntry,
  HttpEndEntry,
  HttpRequestEntry,
  HttpResponseEntry,
  MessageEntry,
  Transcript,
} from '../../wire/transcript.ts';
import type { Har, HarCreator, HarEntry, HarNameValue, HarResponse } from './har-format.ts';
import { summarizeMessage } from './message-label.ts';
import { headerOf } from './report-notes.ts';

/**
 * The recorder does not see the HTTP version; Node's fetch (undici) speaks HTTP/1.1 unless told
 * otherwise, and so does every client the CLI records.
 */
const HTTP_VERSION = 'HTTP/1.1';

/** One exchange as the transcript tells it. */
interface Exchange {
  request: HttpRequestEntry;
  response?: HttpResponseEntry;
  end?: HttpEndEntry;
  sent: MessageEntry[];
  received: MessageEntry[];
}

/** Throws when `transcript` was recorded over stdio: HAR describes HTTP exchanges only. */
export class NotHttpTranscriptError extends Error {
  override readonly name = 'NotHttpTranscriptError';
}

/**
 * The HAR 1.2 log of an HTTP transcript; exchanges without a request entry are left out. The
 * bodies are the transcript's messages serialised again, so their bytes may differ from the wire's
 * (whitespace), and SSE events with no JSON-RPC message (a priming event) are not in the transcript.
 */
export function toHar(transcript: Transcript, options: { creator: HarCreator }): Har {
  if (transcript.header.transport !== 'http')
    throw new NotHttpTranscriptError(`the transcript was recorded over ${transcript.header.transport}`);
  const started = Date.parse(transcript.header.startedAt);
  const origin = Number.isNaN(started) ? 0 : started;
  const entries = [...exchangesOf(transcript.entries).values()].map((exchange) => toEntry(exchange, origin));
  return {
    log: {
      version: '1.2',
      creator: options.creator,
      entries,
      comment: `${transcript.header.recorder}: ${transcript.header.target}`,
    },
  };
}

function exchangesOf(entries: readonly EventEntry[]): Map<number, Exchange> {
  const exchanges = new Map<number, Exchange>();
  for (const entry of entries) {
    if (entry.type === 'http-request') {
      exchanges.set(entry.exchange, { request: entry, sent: [], received: [] });
      continue;
    }
    const exchange =
      'exchange' in entry && entry.exchange !== undefined ? exchanges.get(entry.exchange) : undefined;
    if (exchange === undefined) continue;
    if (entry.type === 'http-response') exchange.response = entry;
    else if (entry.type === 'http-end') exchange.end = entry;
    else if (entry.type === 'message')
      (entry.from === 'client' ? exchange.sent : exchange.received).push(entry);
  }
  return exchanges;
}

function toEntry(exchange: Exchange, origin: number): HarEntry {
  const { request, response, end, sent, received } = exchange;
  const posted = sent.length === 0 ? undefined : bodiesOf(sent).join('\n');
  const last = Math.max(response?.t ?? request.t, end?.t ?? 0, received.at(-1)?.t ?? 0);
  const wait = round((response?.t ?? last) - request.t);
  const receive = response === undefined ? 0 : round(last - response.t);
  const notes = [...sent, ...received].map(
    (entry) => `${entry.from === 'client' ? '→' : '←'} ${summarizeMessage(entry.message).label}`,
  );
  if (end?.error !== undefined) notes.push(`ended: ${end.error}`);
  return {
    startedDateTime: new Date(origin + request.t).toISOString(),
    time: round(wait + receive),
    request: {
      method: request.method,
      url: request.url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: toNameValues(request.headers),
      queryString: queryOf(request.url),
      ...(posted === undefined
        ? {}
        : {
            postData: {
              mimeType: headerOf(request.headers, 'content-type') ?? 'application/json',
              text: posted,
            },
          }),
      headersSize: -1,
      bodySize: posted === undefined ? 0 : Buffer.byteLength(posted),
    },
    response: toResponse(response, received, end),
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait, receive, ssl: -1 },
    ...(notes.length === 0 ? {} : { comment: notes.join('; ') }),
  };
}

function toResponse(
  response: HttpResponseEntry | undefined,
  received: readonly MessageEntry[],
  end: HttpEndEntry | undefined,
): HarResponse {
  if (response === undefined)
    // The request failed before any response (HAR has no field for that but status 0).
    return {
      status: 0,
      statusText: '',
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: [],
      content: { size: 0, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      comment: end?.error ?? 'no response in the transcript',
    };
  const mimeType = headerOf(response.headers, 'content-type') ?? 'x-unknown';
  const isStream = mimeType.toLowerCase().startsWith('text/event-stream');
  const text = isStream ? sseTextOf(received) : (response.body ?? bodiesOf(received).join('\n'));
  const length = Number(headerOf(response.headers, 'content-length'));
  return {
    status: response.status,
    statusText: STATUS_CODES[response.status] ?? '',
    httpVersion: HTTP_VERSION,
    cookies: [],
    headers: toNameValues(response.headers),
    content: { size: Buffer.byteLength(text), mimeType, text },
    redirectURL: headerOf(response.headers, 'location') ?? '',
    headersSize: -1,
    bodySize: Number.isInteger(length) && length >= 0 ? length : -1,
  };
}

/** The JSON texts of `entries`: one per message, one array per batch (members share `batch`). */
function bodiesOf(entries: readonly MessageEntry[]): string[] {
  return unitsOf(entries).map((unit) => unit.text);
}

/** SSE as the server wrote it, one event per message or batch, with the event ids recorded. */
function sseTextOf(entries: readonly MessageEntry[]): string {
  return unitsOf(entries)
    .map(({ eventId, text }) => `${eventId === undefined ? '' : `id: ${eventId}\n`}data: ${text}\n\n`)
    .join('');
}

function unitsOf(entries: readonly MessageEntry[]): Array<{ text: string; eventId: string | undefined }> {
  const units: Array<{ members: MessageEntry[] }> = [];
  for (const entry of entries) {
    const previous = units.at(-1)?.members[0];
    if (entry.batch !== undefined && previous?.batch === entry.batch) units.at(-1)!.members.push(entry);
    else units.push({ members: [entry] });
  }
  return units.map(({ members }) => ({
    text: JSON.stringify(
      members[0]!.batch === undefined ? members[0]!.message : members.map((m) => m.message),
    ),
    eventId: members[0]!.eventId,
  }));
}

function toNameValues(headers: Record<string, string>): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

function queryOf(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function round(ms: number): number {
  return Math.max(0, Math.round(ms * 1000) / 1000);
}

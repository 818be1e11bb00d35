// What the soak's fault proxy remembers of its recent connections, so a request that timed out can
// be traced to the connections that carried it and to where they were cut (issue 13 diagnostics):
// per connection a short timeline of the requests, responses and JSON-RPC ids each way, and the cut.

/** Where and how one connection was cut. */
export interface CutRecord {
  kind: string;
  /** Request bytes forwarded before the cut (over the connection's whole life). */
  requestBytes: number;
  /** Response bytes forwarded before the cut. */
  responseBytes: number;
}

/** One proxied connection as the log keeps it. */
export interface ConnectionRecord {
  n: number;
  openedAt: number;
  closedAt?: number;
  cut?: CutRecord;
  requestBytes: number;
  responseBytes: number;
  /**
   * What passed, in order, as short lines: `> 812 POST s=<session> v=<version>` (a request at
   * request-byte 812), `> 990 id=5 tools/call` (a JSON-RPC request in a body), `< 0 200 text/event-stream`,
   * `< 310 id=5 result`, `< 200 ev=<event id>`. The oldest lines go beyond TIMELINE_LIMIT.
   */
  timeline: string[];
}

/** What a diagnostic asks for: connections open after `since` whose timeline has every needle. */
export interface ConnectionQuery {
  since: number;
  needles: readonly string[];
}

/** Lines kept per connection. */
const TIMELINE_LIMIT = 80;
/** Connections kept: about a minute of the soak's traffic. */
const RING_SIZE = 400;

const REQUEST_LINE = /(GET|POST|DELETE) \S+ HTTP\/1\.1\r\n/g;
const STATUS_LINE = /HTTP\/1\.1 (\d{3})[^\r]*\r\n/g;
const SESSION = /mcp-session-id: ?([^\r\n]+)/i;
const VERSION = /mcp-protocol-version: ?([^\r\n]+)/i;
const LAST_EVENT_ID = /last-event-id: ?([^\r\n]+)/i;
const CONTENT_TYPE = /content-type: ?([^\r\n;]+)/i;
/** A JSON-RPC message as our codec writes it: `"id"` then `"method"`, `"result"` or `"error"`. */
const RPC = /"id":("[^"]*"|-?\d+),"(method":"[^"]+"|result|error)/g;
/** A notification's method (progress, cancelled, list changes). */
const NOTIFICATION = /"jsonrpc":"2\.0","method":"([^"]+)"/g;
const EVENT_ID = /\nid: ?([^\n]+)\n/g;

/** A ring of the latest connections; nothing is kept beyond RING_SIZE of them. */
export class ConnectionLog {
  readonly #ring: ConnectionRecord[] = [];
  #next = 0;
  #count = 0;

  /** Starts the record of a new connection. */
  open(): ConnectionRecord {
    const record: ConnectionRecord = {
      n: ++this.#count,
      openedAt: Date.now(),
      requestBytes: 0,
      responseBytes: 0,
      timeline: [],
    };
    this.#ring[this.#next] = record;
    this.#next = (this.#next + 1) % RING_SIZE;
    return record;
  }

  /** Connections (oldest first) still open after `query.since` whose timeline has every needle. */
  find(query: ConnectionQuery): ConnectionRecord[] {
    return this.#ring
      .filter(
        (record) =>
          (record.closedAt ?? Infinity) >= query.since &&
          query.needles.every((needle) => record.timeline.some((line) => line.includes(needle))),
      )
      .sort((a, b) => a.n - b.n);
  }

  /** Forgets everything (the run is over). */
  clear(): void {
    this.#ring.length = 0;
  }
}

function note(record: ConnectionRecord, line: string): void {
  record.timeline.push(line);
  if (record.timeline.length > TIMELINE_LIMIT) record.timeline.shift();
}

function noteMessages(record: ConnectionRecord, side: '>' | '<', text: string, offset: number): void {
  for (const match of text.matchAll(RPC)) {
    const what = match[2]!.startsWith('method') ? match[2]!.slice(9, -1) : match[2]!;
    note(record, `${side} ${offset + match.index} id=${match[1]} ${what}`);
  }
  for (const match of text.matchAll(NOTIFICATION))
    note(record, `${side} ${offset + match.index} ${match[1]}`);
}

/** Notes client bytes forwarded on `record`: the requests they start and the messages they carry. */
export function logRequestBytes(record: ConnectionRecord, chunk: Buffer): void {
  const offset = record.requestBytes;
  record.requestBytes += chunk.length;
  const text = chunk.toString('latin1');
  for (const match of text.matchAll(REQUEST_LINE)) {
    const head = text.slice(match.index, text.indexOf('\r\n\r\n', match.index));
    const session = SESSION.exec(head)?.[1];
    const version = VERSION.exec(head)?.[1];
    const lastEventId = LAST_EVENT_ID.exec(head)?.[1];
    note(
      record,
      `> ${offset + match.index} ${match[1]}${session ? ` s=${session}` : ''}${version ? ` v=${version}` : ''}${lastEventId ? ` last-event-id=${lastEventId}` : ''}`,
    );
  }
  noteMessages(record, '>', text, offset);
}

/** Notes server bytes forwarded on `record`: statuses, event ids and the messages they carry. */
export function logResponseBytes(record: ConnectionRecord, chunk: Buffer): void {
  const offset = record.responseBytes;
  record.responseBytes += chunk.length;
  const text = chunk.toString('latin1');
  for (const match of text.matchAll(STATUS_LINE)) {
    const type = CONTENT_TYPE.exec(text.slice(match.index, text.indexOf('\r\n\r\n', match.index)))?.[1];
    note(record, `< ${offset + match.index} ${match[1]}${type ? ` ${type}` : ''}`);
  }
  for (const match of text.matchAll(EVENT_ID)) note(record, `< ${offset + match.index} ev=${match[1]}`);
  noteMessages(record, '<', text, offset);
}

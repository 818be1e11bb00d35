// `--trace`: the demo's wire view of a recording as it happens, on stderr (stdout keeps the
// command's own output): each message with direction, id correlation and elapsed time, the JSON
// laid out, and the transport's events (spawn, exit, HTTP status and headers) between them.

import { coloursFor } from '../terminal/colours.ts';
import { DemoPrinter } from '../terminal/demo-printer.ts';
import type { WireSink } from './recorder.ts';
import type { EventEntry, HttpRequestEntry } from './transcript.ts';

/** The request headers worth a trace line, in the casing the spec writes them. */
const SHOWN_REQUEST_HEADERS = [
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
];

/** Prints each entry to `stream` (default stderr) as it is recorded; entries are already redacted. */
export function traceSink(stream: NodeJS.WriteStream = process.stderr): WireSink {
  const printer = new DemoPrinter({
    write: (text) => stream.write(text),
    colours: coloursFor(stream),
    width: stream.isTTY ? (stream.columns ?? 100) : 100,
    isRaw: false,
  });
  const requests = new Map<number, HttpRequestEntry>();
  /** The origin of the first exchange (the MCP server's): others (authorization servers) show theirs. */
  let firstOrigin: string | undefined;
  return {
    entry(entry: EventEntry) {
      switch (entry.type) {
        case 'message':
          printer.message(entry.from === 'client' ? 'sent' : 'received', entry.message);
          return;
        case 'invalid':
          printer.line(
            `${entry.from} sent a line that is no JSON-RPC message (${entry.reason}): ${entry.text.slice(0, 200)}`,
          );
          return;
        case 'spawn':
          printer.note(
            `spawned ${[entry.command, ...entry.args].join(' ')}${entry.pid === undefined ? '' : ` (pid ${entry.pid})`}`,
          );
          return;
        case 'exit':
          printer.note(
            `the server exited (${entry.signal === null ? `code ${String(entry.code)}` : `signal ${entry.signal}`})`,
          );
          return;
        case 'stderr':
          return;
        case 'http-request':
          requests.set(entry.exchange, entry);
          firstOrigin ??= new URL(entry.url).origin;
          return;
        case 'http-response': {
          const request = requests.get(entry.exchange);
          const shown = Object.entries(request?.headers ?? {}).filter(([name]) =>
            SHOWN_REQUEST_HEADERS.includes(name.toLowerCase()),
          );
          const type = entry.headers['content-type']?.split(';')[0];
          const challenge = entry.headers['www-authenticate'];
          printer.http(
            [
              `HTTP ${request?.method ?? '?'} ${request === undefined ? '' : shownUrl(request.url, firstOrigin)}`,
              ...shown.map(([name, value]) => `${name}: ${value}`),
              `⇒ ${entry.status}${type === undefined ? '' : `  ${type}`}`,
              ...(challenge === undefined ? [] : [`www-authenticate: ${challenge}`]),
            ].join('  '),
          );
          // Bodies that are no JSON-RPC (OAuth forms, metadata, token responses), already redacted.
          if (request?.body !== undefined) printer.http(`  sent ${cut(request.body)}`);
          if (entry.body !== undefined && entry.body !== '') printer.http(`  received ${cut(entry.body)}`);
          return;
        }
        case 'http-end':
          if (entry.error !== undefined) printer.http(`  exchange ${entry.exchange} ended: ${entry.error}`);
          requests.delete(entry.exchange);
          return;
        case 'note':
          printer.note(entry.text);
      }
    },
  };
}

/** The path of a URL on the MCP server's origin; the whole URL, query dropped, elsewhere. */
function shownUrl(url: string, firstOrigin: string | undefined): string {
  const parsed = new URL(url);
  return parsed.origin === firstOrigin ? parsed.pathname : `${parsed.origin}${parsed.pathname}`;
}

/** A body on one line, at most 400 characters. */
function cut(body: string): string {
  const line = body.replace(/\s+/g, ' ');
  return line.length > 400 ? `${line.slice(0, 400)}…` : line;
}

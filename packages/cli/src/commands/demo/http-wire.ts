// Over --http, the HTTP underneath the JSON-RPC: a `fetch` for StreamableHttpClientTransport that
// prints each message the host posts, each exchange (method, status, the MCP headers), and each SSE
// event's id as it arrives, and notes which side closed each SSE stream.

import type { Message } from 'mcpwire';
import { McpHeader, type FetchLike } from 'mcpwire/http';
import type { DemoPrinter } from '../../terminal/demo-printer.ts';

/** The request headers worth showing, in the casing the spec writes them. */
const REQUEST_HEADERS = [
  McpHeader.sessionId,
  McpHeader.protocolVersion,
  McpHeader.method,
  McpHeader.name,
  McpHeader.lastEventId,
];

/** One HTTP request the host made. */
export interface HttpExchange {
  readonly method: string;
  /** The JSON-RPC methods posted (`response` for a response). */
  readonly rpc: readonly string[];
  status?: number;
  /** True once the host closed the response's SSE stream before the server ended it. */
  isClosedByHost: boolean;
}

/**
 * A fetch that prints the JSON-RPC messages in a POST body as they leave (so only what is really
 * posted is shown), makes the request, and prints the exchange once the response headers are in.
 * An SSE body is passed through unchanged, each event reported before the transport reads it.
 * `isFull` prints session ids whole (else their first 8 characters).
 */
export function createHttpWire(
  printer: DemoPrinter,
  options: { isFull: boolean; exchanges: HttpExchange[] },
): FetchLike {
  const shorten = (id: string): string => (options.isFull || id.length <= 12 ? id : `${id.slice(0, 8)}…`);
  return async (request) => {
    const posted = request.method === 'POST' ? parseMessages(await request.clone().text()) : [];
    for (const message of posted) printer.message('sent', message);
    const exchange: HttpExchange = { method: request.method, rpc: posted.map(rpcOf), isClosedByHost: false };
    options.exchanges.push(exchange);
    const response = await fetch(request);
    exchange.status = response.status;
    printer.http(describeExchange(request, response, shorten));
    const isSse = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
    if (!isSse || response.body === null) return response;
    const body = observeSse(response.body, { printer, exchange, signal: request.signal });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function parseMessages(text: string): Message[] {
  try {
    const parsed = JSON.parse(text) as Message | Message[];
    return Array.isArray(parsed) ? parsed : [parsed];
  } catch {
    return [];
  }
}

function rpcOf(message: Message): string {
  return 'method' in message ? message.method : 'response';
}

function describeExchange(request: Request, response: Response, shorten: (id: string) => string): string {
  const path = new URL(request.url).pathname;
  const sent = REQUEST_HEADERS.flatMap((name) => {
    const value = request.headers.get(name);
    if (value === null) return [];
    return [`${name}: ${name === McpHeader.sessionId ? shorten(value) : value}`];
  });
  const type = response.headers.get('content-type')?.split(';')[0];
  const assigned = response.headers.get(McpHeader.sessionId);
  const challenge = response.status === 401 ? response.headers.get('www-authenticate') : null;
  const answer = [
    `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`,
    ...(type === undefined ? [] : [type]),
    ...(assigned !== null && assigned !== request.headers.get(McpHeader.sessionId)
      ? [`${McpHeader.sessionId}: ${shorten(assigned)} (assigned)`]
      : []),
    ...(challenge === null ? [] : [`WWW-Authenticate: ${challenge}`]),
  ];
  return [`HTTP ${request.method} ${path}`, ...sent, `⇒ ${answer.join('  ')}`].join('  ');
}

/** Passes an SSE body through, reporting each event as it passes and how the stream ended. */
function observeSse(
  body: ReadableStream<Uint8Array>,
  watch: { printer: DemoPrinter; exchange: HttpExchange; signal: AbortSignal },
): ReadableStream<Uint8Array> {
  const { printer, exchange, signal } = watch;
  const reader = body.getReader();
  const scan = createSseScanner((line) => printer.http(line));
  const closedByHost = (): void => {
    if (exchange.isClosedByHost) return;
    exchange.isClosedByHost = true;
    printer.http(`  SSE stream of ${exchange.rpc.join(', ') || exchange.method} closed by the host`);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          if (!exchange.isClosedByHost)
            printer.http(`  SSE stream of ${exchange.rpc.join(', ') || exchange.method} ended by the server`);
          controller.close();
          return;
        }
        scan(value);
        controller.enqueue(value);
      } catch (error) {
        if (signal.aborted) closedByHost();
        controller.error(error);
      }
    },
    cancel(reason) {
      closedByHost();
      return reader.cancel(reason);
    },
  });
}

/** Reports each complete SSE event (its id, what its data carries) once its blank line has passed. */
function createSseScanner(report: (line: string) => void): (chunk: Uint8Array) => void {
  const decoder = new TextDecoder();
  let text = '';
  return (chunk) => {
    text += decoder.decode(chunk, { stream: true });
    const events = text.split(/\r?\n\r?\n/);
    text = events.pop() ?? '';
    for (const event of events) report(describeEvent(event));
  };
}

function describeEvent(block: string): string {
  const fields = new Map<string, string>();
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).replace(/^ /, '');
    fields.set(name, name === 'data' && fields.has('data') ? `${fields.get('data')}\n${value}` : value);
  }
  const id = fields.get('id');
  const data = fields.get('data') ?? '';
  const what = data === '' ? 'no data (a priming event: the stream can be resumed from here)' : carried(data);
  return `  SSE event${id === undefined ? ' (no id)' : ` id ${id}`}: ${what}`;
}

function carried(data: string): string {
  try {
    const message = JSON.parse(data) as { id?: unknown; method?: unknown };
    if (typeof message.method === 'string') return `carries ${message.method}`;
    return `carries the response to #${String(message.id)}`;
  } catch {
    return 'carries data that is not JSON';
  }
}

// A tiny HTTP proxy on 127.0.0.1 that forwards every request to an upstream MCP endpoint and can
// drop one SSE response mid-stream by destroying the client's socket: a real network-level cut.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Which response to cut, and after how many `event: message` events. */
export interface CutRule {
  /** True for the request (method, parsed JSON body or undefined) whose SSE response is cut, once. */
  matches(method: string, body: unknown): boolean;
  /** Message events forwarded before the socket is destroyed. */
  afterEvents: number;
}

/** What the proxy saw; the test asserts on it. */
export interface ProxyLog {
  /** The `id:` of each message event forwarded on the cut response, in order. */
  cutEventIds: string[];
  /** The `Last-Event-ID` of each GET forwarded (null when absent), in order. */
  lastEventIds: (string | null)[];
  /** True once the cut happened. */
  hasCut: boolean;
}

/** A listening proxy. */
export interface CuttingProxy {
  readonly url: string;
  readonly log: ProxyLog;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host']);

/** Starts a proxy to `upstream` (an endpoint URL); the first response matching `rule` is cut. */
export async function startCuttingProxy(upstream: string, rule: CutRule): Promise<CuttingProxy> {
  const log: ProxyLog = { cutEventIds: [], lastEventIds: [], hasCut: false };
  const target = new URL(upstream);
  const server: Server = createServer((incoming, outgoing) => {
    void forward(incoming, outgoing, { target, rule, log }).catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

interface ProxyContext {
  target: URL;
  rule: CutRule;
  log: ProxyLog;
}

async function forward(incoming: IncomingMessage, outgoing: ServerResponse, context: ProxyContext) {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const method = incoming.method ?? 'GET';
  if (method === 'GET') context.log.lastEventIds.push(header(incoming, 'last-event-id') ?? null);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers.set(name, value);
  }
  const upstreamAbort = new AbortController();
  outgoing.on('close', () => upstreamAbort.abort());
  const response = await fetch(new URL(incoming.url ?? '/', context.target), {
    method,
    headers,
    ...(method === 'POST' ? { body: text } : {}),
    signal: upstreamAbort.signal,
  });
  const responseHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) responseHeaders[name] = value;
  });
  outgoing.writeHead(response.status, responseHeaders);
  outgoing.flushHeaders();
  const isSse = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const shouldCut = isSse && !context.log.hasCut && context.rule.matches(method, parseJson(text));
  if (response.body === null) return void outgoing.end();
  if (!shouldCut) {
    for await (const chunk of response.body) outgoing.write(chunk);
    return void outgoing.end();
  }
  context.log.hasCut = true;
  await relayThenCut(response.body, outgoing, context);
  upstreamAbort.abort();
}

/** Forwards whole SSE events; after the Nth message event is flushed, destroys the socket. */
async function relayThenCut(
  body: ReadableStream<Uint8Array>,
  outgoing: ServerResponse,
  context: ProxyContext,
) {
  const decoder = new TextDecoder();
  let buffered = '';
  let count = 0;
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) !== -1) {
      const event = buffered.slice(0, end + 2);
      buffered = buffered.slice(end + 2);
      const isMessage = /^event: message$/m.test(event);
      if (isMessage) context.log.cutEventIds.push(/^id: (.*)$/m.exec(event)?.[1] ?? '');
      await new Promise<void>((resolve) => outgoing.write(event, () => resolve()));
      if (isMessage && ++count === context.rule.afterEvents) {
        outgoing.socket?.destroy();
        return;
      }
    }
  }
}

function header(incoming: IncomingMessage, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

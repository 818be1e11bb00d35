// Serves a fetch-style handler on node:http: each request becomes a web Request (body capped), each
// Response is written back. Requests whose Host is not an allowed name get 403 (DNS rebinding), and a
// client must send its request within the header and request timeouts (slowloris). Used by
// `AuthorizationServer.listen`.

import { createServer, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The largest request body read; OAuth requests are small. */
const MAX_BODY_BYTES = 64 * 1024;

/** The defaults of the listener's timeouts (ms): those of mcpwire/node's `serveHttp`. */
export const LISTENER_TIMEOUTS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveMs: 5_000 };

/** Where and how {@link listenNode} listens. */
export interface NodeListenOptions {
  port: number;
  host: string;
  /** Whether a request's Host header is one this server answers; the others get 403. */
  isHostAllowed: (host: string | undefined) => boolean;
  /** The whole request head must arrive within this many ms, else 408 and close; default 10,000. */
  headersTimeoutMs?: number;
  /** The whole request, head and body, must arrive within this many ms, else 408; default 30,000. */
  requestTimeoutMs?: number;
}

/** A listening node:http server. */
export interface NodeListener {
  port: number;
  close(): Promise<void>;
}

/** Listens on `host:port` (0: any free port) and serves `handle`; a handler that throws answers 500. */
export async function listenNode(
  handle: (request: Request) => Promise<Response>,
  options: NodeListenOptions,
): Promise<NodeListener> {
  const server = createServer(serverOptions(options), (incoming, outgoing) => {
    if (!options.isHostAllowed(incoming.headers.host))
      return void outgoing
        .writeHead(403, { 'content-type': 'text/plain', connection: 'close' })
        .end('Forbidden: Host not allowed\n');
    void serveOne(handle, incoming, outgoing, options.host);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** node:http's timeouts; a head timeout above the request timeout is capped by it (Node refuses it). */
function serverOptions(options: NodeListenOptions): ServerOptions {
  const requestTimeout = positive(options.requestTimeoutMs ?? LISTENER_TIMEOUTS.requestTimeoutMs);
  const headersTimeout = Math.min(
    positive(options.headersTimeoutMs ?? LISTENER_TIMEOUTS.headersTimeoutMs),
    requestTimeout,
  );
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: LISTENER_TIMEOUTS.keepAliveMs,
    // Node checks the timeouts on this period (default 30 s, which would stretch a 10 s limit to 40 s).
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeout / 4))),
  };
}

function positive(ms: number): number {
  if (!(ms > 0) || !Number.isFinite(ms))
    throw new RangeError(`a timeout must be a positive, finite number of ms, got ${ms}`);
  return Math.ceil(ms);
}

async function serveOne(
  handle: (request: Request) => Promise<Response>,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  host: string,
): Promise<void> {
  try {
    const body = await readBody(incoming);
    if (body === undefined)
      return void outgoing.writeHead(413, { 'content-type': 'text/plain' }).end('request body too large\n');
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (value !== undefined)
        for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    const origin = `http://${incoming.headers.host ?? host}`;
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    const request = new Request(new URL(incoming.url ?? '/', origin), {
      method: incoming.method ?? 'GET',
      headers,
      ...(hasBody ? { body } : {}),
    });
    const response = await handle(request);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(Buffer.from(await response.arrayBuffer()));
  } catch (error) {
    if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' });
    outgoing.end(JSON.stringify({ error: 'server_error', error_description: String(error) }));
  }
}

async function readBody(incoming: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

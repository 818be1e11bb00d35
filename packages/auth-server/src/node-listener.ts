// Serves a fetch-style handler on node:http: each request becomes a web Request (body capped), each
// Response is written back. Used by `AuthorizationServer.listen`.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The largest request body read; OAuth requests are small. */
const MAX_BODY_BYTES = 64 * 1024;

/** A listening node:http server. */
export interface NodeListener {
  port: number;
  close(): Promise<void>;
}

/** Listens on `host:port` (0: any free port) and serves `handle`; a handler that throws answers 500. */
export async function listenNode(
  handle: (request: Request) => Promise<Response>,
  options: { port: number; host: string },
): Promise<NodeListener> {
  const server = createServer((incoming, outgoing) => {
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

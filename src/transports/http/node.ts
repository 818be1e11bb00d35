// The Node adapter (`mcpwire/node`): a web-standard handler on node:http, through @hono/node-server.
// Thin on purpose: every MCP rule lives in the handler; this file only moves bytes and sockets.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';

/** A fetch-style handler; `close`, when present, is called when the server is closed. */
export interface FetchHandler {
  (request: Request): Response | Promise<Response>;
  close?(): Promise<void>;
}

/**
 * A node:http request listener serving `handler`. Node's request becomes a web Request whose
 * `signal` aborts when the client disconnects; the Response body is streamed back and cancelled
 * when the socket closes. Global `Request`/`Response` are left alone.
 */
export function createNodeListener(
  handler: FetchHandler,
): (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void> {
  return getRequestListener((request) => handler(request), { overrideGlobalObjects: false });
}

/** Where `serveHttp` listens. */
export interface ServeHttpOptions {
  /** The TCP port; 0 picks a free one (read it from `url`). */
  port: number;
  /** The interface; default 127.0.0.1 (HTTP-3: local servers bind to loopback). */
  host?: string;
  /** The endpoint path, for `url` only; default `/mcp`. */
  path?: string;
}

/** A listening server. */
export interface HttpServerHandle {
  /** The endpoint URL, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  readonly server: Server;
  /** Stops listening, ends open connections (SSE streams included), then closes the handler. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Serves `handler` on node:http and resolves once listening; rejects if the port cannot be bound. */
export async function serveHttp(handler: FetchHandler, options: ServeHttpOptions): Promise<HttpServerHandle> {
  const host = options.host ?? '127.0.0.1';
  const listener = createNodeListener(handler);
  const server = createServer((incoming, outgoing) => void listener(incoming, outgoing));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await handler.close?.();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    })();
    return closing;
  };
  return {
    url: `http://${hostPart}:${port}${options.path ?? '/mcp'}`,
    server,
    close,
    [Symbol.asyncDispose]: close,
  };
}

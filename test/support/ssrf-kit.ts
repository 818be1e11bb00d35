// For the SSRF tests: a victim listener on 127.0.0.1 that counts every connection made to it (an
// internal service a hostile server wants the client to reach), a hostile MCP server whose 401 and
// protected resource metadata name a URL of the test's choosing, and a fetch that routes every
// request to the victim (the network a hostile URL would lead to: 100.64.0.0/10 to a cloud metadata
// service, `localhost.` to this machine).

import { once } from 'node:events';
import { createServer as createHttpServer, type ServerResponse } from 'node:http';
import { createServer, type AddressInfo, type Socket } from 'node:net';

/** A listener that counts connections and answers each request line with a small JSON body. */
export interface Victim extends AsyncDisposable {
  port: number;
  readonly connections: number;
}

/** Starts the victim on 127.0.0.1. */
export async function startVictim(): Promise<Victim> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () =>
      socket.end(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n{"secret":"yes!"}',
      ),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    [Symbol.asyncDispose]: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * A fetch that sends every request whose origin is not `keep` to the victim (same path), over a
 * real socket: what the network would do with a URL that leads there.
 */
export function routeTo(victim: Victim, keep: string) {
  return (input: Request | URL | string, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin === keep) return fetch(request);
    return fetch(new Request(`http://127.0.0.1:${victim.port}${url.pathname}`, request));
  };
}

/** A hostile MCP server on 127.0.0.1: 401 to every POST /mcp, metadata naming `authorizationServer`. */
export interface HostileServer extends AsyncDisposable {
  origin: string;
  url: string;
  /** Resolves when a client hangs up on the endless metadata body (with `endlessMetadata`). */
  abandoned: Promise<void>;
}

/**
 * Starts the server. With `endlessMetadata`, the protected resource metadata is a body that never
 * ends (16 KiB of JSON whitespace every 10 ms until the client hangs up).
 */
export async function startHostileServer(
  authorizationServer: string,
  options: { endlessMetadata?: boolean } = {},
): Promise<HostileServer> {
  let onAbandoned = (): void => {};
  const abandoned = new Promise<void>((resolve) => (onAbandoned = resolve));
  let origin = '';
  const server = createHttpServer((request, response) => {
    const path = new URL(request.url ?? '/', origin).pathname;
    if (path === '/mcp') {
      request.resume();
      return void response
        .writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
    }
    if (path === '/.well-known/oauth-protected-resource/mcp') {
      if (options.endlessMetadata === true) return void drip(response, onAbandoned);
      return void response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ resource: `${origin}/mcp`, authorization_servers: [authorizationServer] }));
    }
    response.writeHead(404).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/mcp`,
    abandoned,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Writes `{` and then whitespace forever, until the client closes the connection. */
export function drip(response: ServerResponse, onAbandoned: () => void): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write('{');
  const chunk = ' '.repeat(16 * 1024);
  const timer = setInterval(() => response.write(chunk), 10);
  response.on('close', () => {
    clearInterval(timer);
    onAbandoned();
  });
}

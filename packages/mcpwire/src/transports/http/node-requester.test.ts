// The Streamable HTTP client on Node without the global fetch (issue 26): its requests ride a
// keep-alive pool of node:http sockets, sequential calls share one socket, and closing the client
// closes every socket it opened. A real mcpwire server on 127.0.0.1 counts the connections.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { after, describe, it } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { Client } from '../../client/index.ts';
import type { Server } from '../../server/index.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';
import { createHttpHandler } from './handler.ts';
import { createNodeListener, serveHttp, type HttpServerHandle } from './node.ts';

const CLIENT_INFO = { name: 'pool-test', version: '1.0.0' };
const CALLS = 20;

/** A fixture server on 127.0.0.1 whose sockets are counted; idle keep-alive sockets are kept long. */
async function countedServer(server: Server = createFixtureServer()): Promise<{
  handle: HttpServerHandle;
  opened: () => number;
  open: Set<Socket>;
}> {
  const handle = await serveHttp(createHttpHandler(server), { port: 0 });
  // Asks clients to keep idle sockets for minutes (Keep-Alive: timeout=600): only the client's own
  // close can end them within the test.
  handle.server.keepAliveTimeout = 600_000;
  const open = new Set<Socket>();
  let opened = 0;
  handle.server.on('connection', (socket: Socket) => {
    opened++;
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return { handle, opened: () => opened, open };
}

async function connect(url: string, era: 'handshake' | 'stateless'): Promise<Client> {
  const client = new Client(CLIENT_INFO, { era, eraCache: false, onError: () => {} });
  await client.connect(new StreamableHttpClientTransport(url, { onError: () => {} }));
  return client;
}

async function callEcho(client: Client, text: string): Promise<void> {
  const result = await client.callTool({ name: 'echo', arguments: { message: text } });
  assert.deepEqual(result.content, [{ type: 'text', text }]);
}

describe('the Streamable HTTP client on Node', { timeout: 60_000 }, () => {
  it('connects and calls a tool with the global fetch gone (both eras)', async () => {
    const served = await countedServer();
    after(() => served.handle.close());
    const saved = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new Error('the global fetch was called'));
    try {
      for (const era of ['handshake', 'stateless'] as const) {
        const client = await connect(served.handle.url, era);
        try {
          await callEcho(client, `hello ${era}`);
        } finally {
          await client.close();
        }
      }
    } finally {
      globalThis.fetch = saved;
    }
  });

  it(`reuses one socket for ${CALLS} sequential calls, and closing the client closes it`, async () => {
    const served = await countedServer();
    after(() => served.handle.close());
    const client = await connect(served.handle.url, 'stateless');
    // Listed first: else the first tools/call lists the tools alongside, two requests at once.
    await client.listTools();
    for (let i = 0; i < CALLS; i++) await callEcho(client, `call ${i}`);
    assert.equal(served.opened(), 1, 'connections the server accepted');
    assert.equal(served.open.size, 1);
    const closing = [...served.open].map((socket) => once(socket, 'close'));
    await client.close();
    // Without the close, the idle socket would stay for the server's 600 s keep-alive.
    await Promise.all(closing);
    assert.equal(served.open.size, 0);
  });

  it('closing a handshake-era client closes its sockets: the GET stream, the calls, the DELETE', async () => {
    const served = await countedServer();
    after(() => served.handle.close());
    const client = await connect(served.handle.url, 'handshake');
    for (let i = 0; i < CALLS; i++) await callEcho(client, `call ${i}`);
    assert.ok(served.open.size >= 1);
    await client.close();
    await Promise.all([...served.open].map((socket) => once(socket, 'close')));
    assert.equal(served.open.size, 0);
  });

  it('an aborted call closes its socket (the server sees the cancellation), and the next call opens another', async () => {
    const server = createFixtureServer();
    let cancelled!: () => void;
    const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
    server.tool(
      { name: 'hold', description: 'Reports progress, then waits to be cancelled.' },
      async (_a, ctx) => {
        await ctx.sendProgress(1);
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        cancelled();
        return 'unreachable';
      },
    );
    const served = await countedServer(server);
    after(() => served.handle.close());
    const client = await connect(served.handle.url, 'stateless');
    try {
      await client.listTools();
      const controller = new AbortController();
      const held = client.callTool(
        { name: 'hold' },
        { signal: controller.signal, onProgress: () => controller.abort() },
      );
      await assert.rejects(held, { name: 'RequestCancelledError' });
      await wasCancelled;
      // The call's socket closes: nothing else was open (the calls before it ran one at a time).
      await Promise.all([...served.open].map((socket) => once(socket, 'close')));
      assert.equal(served.open.size, 0);
      await callEcho(client, 'after the abort');
      assert.equal(served.opened(), 2, 'the aborted call took its socket with it');
    } finally {
      await client.close();
    }
  });

  it('sends requestInit and transport headers on the pool, read at every request (a rotated token)', async () => {
    const served = await countedServer();
    after(() => served.handle.close());
    const seen: { authorization?: string; init?: string }[] = [];
    served.handle.server.on('request', (request: { headers: Record<string, string | undefined> }) => {
      const { authorization, 'x-from-init': init } = request.headers;
      seen.push({
        ...(authorization === undefined ? {} : { authorization }),
        ...(init === undefined ? {} : { init }),
      });
    });
    const headers = new Headers({ Authorization: 'Bearer one' });
    const client = new Client(CLIENT_INFO, { era: 'stateless', eraCache: false, onError: () => {} });
    const saved = globalThis.fetch;
    globalThis.fetch = () => Promise.reject(new Error('the global fetch was called'));
    try {
      await client.connect(
        new StreamableHttpClientTransport(served.handle.url, {
          headers,
          requestInit: { headers: { 'X-From-Init': 'i' } },
          onError: () => {},
        }),
      );
      await client.listTools();
      headers.set('Authorization', 'Bearer two');
      await callEcho(client, 'rotated');
    } finally {
      globalThis.fetch = saved;
      await client.close();
    }
    assert.deepEqual(seen.at(0), { authorization: 'Bearer one', init: 'i' });
    assert.deepEqual(seen.at(-1), { authorization: 'Bearer two', init: 'i' });
  });

  it('https: TLS through the pool, in a child process that trusts a test-only certificate for 127.0.0.1', async () => {
    const fixtures = new URL('../../../test/fixtures/', import.meta.url);
    const cert = new URL('tls/localhost-cert.pem', fixtures);
    const server = createHttpsServer(
      { cert: readFileSync(cert), key: readFileSync(new URL('tls/localhost-key.pem', fixtures)) },
      createNodeListener(createHttpHandler(createFixtureServer())),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    after(() => {
      server.closeAllConnections();
      server.close();
    });
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const client = new URL('http/tls-client.ts', fixtures);
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        [client.pathname, url, 'over TLS'],
        { env: { ...process.env, NODE_EXTRA_CA_CERTS: cert.pathname } },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      ),
    );
    assert.deepEqual(JSON.parse(stdout), [{ type: 'text', text: 'over TLS' }]);
  });
});

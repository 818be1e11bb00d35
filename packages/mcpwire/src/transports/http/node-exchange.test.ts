// The Node adapter's direct path (no web Request/Response) over real sockets on 127.0.0.1: body
// limits with the connection closed after a refused body, absolute-form targets,
// a client that leaves mid-body, authentication, chained handlers (synchronous ones too), and plain
// fetch handlers (through Hono).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { chainHandlers, type ChainableHandler, viewOfRequest } from './exchange.ts';
import { createHttpHandler } from './handler.ts';
import { createLegacySseHandler } from './legacy-sse-server.ts';
import { serveHttp } from './node.ts';

const QUIET = { keepAliveMs: 0, onError: () => {} };
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
const DISCOVER = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'node-exchange', version: '1' },
    },
  },
});
const DISCOVER_HEADERS = {
  ...JSON_HEADERS,
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': 'server/discover',
};

/** Sends raw bytes on a fresh connection and reads until the server closes it or `until` matches. */
async function rawExchange(port: number, bytes: string, until?: RegExp): Promise<string> {
  const socket = connect({ host: '127.0.0.1', port });
  await once(socket, 'connect');
  let text = '';
  socket.setEncoding('utf8');
  const ended = new Promise<void>((resolve) => {
    socket.on('data', (chunk: string) => {
      text += chunk;
      if (until?.test(text)) resolve();
    });
    socket.on('close', () => resolve());
  });
  socket.write(bytes);
  await ended;
  socket.destroy();
  return text;
}

test('a body over the limit is 413 and its connection is closed; a declared one is refused unread', async () => {
  const handler = createHttpHandler(createFixtureServer(), { ...QUIET, maxBodyBytes: 1024 });
  await using handle = await serveHttp(handler, { port: 0 });
  const { port } = new URL(handle.url);
  const declared = await rawExchange(
    Number(port),
    'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{',
  );
  assert.match(declared, /^HTTP\/1\.1 413 /);
  assert.match(declared, /connection: close/i);
  const chunk = `${'x'.repeat(600).length.toString(16)}\r\n${'x'.repeat(600)}\r\n`;
  const streamed = await rawExchange(
    Number(port),
    'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Transfer-Encoding: chunked\r\n\r\n${chunk}${chunk}${chunk}`,
  );
  assert.match(streamed, /^HTTP\/1\.1 413 /);
  assert.match(streamed, /"code":-32000/);
  // The server kept serving.
  const after = await fetch(handle.url, { method: 'POST', headers: DISCOVER_HEADERS, body: DISCOVER });
  assert.equal(after.status, 200);
});

test('a client that leaves mid-body costs nothing: the server keeps serving', async () => {
  let failures = 0;
  const handler = createHttpHandler(createFixtureServer(), { ...QUIET, onError: () => failures++ });
  await using handle = await serveHttp(handler, { port: 0 });
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(handle.url).port) });
  await once(socket, 'connect');
  socket.write(
    'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc"',
  );
  await new Promise((resolve) => setTimeout(resolve, 20));
  socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(failures, 1, 'the unfinished body is reported to onError, not thrown');
  const after = await fetch(handle.url, { method: 'POST', headers: DISCOVER_HEADERS, body: DISCOVER });
  assert.equal(after.status, 200);
  assert.equal(((await after.json()) as { id: number }).id, 1);
});

test('absolute-form targets route by path; header names are case-insensitive', async () => {
  const handler = createHttpHandler(createFixtureServer(), QUIET);
  await using handle = await serveHttp(handler, { port: 0 });
  const port = Number(new URL(handle.url).port);
  const absolute = await rawExchange(
    port,
    `POST http://127.0.0.1:${port}/mcp?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      'Content-Type: application/json\r\nAccept: application/json\r\nAccept: text/event-stream\r\n' +
      `MCP-Protocol-Version: 2026-07-28\r\nMCP-METHOD: server/discover\r\nContent-Length: ${Buffer.byteLength(DISCOVER)}\r\n` +
      `Connection: close\r\n\r\n${DISCOVER}`,
  );
  assert.match(absolute, /^HTTP\/1\.1 200 /);
  assert.match(absolute, /"supportedVersions":\["2026-07-28"\]/);
  const elsewhere = await fetch(new URL('/other', handle.url), { method: 'POST', body: '{}' });
  assert.equal(elsewhere.status, 404);
});

test('chained handlers: the first that answers serves; a path neither knows is 404', async () => {
  const server = createFixtureServer();
  const chained = chainHandlers(createLegacySseHandler(server), createHttpHandler(server, QUIET));
  await using handle = await serveHttp(chained, { port: 0 });
  const sse = await fetch(new URL('/sse', handle.url), { headers: { Accept: 'text/event-stream' } });
  assert.equal(sse.status, 200);
  assert.equal(sse.headers.get('content-type'), 'text/event-stream');
  const reader = sse.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.match(first, /^event: endpoint\ndata: \/messages\?sessionId=[0-9a-f-]{36}\n\n/);
  await reader.cancel();
  const mcp = await fetch(handle.url, { method: 'POST', headers: DISCOVER_HEADERS, body: DISCOVER });
  assert.equal(mcp.status, 200);
  assert.equal((await fetch(new URL('/nowhere', handle.url))).status, 404);
  // The same chain as a fetch-style handler.
  const viaFetch = await chained(new Request('http://127.0.0.1/nowhere'));
  assert.equal(viaFetch.status, 404);
});

test('an exchange core may answer or decline synchronously: chained, and served over node:http', async () => {
  const declines: ChainableHandler = { exchange: () => undefined };
  const answers: ChainableHandler = {
    exchange: (view) =>
      view.pathname === '/sync' ? { status: 200, headers: { 'X-Sync': 'yes' }, body: 'sync' } : undefined,
  };
  const chained = chainHandlers(declines, answers);
  // Nothing in this chain waits, so it answers in the same turn: no promise to settle.
  const direct = chained.exchange(viewOfRequest(new Request('http://127.0.0.1/sync')));
  assert.ok(!(direct instanceof Promise));
  assert.equal(direct?.body, 'sync');
  await using handle = await serveHttp(chained, { port: 0 });
  const served = await fetch(new URL('/sync', handle.url));
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('x-sync'), 'yes');
  assert.equal(await served.text(), 'sync');
  assert.equal((await fetch(new URL('/other', handle.url))).status, 404);
  assert.equal((await chained(new Request('http://127.0.0.1/other'))).status, 404);
});

test('a plain fetch handler (no exchange core) is served through Hono', async () => {
  const seen: string[] = [];
  const plain = async (request: Request): Promise<Response> => {
    seen.push(`${request.method} ${new URL(request.url).pathname} ${await request.text()}`);
    return new Response('plain', { status: 201, headers: { 'X-Plain': 'yes' } });
  };
  await using handle = await serveHttp(plain, { port: 0 });
  const response = await fetch(handle.url, { method: 'POST', body: 'hello' });
  assert.equal(response.status, 201);
  assert.equal(response.headers.get('x-plain'), 'yes');
  assert.equal(await response.text(), 'plain');
  assert.deepEqual(seen, ['POST /mcp hello']);
});

test('authenticate sees the request over node:http too; a session is bound to its principal', async () => {
  const handler = createHttpHandler(createFixtureServer(), {
    ...QUIET,
    authenticate: (request) => {
      const token = request.headers.get('authorization');
      return Promise.resolve(token?.startsWith('Bearer ') ? { principal: token.slice(7) } : undefined);
    },
  });
  await using handle = await serveHttp(handler, { port: 0 });
  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'auth', version: '1' } },
  });
  const anonymous = await fetch(handle.url, { method: 'POST', headers: JSON_HEADERS, body: initialize });
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');
  const alice = { ...JSON_HEADERS, Authorization: 'Bearer alice' };
  const opened = await fetch(handle.url, { method: 'POST', headers: alice, body: initialize });
  assert.equal(opened.status, 200);
  const session = opened.headers.get('mcp-session-id')!;
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
  const asAlice = await fetch(handle.url, {
    method: 'POST',
    headers: { ...alice, 'Mcp-Session-Id': session },
    body: ping,
  });
  assert.equal(asAlice.status, 200);
  const asBob = await fetch(handle.url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, Authorization: 'Bearer bob', 'Mcp-Session-Id': session },
    body: ping,
  });
  assert.equal(asBob.status, 404, "another principal cannot use alice's session");
});

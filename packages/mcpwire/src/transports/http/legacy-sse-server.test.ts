// The 2024-11-05 HTTP+SSE server handler, in process against the fixture server, plus the
// official v1 SSEClientTransport over a real socket.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mock, test } from 'node:test';
import { getRequestListener } from '@hono/node-server';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import type { JsonObject } from '../../jsonrpc/message.ts';
import {
  createLegacySseHandler,
  type LegacySseHandler,
  type LegacySseHandlerOptions,
} from './legacy-sse-server.ts';
import { LOOPBACK_HOSTNAMES } from './security.ts';

const BASE = 'http://localhost';
const CLIENT_INFO = { name: 'legacy-sse-test', version: '1.0.0' };

interface SseBlock {
  event: string | undefined;
  data: string;
  comment: string | undefined;
}

/** Reads an SSE body one event (or comment) at a time. */
class EventReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = '';

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.getReader();
  }

  /** The next block, or undefined once the stream has ended. */
  async next(): Promise<SseBlock | undefined> {
    for (;;) {
      const end = this.#buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        return parseBlock(block);
      }
      const { done, value } = await this.#reader.read();
      if (done) return undefined;
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  /** The next `message` event's JSON. */
  async nextMessage(): Promise<JsonObject> {
    const block = await this.next();
    assert.equal(block?.event, 'message', `expected a message event, got ${JSON.stringify(block)}`);
    return JSON.parse(block.data) as JsonObject;
  }

  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

function parseBlock(block: string): SseBlock {
  let event: string | undefined;
  let comment: string | undefined;
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comment = line.slice(1).trim();
    else if (line.startsWith('event: ')) event = line.slice('event: '.length);
    else if (line.startsWith('data: ')) data.push(line.slice('data: '.length));
  }
  return { event, data: data.join('\n'), comment };
}

/** One open session: its stream, its POST endpoint, and disposal that closes both ends. */
async function openSession(handler: LegacySseHandler, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  // Kept alive with the session: a Request follows its init signal only while it is alive (undici).
  const request = new Request(`${BASE}/sse`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const response = await handler(request);
  assert.equal(response?.status, 200);
  assert.equal(response.headers.get('content-type'), 'text/event-stream');
  assert.ok(response.body);
  const events = new EventReader(response.body);
  const first = await events.next();
  assert.equal(first?.event, 'endpoint');
  const endpoint = new URL(first.data, `${BASE}/sse`);
  return {
    events,
    endpoint,
    sessionId: endpoint.searchParams.get('sessionId') ?? '',
    request,
    abort: () => abort.abort(),
    post: (body: unknown, init: { headers?: Record<string, string> } = {}) =>
      handler(
        new Request(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...init.headers },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
    [Symbol.dispose]: () => abort.abort(),
  };
}

type Session = Awaited<ReturnType<typeof openSession>>;

/** A handler over a fresh fixture server; disposal closes the server (and so every stream). */
function createFixture(options: LegacySseHandlerOptions = {}) {
  const server = createFixtureServer();
  const handler = createLegacySseHandler(server, options);
  return { server, handler, [Symbol.asyncDispose]: () => server.close() };
}

async function initialize(session: Session, capabilities: JsonObject = {}): Promise<JsonObject> {
  const accepted = await session.post({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2024-11-05', capabilities, clientInfo: CLIENT_INFO },
  });
  assert.equal(accepted?.status, 202);
  const response = await session.events.nextMessage();
  assert.equal((await session.post({ jsonrpc: '2.0', method: 'notifications/initialized' }))?.status, 202);
  return response;
}

test('GET opens a stream whose first event is the endpoint, with a fresh random session id each time', async () => {
  await using fixture = createFixture();
  using first = await openSession(fixture.handler);
  using second = await openSession(fixture.handler);
  assert.match(first.endpoint.pathname + first.endpoint.search, /^\/messages\?sessionId=[0-9a-f-]{36}$/);
  assert.notEqual(first.sessionId, second.sessionId);
});

test('initialize is answered 202 and its result arrives as a message event; tools/call works', async () => {
  await using fixture = createFixture();
  using session = await openSession(fixture.handler);
  const init = await initialize(session);
  assert.equal(init.id, 1);
  const result = init.result as JsonObject;
  assert.equal(result.protocolVersion, '2024-11-05');
  assert.equal((result.serverInfo as JsonObject).name, 'mcpwire-fixture');

  const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_simple_text' } };
  assert.equal((await session.post(call))?.status, 202);
  assert.deepEqual(await session.events.nextMessage(), {
    jsonrpc: '2.0',
    id: 2,
    result: { content: [{ type: 'text', text: 'This is a simple text response for testing.' }] },
  });
});

test('a server->client request (sampling) goes out on the stream and its POSTed response completes the call', async () => {
  await using fixture = createFixture();
  using session = await openSession(fixture.handler);
  await initialize(session, { sampling: {} });
  const call = {
    jsonrpc: '2.0',
    id: 'call-1',
    method: 'tools/call',
    params: { name: 'test_sampling', arguments: { prompt: 'Say hi' } },
  };
  assert.equal((await session.post(call))?.status, 202);
  const request = await session.events.nextMessage();
  assert.equal(request.method, 'sampling/createMessage');
  assert.ok(typeof request.id === 'string' || typeof request.id === 'number');
  const answer = {
    jsonrpc: '2.0',
    id: request.id,
    result: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'test-model' },
  };
  assert.equal((await session.post(answer))?.status, 202);
  const response = await session.events.nextMessage();
  assert.equal(response.id, 'call-1');
  assert.deepEqual((response.result as JsonObject).content, [{ type: 'text', text: 'LLM response: hi' }]);
});

test('a POST names an existing session: unknown 404, missing 400', async () => {
  await using fixture = createFixture();
  const post = (query: string) =>
    fixture.handler(
      new Request(`${BASE}/messages${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      }),
    );
  assert.equal((await post('?sessionId=00000000-0000-4000-8000-000000000000'))?.status, 404);
  assert.equal((await post(''))?.status, 400);
  assert.equal((await post('?sessionId='))?.status, 400);
});

test('malformed input is refused on the POST and never reaches the session', async () => {
  await using fixture = createFixture({ maxBodyBytes: 256 });
  using session = await openSession(fixture.handler);

  const notJson = await session.post('{"jsonrpc": "2.0", "id": 1,');
  assert.equal(notJson?.status, 400);
  assert.equal(((await notJson.json()) as { error: { code: number } }).error.code, -32700);

  const badEnvelope = await session.post({ jsonrpc: '1.0', id: 7, method: 'ping' });
  assert.equal(badEnvelope?.status, 400);
  assert.deepEqual(
    ((await badEnvelope.json()) as { id: unknown; error: { code: number } }).error.code,
    -32600,
  );

  const notUtf8 = await fixture.handler(
    new Request(session.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    }),
  );
  assert.equal(notUtf8?.status, 400);

  const wrongType = await session.post('{}', { headers: { 'content-type': 'text/plain' } });
  assert.equal(wrongType?.status, 415);

  // The session is untouched: the next valid request is served normally.
  assert.equal((await initialize(session)).id, 1);
});

test('a body over maxBodyBytes is 413, whether declared by Content-Length or only streamed', async () => {
  await using fixture = createFixture({ maxBodyBytes: 64 });
  using session = await openSession(fixture.handler);
  const big = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/x', params: { pad: 'x'.repeat(100) } });
  assert.equal((await session.post(big))?.status, 413);

  const chunks = [new TextEncoder().encode(big.slice(0, 50)), new TextEncoder().encode(big.slice(50))];
  const streamed = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks.shift();
      if (chunk) controller.enqueue(chunk);
      else controller.close();
    },
  });
  const response = await fixture.handler(
    new Request(session.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: streamed,
      duplex: 'half',
    } as RequestInit),
  );
  assert.equal(response?.status, 413);
  assert.equal(chunks.length, 0);
});

test('a foreign Host or a cross-site Origin is 403; loopback and allowed ones pass, with CORS headers', async () => {
  await using local = createFixture();
  await using fixture = createFixture({
    allowedOrigins: ['https://app.example'],
    allowedHosts: [...LOOPBACK_HOSTNAMES, 'mcp.example.com'],
  });
  const get = (handler: LegacySseHandler, url: string, headers: Record<string, string>) =>
    handler(new Request(url, { headers, signal: AbortSignal.abort() }));
  assert.equal((await get(local.handler, `${BASE}/sse`, { host: 'evil.example' }))?.status, 403);
  assert.equal((await get(local.handler, 'http://mcp.example.com/sse', {}))?.status, 403);
  assert.equal((await get(local.handler, `${BASE}/sse`, { host: 'localhost.evil.example' }))?.status, 403);
  assert.equal((await get(local.handler, `${BASE}/sse`, { origin: 'https://app.example' }))?.status, 403);
  assert.equal((await get(fixture.handler, `${BASE}/sse`, { origin: 'https://evil.example' }))?.status, 403);
  assert.equal((await get(fixture.handler, `${BASE}/sse`, { origin: 'null' }))?.status, 403);

  assert.equal((await get(local.handler, `${BASE}/sse`, {}))?.status, 200);
  assert.equal((await get(local.handler, 'http://127.0.0.1:8080/sse', {}))?.status, 200);
  assert.equal((await get(local.handler, 'http://[::1]:8080/sse', {}))?.status, 200);
  assert.equal((await get(local.handler, `${BASE}/sse`, { origin: 'http://127.0.0.1:5173' }))?.status, 200);
  assert.equal((await get(fixture.handler, 'http://mcp.example.com:8443/sse', {}))?.status, 200);
  const allowed = await get(fixture.handler, `${BASE}/sse`, { origin: 'https://app.example' });
  assert.equal(allowed?.status, 200);
  assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example');

  const preflight = await fixture.handler(
    new Request(`${BASE}/messages?sessionId=x`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-headers': 'content-type' },
    }),
  );
  assert.equal(preflight?.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-headers'), 'content-type');

  using session = await openSession(fixture.handler);
  const post = await session.post(
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { headers: { origin: 'https://evil.example' } },
  );
  assert.equal(post?.status, 403);
});

test('closing the stream releases the session: a later POST is 404', async (t) => {
  await using fixture = createFixture();
  const ping = { jsonrpc: '2.0', id: 9, method: 'ping' };
  // "no session": the id was forgotten, not merely found closed.
  const assertReleased = async (response: Response | undefined) => {
    assert.equal(response?.status, 404);
    assert.match(await response.text(), /no session/);
  };

  await t.test('the client disconnects (the request signal aborts)', async () => {
    const session = await openSession(fixture.handler);
    session.abort();
    assert.equal(await session.events.next(), undefined);
    await assertReleased(await session.post(ping));
  });

  await t.test('the reader cancels the stream', async () => {
    using session = await openSession(fixture.handler);
    await session.events.cancel();
    await assertReleased(await session.post(ping));
  });

  await t.test('the server closes: the stream ends', async () => {
    using session = await openSession(fixture.handler);
    await initialize(session);
    await fixture.server.close();
    assert.equal(await session.events.next(), undefined);
    await assertReleased(await session.post(ping));
  });
});

test('keep-alive comments go out on an idle stream every keepAliveMs; the timer is cleared on close', async () => {
  mock.timers.enable({ apis: ['setInterval'] });
  // Spies over the mocked timers: which interval the session started, and whether it was cleared.
  const started = mock.method(globalThis, 'setInterval');
  const cleared = mock.method(globalThis, 'clearInterval');
  try {
    await using fixture = createFixture({ keepAliveMs: 1000 });
    const session = await openSession(fixture.handler);
    await initialize(session);
    // The stream was busy during the first interval: no comment yet, the next event is the pong.
    mock.timers.tick(1000);
    assert.equal((await session.post({ jsonrpc: '2.0', id: 2, method: 'ping' }))?.status, 202);
    assert.deepEqual(await session.events.nextMessage(), { jsonrpc: '2.0', id: 2, result: {} });
    mock.timers.tick(1000);
    mock.timers.tick(1000);
    assert.deepEqual(await session.events.next(), { event: undefined, data: '', comment: 'keep-alive' });
    mock.timers.tick(1000);
    assert.equal((await session.events.next())?.comment, 'keep-alive');

    const keepAlive = started.mock.calls.find((call) => call.arguments[1] === 1000)?.result;
    assert.ok(keepAlive !== undefined);
    assert.ok(!cleared.mock.calls.some((call) => call.arguments[0] === keepAlive));
    session.abort();
    assert.ok(cleared.mock.calls.some((call) => call.arguments[0] === keepAlive));
    assert.equal(await session.events.next(), undefined);
  } finally {
    mock.restoreAll();
    mock.timers.reset();
  }
});

test('close() ends every open session stream', async () => {
  await using fixture = createFixture();
  using first = await openSession(fixture.handler);
  using second = await openSession(fixture.handler);
  await fixture.handler.close();
  assert.equal(await first.events.next(), undefined);
  assert.equal(await second.events.next(), undefined);
  assert.equal((await first.post({ jsonrpc: '2.0', id: 1, method: 'ping' }))?.status, 404);
});

test('other paths resolve undefined; wrong methods are 405; custom paths are honoured', async () => {
  await using fixture = createFixture({ ssePath: '/handshake', messagesPath: '/handshake' });
  assert.equal(await fixture.handler(new Request(`${BASE}/mcp`, { method: 'POST' })), undefined);
  assert.equal(await fixture.handler(new Request(`${BASE}/sse`)), undefined);
  const put = await fixture.handler(new Request(`${BASE}/handshake`, { method: 'PUT' }));
  assert.equal(put?.status, 405);
  assert.equal(put.headers.get('allow'), 'GET, POST');

  const abort = new AbortController();
  const request = new Request(`${BASE}/handshake`, { signal: abort.signal });
  const response = await fixture.handler(request);
  assert.ok(response?.body);
  const first = await new EventReader(response.body).next();
  assert.match(first?.data ?? '', /^\/handshake\?sessionId=[0-9a-f-]{36}$/);
  abort.abort();
  assert.equal(request.signal.aborted, true);

  assert.throws(() => createLegacySseHandler(fixture.server, { ssePath: 'sse' }), RangeError);
  assert.throws(() => createLegacySseHandler(fixture.server, { messagesPath: '/m?x=1' }), RangeError);
  assert.throws(() => createLegacySseHandler(fixture.server, { maxBodyBytes: 0 }), RangeError);
  assert.throws(() => createLegacySseHandler(fixture.server, { keepAliveMs: -1 }), RangeError);
});

test('the official v1 SSEClientTransport connects over a real socket, lists tools and calls one', async () => {
  await using fixture = createFixture();
  const fetch = async (request: Request) =>
    (await fixture.handler(request)) ?? new Response('Not Found', { status: 404 });
  const listener = getRequestListener(fetch);
  const httpServer = createServer((incoming, outgoing) => void listener(incoming, outgoing));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  await using _http = {
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        httpServer.closeAllConnections();
        httpServer.close(() => resolve());
      }),
  };
  const { port } = httpServer.address() as AddressInfo;

  const client = new OfficialClient({ name: 'v1-sse-client', version: '1.0.0' });
  await client.connect(new SSEClientTransport(new URL(`http://127.0.0.1:${port}/sse`)));
  await using _client = { [Symbol.asyncDispose]: () => client.close() };
  const { tools } = await client.listTools();
  assert.ok(tools.some((tool) => tool.name === 'test_simple_text'));
  const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
  assert.deepEqual(result.content, [{ type: 'text', text: 'This is a simple text response for testing.' }]);
});

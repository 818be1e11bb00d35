// The handshake era (2025-03-26 .. 2025-11-25) through the HTTP handler, in-process: sessions, the
// version header, JSON vs SSE answers, the GET stream, server-to-client requests, resumability.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { ENDPOINT, post, SseReader, type Loose } from '../../../test/support/http-kit.ts';
import { createHttpHandler, type HttpHandler } from './handler.ts';

type Body = Record<string, Loose>;

/** Opens a session at `version` (initialize + initialized); returns its id and a request maker. */
async function open(handler: HttpHandler, version = '2025-11-25', capabilities: Body = {}) {
  const response = await handler(
    post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities, clientInfo: { name: 'test', version: '1' } },
    }),
  );
  assert.equal(response.status, 200);
  const sessionId = response.headers.get('mcp-session-id');
  assert.ok(sessionId);
  const init = (await response.json()) as Body;
  assert.equal(init.result.protocolVersion, version);
  const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': version };
  const send = (body: unknown, extra: Record<string, string> = {}) =>
    handler(post(body, { ...headers, ...extra }));
  assert.equal((await send({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  const get = (extra: Record<string, string> = {}) =>
    handler(new Request(ENDPOINT, { headers: { Accept: 'text/event-stream', ...headers, ...extra } }));
  return { sessionId, headers, send, get };
}

function setup(options: Parameters<typeof createHttpHandler>[1] = {}) {
  const server = createFixtureServer();
  return { server, handler: createHttpHandler(server, { keepAliveMs: 0, ...options }) };
}

const call = (id: number, name: string, args: Body = {}, meta?: Body) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: meta ? { name, arguments: args, _meta: meta } : { name, arguments: args },
});

describe('handshake era: sessions', () => {
  test('initialize opens a session with a random id; later requests need it', async () => {
    const { handler } = setup();
    const a = await open(handler);
    const b = await open(handler);
    assert.match(a.sessionId, /^[0-9a-f-]{36}$/);
    assert.notEqual(a.sessionId, b.sessionId);
    const listed = await a.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('content-type'), 'application/json');
    assert.ok(((await listed.json()) as Body).result.tools.length > 0);
    const without = await handler(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    assert.equal(without.status, 400);
    const unknown = await handler(
      post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'Mcp-Session-Id': 'nope' }),
    );
    assert.equal(unknown.status, 404);
  });

  test('DELETE ends the session: 204, then 404 for its id', async () => {
    const { handler } = setup();
    const session = await open(handler);
    const deleted = await handler(new Request(ENDPOINT, { method: 'DELETE', headers: session.headers }));
    assert.equal(deleted.status, 204);
    assert.equal((await session.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).status, 404);
    assert.equal(
      (await handler(new Request(ENDPOINT, { method: 'DELETE', headers: session.headers }))).status,
      404,
    );
  });

  test('MCP-Protocol-Version: unsupported or different from the negotiated one is 400; absent is fine', async () => {
    const { handler } = setup();
    for (const version of ['invalid-protocol-version', '2000-01-01', '2099-01-01']) {
      const before = await handler(
        post(
          { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
          { 'MCP-Protocol-Version': version },
        ),
      );
      assert.equal(before.status, 400, `${version} before initialize`);
    }
    const session = await open(handler, '2025-06-18');
    for (const version of ['invalid-protocol-version', '2000-01-01', '2099-01-01', '2025-11-25']) {
      const after = await session.send(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
        { 'MCP-Protocol-Version': version },
      );
      assert.equal(after.status, 400, `${version} after initialize`);
    }
    const bare = await handler(
      post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'Mcp-Session-Id': session.sessionId }),
    );
    assert.equal(bare.status, 200, 'no header: assume 2025-03-26 semantics, still served (HTTP-34)');
  });

  test('initialize sent with a stateless-era header is a header mismatch', async () => {
    const { handler } = setup();
    const response = await handler(
      post(
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'x', version: '1' },
          },
        },
        { 'MCP-Protocol-Version': '2026-07-28' },
      ),
    );
    assert.equal(response.status, 400);
    assert.deepEqual([((await response.json()) as Body).error.code], [-32020]);
  });

  test('notifications and responses are accepted with 202', async () => {
    const { handler } = setup();
    const session = await open(handler);
    const note = await session.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    assert.equal(note.status, 202);
    const stray = await session.send({ jsonrpc: '2.0', id: 99, result: {} });
    assert.equal(stray.status, 202);
  });

  test('sessions are bound to the principal that created them (SEC-7)', async () => {
    const server = createFixtureServer();
    const handler = createHttpHandler(server, {
      keepAliveMs: 0,
      authenticate: (request) => {
        const token = request.headers.get('authorization');
        return Promise.resolve(token === null ? undefined : { principal: token.replace(/^Bearer /, '') });
      },
    });
    const anonymous = await handler(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');
    const init = await handler(
      post(
        {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'a', version: '1' },
          },
        },
        { Authorization: 'Bearer alice' },
      ),
    );
    const sessionId = init.headers.get('mcp-session-id')!;
    const asBob = await handler(
      post(
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { 'Mcp-Session-Id': sessionId, Authorization: 'Bearer bob' },
      ),
    );
    assert.equal(asBob.status, 404);
    const asAlice = await handler(
      post(
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { 'Mcp-Session-Id': sessionId, Authorization: 'Bearer alice' },
      ),
    );
    assert.equal(asAlice.status, 200);
  });
});

describe('handshake era: answers and streams', () => {
  test('messages before the response make an SSE stream: priming event first, ids on every event', async () => {
    const { handler } = setup();
    const session = await open(handler);
    const response = await session.send(call(5, 'test_tool_with_progress', {}, { progressToken: 'tok' }));
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const frames = await new SseReader(response).rest();
    assert.deepEqual([frames[0]?.data, frames[0]?.retry, typeof frames[0]?.id], ['', 1000, 'string']);
    const messages = frames.slice(1).map((frame) => JSON.parse(frame.data) as Body);
    assert.deepEqual(
      messages.map((m) => m.method ?? `response ${m.id}`),
      ['notifications/progress', 'notifications/progress', 'notifications/progress', 'response 5'],
    );
    const ids = frames.map((frame) => frame.id);
    assert.equal(new Set(ids).size, ids.length, 'event ids are unique');
  });

  test('2025-03-26: no priming event, and batches are served (one JSON array back)', async () => {
    const { handler } = setup();
    const session = await open(handler, '2025-03-26');
    const batch = await session.send([
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', id: 2, method: 'prompts/list' },
    ]);
    assert.equal(batch.status, 200);
    const answers = (await batch.json()) as Body[];
    assert.deepEqual(answers.map((answer) => answer.id).sort(), [1, 2]);
    const streamed = await session.send(call(3, 'test_tool_with_progress', {}, { progressToken: 1 }));
    const first = await new SseReader(streamed).next();
    assert.notEqual(first?.data, '', 'the first event is a message, not a priming event');
  });

  test('batches are refused unless 2025-03-26 was negotiated', async () => {
    const { handler } = setup();
    const session = await open(handler, '2025-11-25');
    const response = await session.send([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]);
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as Body).error.code, -32600);
  });

  test('a server-to-client request goes on the POST stream; its answer comes back as a POST (202)', async () => {
    const { handler } = setup();
    const session = await open(handler, '2025-11-25', { elicitation: {} });
    const response = await session.send(call(8, 'test_elicitation', { message: 'Who?' }));
    const reader = new SseReader(response);
    const ask = await reader.nextMessage();
    assert.equal(ask?.method, 'elicitation/create');
    const answer = await session.send({
      jsonrpc: '2.0',
      id: ask?.id,
      result: { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } },
    });
    assert.equal(answer.status, 202);
    const result = await reader.nextMessage();
    assert.equal(result?.id, 8);
    assert.match((result?.result as Body).content[0].text, /ada/);
    assert.equal(await reader.next(), undefined, 'the stream ends after the response');
  });

  test('GET opens the standalone stream (one per session: 409) for list_changed', async () => {
    const { handler } = setup();
    const session = await open(handler);
    const stream = await session.get();
    assert.equal(stream.headers.get('content-type'), 'text/event-stream');
    const reader = new SseReader(stream);
    assert.equal((await reader.next())?.data, '', 'priming event');
    assert.equal((await session.get()).status, 409);
    await session.send(call(1, 'test_trigger_tool_change'));
    assert.equal((await reader.nextMessage())?.method, 'notifications/tools/list_changed');
    const notSse = await handler(
      new Request(ENDPOINT, { headers: { ...session.headers, Accept: 'application/json' } }),
    );
    assert.equal(notSse.status, 406);
    await reader.cancel();
    await new Promise((resolve) => setImmediate(resolve)); // the handler hears the body cancelled
    const again = await session.get();
    assert.equal(again.status, 200, 'after the client left, a new GET may attach');
    await again.body?.cancel();
  });
});

describe('handshake era: resumability (Last-Event-ID)', () => {
  test('a GET stream missed while disconnected is replayed on reconnect', async () => {
    const { handler } = setup();
    const session = await open(handler);
    const first = new SseReader(await session.get());
    const priming = await first.next();
    await first.cancel();
    await new Promise((resolve) => setImmediate(resolve)); // the handler hears the body cancelled
    await session.send(call(1, 'test_trigger_tool_change'));
    // list_changed is coalesced on a 0 ms timer scheduled before this one: it has been sent after it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const resumed = new SseReader(await session.get({ 'Last-Event-ID': priming!.id! }));
    const replayed = await resumed.next();
    assert.equal(JSON.parse(replayed!.data).method, 'notifications/tools/list_changed');
    await resumed.cancel();
  });

  test('a POST stream cut short is resumed by GET: the rest of it, then the response, then the end', async () => {
    const { handler } = setup();
    const session = await open(handler);
    const response = await session.send(call(4, 'test_tool_with_progress', {}, { progressToken: 'r' }));
    const reader = new SseReader(response);
    await reader.next(); // priming
    const progress = await reader.next();
    assert.equal(JSON.parse(progress!.data).params.progress, 0);
    await reader.cancel(); // a disconnect, not a cancellation (HTTP-15): the tool runs on
    const resumed = await session.get({ 'Last-Event-ID': progress!.id! });
    const rest = await new SseReader(resumed).rest();
    const messages = rest.map((frame) => JSON.parse(frame.data) as Body);
    assert.deepEqual(
      messages.map((m) => m.params?.progress ?? `response ${m.id}`),
      [50, 100, 'response 4'],
    );
  });

  test('with closeSseStreamsAfterMs the server closes the POST connection early; the client polls for the result', async (t) => {
    const server = createFixtureServer();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.tool(
      { name: 'slow', description: 'Waits for the test.', inputSchema: { type: 'object' } },
      async () => {
        await released;
        return 'done slowly';
      },
    );
    const handler = createHttpHandler(server, { keepAliveMs: 0, closeSseStreamsAfterMs: 50 });
    const session = await open(handler);
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const pending = session.send(call(6, 'slow'));
    let isAnswered = false;
    void pending.then(() => (isAnswered = true));
    // Let the POST reach the session (setImmediate is not mocked) and its 50 ms pass, until it answers.
    while (!isAnswered) {
      await new Promise((resolve) => setImmediate(resolve));
      t.mock.timers.tick(50);
    }
    const frames = await new SseReader(await pending).rest();
    assert.deepEqual(
      frames.map((frame) => [frame.data, frame.retry]),
      [['', 1000]],
      'priming event only, then closed',
    );
    t.mock.timers.reset();
    release(); // the result goes on the still-live stream; the poll below attaches to it
    const polled = await new SseReader(await session.get({ 'Last-Event-ID': frames[0]!.id! })).rest();
    assert.equal(polled.length, 1);
    assert.equal(JSON.parse(polled[0]!.data).result.content[0].text, 'done slowly');
  });

  test("another session's event id resumes nothing: a fresh GET stream instead", async () => {
    const { handler } = setup();
    const a = await open(handler);
    const b = await open(handler);
    const aStream = new SseReader(await a.get());
    const aPriming = await aStream.next();
    const bStream = new SseReader(await b.get({ 'Last-Event-ID': aPriming!.id! }));
    const first = await bStream.next();
    assert.equal(first?.data, '');
    assert.notEqual(first?.id, aPriming?.id);
    await Promise.all([aStream.cancel(), bStream.cancel()]);
  });
});

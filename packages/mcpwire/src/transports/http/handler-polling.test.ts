// SSE polling asked for by the server (SEP-1699, HTTP-10) through the HTTP handler, in-process: a
// handler's `ctx.disconnectForPolling()` closes its POST's connection after the priming event, the client
// resumes with GET and Last-Event-ID, and nothing is lost or repeated; older clients never see it.
// And `sseAfterMs`: a POST not answered within it gets a primed, resumable stream of its own.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import {
  ENDPOINT,
  statelessPost,
  post,
  SseReader,
  sseMessages,
  type Loose,
} from '../../../test/support/http-kit.ts';
import { createHttpHandler, type HttpHandler } from './handler.ts';

type Body = Record<string, Loose>;

/** Opens a session at `version`; returns a POST maker (extra headers override) and a GET maker. */
async function open(handler: HttpHandler, version: string) {
  const init = await handler(
    post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    }),
  );
  // With sseAfterMs 0 even initialize is answered on SSE.
  const isStream = init.headers.get('content-type') === 'text/event-stream';
  const answer = (isStream ? (await sseMessages(init))[0] : await init.json()) as Body;
  assert.equal(answer.result.protocolVersion, version);
  const headers = { 'Mcp-Session-Id': init.headers.get('mcp-session-id')!, 'MCP-Protocol-Version': version };
  const send = (body: unknown, extra: Record<string, string> = {}) =>
    handler(post(body, { ...headers, ...extra }));
  assert.equal((await send({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);
  const get = (lastEventId: string) =>
    handler(
      new Request(ENDPOINT, {
        headers: { Accept: 'text/event-stream', 'Last-Event-ID': lastEventId, ...headers },
      }),
    );
  return { send, get };
}

const call = (id: number, name: string, meta?: Body) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(meta ? { _meta: meta } : {}) },
});

/** A server whose `poll_me` reports progress 1, closes its stream, waits for `release`, reports 2, answers. */
function pollingServer() {
  const server = createFixtureServer();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  server.tool(
    { name: 'poll_me', description: 'Closes its SSE stream mid-call.', inputSchema: { type: 'object' } },
    async (_args, ctx) => {
      await ctx.sendProgress(1);
      const isClosed = ctx.disconnectForPolling();
      await released;
      await ctx.sendProgress(2);
      return `closed: ${isClosed}`;
    },
  );
  server.tool(
    {
      name: 'try_close',
      description: 'Reports what disconnectForPolling did.',
      inputSchema: { type: 'object' },
    },
    (_args, ctx) => Promise.resolve(`closed: ${ctx.disconnectForPolling()}`),
  );
  return { handler: createHttpHandler(server, { keepAliveMs: 0 }), release };
}

const textOf = (message: Body): string => message.result.content[0].text;

describe('handshake era: the server closes a request stream (SEP-1699)', () => {
  test('test_reconnection: priming event (id, empty data, retry) only, then the result on GET with Last-Event-ID', async () => {
    const handler = createHttpHandler(createFixtureServer(), { keepAliveMs: 0 });
    const session = await open(handler, '2025-11-25');
    const response = await session.send(call(1, 'test_reconnection'), {
      Accept: 'text/event-stream, application/json',
    });
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const frames = await new SseReader(response).rest();
    assert.equal(frames.length, 1, 'closed before the result');
    const [priming] = frames;
    assert.deepEqual([priming!.data, priming!.retry, typeof priming!.id], ['', 1000, 'string']);
    const resumed = await new SseReader(await session.get(priming!.id!)).rest();
    const messages = resumed.map((frame) => JSON.parse(frame.data) as Body);
    assert.equal(messages.length, 1, 'the result, once, and the stream ends');
    assert.equal(messages[0]!.id, 1);
    assert.match(textOf(messages[0]!), /Reconnection test completed successfully/);
  });

  test('what was sent before the close stays on the POST; the rest arrives on the resumed stream, once each', async () => {
    const { handler, release } = pollingServer();
    const session = await open(handler, '2025-11-25');
    const response = await session.send(call(2, 'poll_me', { progressToken: 'p' }));
    const first = await new SseReader(response).rest();
    assert.deepEqual(
      first.map((frame) => (frame.data === '' ? 'priming' : JSON.parse(frame.data).params.progress)),
      ['priming', 1],
    );
    // The GET attaches to the live stream before the handler goes on.
    const resumed = new SseReader(await session.get(first.at(-1)!.id!));
    release();
    const rest = await resumed.rest();
    const messages = rest.map((frame) => JSON.parse(frame.data) as Body);
    assert.deepEqual(
      messages.map((m) => m.params?.progress ?? textOf(m)),
      [2, 'closed: true'],
    );
    const ids = [...first, ...rest].map((frame) => frame.id);
    assert.equal(new Set(ids).size, ids.length, 'every event id is new');
  });

  test('a client that accepts JSON only gets JSON: nothing to close', async () => {
    const { handler } = pollingServer();
    const session = await open(handler, '2025-11-25');
    const response = await session.send(call(3, 'try_close'), { Accept: 'application/json' });
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(textOf((await response.json()) as Body), 'closed: false', 'JSON-only clients cannot poll');
  });

  for (const version of ['2025-03-26', '2025-06-18']) {
    test(`a ${version} client never gets an early-closed stream`, async () => {
      const { handler, release } = pollingServer();
      const session = await open(handler, version);
      const quick = await session.send(call(4, 'try_close'));
      assert.equal(quick.headers.get('content-type'), 'application/json');
      assert.equal(textOf((await quick.json()) as Body), 'closed: false');
      const streamed = await session.send(call(5, 'poll_me', { progressToken: 'q' }));
      release();
      const frames = await new SseReader(streamed).rest();
      const messages = frames.map((frame) => JSON.parse(frame.data) as Body);
      assert.deepEqual(
        messages.map((m) => m.params?.progress ?? textOf(m)),
        [1, 2, 'closed: false'],
        'no priming event, and the whole exchange on the POST stream',
      );
    });
  }
});

describe('handshake era: sseAfterMs, a slow answer on a resumable stream', () => {
  /** A server whose `held` says nothing until `release`, then answers; the fixture's others answer at once. */
  function heldServer(sseAfterMs: number) {
    const server = createFixtureServer();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.tool({ name: 'held', inputSchema: { type: 'object' } }, async () => {
      await released;
      return 'released';
    });
    return { handler: createHttpHandler(server, { keepAliveMs: 0, sseAfterMs }), release };
  }
  const both = { Accept: 'text/event-stream, application/json' };

  test('a response that comes first is JSON, even when the client accepts SSE', async () => {
    const { handler } = heldServer(600_000);
    const session = await open(handler, '2025-11-25');
    const response = await session.send(call(1, 'test_simple_text'), both);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(((await response.json()) as Body).id, 1);
  });

  test('no response within sseAfterMs: a stream opened with its priming event, the result on it', async () => {
    const { handler, release } = heldServer(1);
    const session = await open(handler, '2025-11-25');
    // The headers come only once the handler has switched: the tool cannot answer before release.
    const response = await session.send(call(2, 'held'), both);
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    release();
    const [priming, ...rest] = await new SseReader(response).rest();
    assert.deepEqual([priming!.data, priming!.retry, typeof priming!.id], ['', 1000, 'string']);
    assert.deepEqual(
      rest.map((frame) => textOf(JSON.parse(frame.data) as Body)),
      ['released'],
    );
  });

  test('sseAfterMs 0: SSE at once; a client that accepts JSON only gets JSON', async () => {
    const { handler } = heldServer(0);
    const session = await open(handler, '2025-11-25');
    const streamed = await session.send(call(3, 'test_simple_text'), both);
    assert.equal(streamed.headers.get('content-type'), 'text/event-stream');
    assert.deepEqual(
      (await sseMessages(streamed)).map((message) => message.id),
      [3],
    );
    const json = await session.send(call(4, 'test_simple_text'), { Accept: 'application/json' });
    assert.equal(json.headers.get('content-type'), 'application/json');
  });
});

describe('stateless era: no polling', () => {
  test('disconnectForPolling does nothing and reports false', async () => {
    const { handler } = pollingServer();
    const response = await handler(statelessPost('tools/call', { name: 'try_close', arguments: {} }));
    assert.equal(response.status, 200);
    assert.equal(textOf((await response.json()) as Body), 'closed: false');
  });
});

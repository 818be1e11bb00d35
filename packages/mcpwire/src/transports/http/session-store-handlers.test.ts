// Any handler serves any session (issue 23): two handlers over two servers of the same definition,
// sharing one session store, serve one handshake-era session between them; caps and idle expiry
// are the store's, so they hold across both.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { ENDPOINT, post, sseMessages, type Loose } from '../../../test/support/http-kit.ts';
import { JsonRoundTripStore } from '../../../test/support/json-session-store.ts';
import { createHttpHandler, type HttpHandler } from './handler.ts';
import type { HttpHandlerOptions } from './options.ts';

type Body = Record<string, Loose>;

/** Two handlers over two fixture servers (each with `log_info`) sharing `store`. */
function pair(store = new JsonRoundTripStore(), options: HttpHandlerOptions = {}) {
  const make = () => {
    const server = createFixtureServer();
    server.tool({ name: 'log_info' }, async (_args, ctx) => {
      await ctx.log('info', 'an info line');
      return 'logged';
    });
    return createHttpHandler(server, { keepAliveMs: 0, sessions: store, ...options });
  };
  return { store, a: make(), b: make() };
}

async function initialize(handler: HttpHandler, headers: Record<string, string> = {}) {
  const response = await handler(
    post(
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'pair', version: '1' },
        },
      },
      headers,
    ),
  );
  assert.equal(response.status, 200);
  const sessionId = response.headers.get('mcp-session-id');
  assert.ok(sessionId);
  return { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' };
}

/** The messages of a POST's answer, JSON or SSE. */
async function messages(response: Response): Promise<Body[]> {
  assert.equal(response.status, 200);
  if (response.headers.get('content-type') === 'application/json') return [(await response.json()) as Body];
  return (await sseMessages(response)) as Body[];
}

const logInfo = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'log_info' } });

describe('sessions as state: any handler serves any session', () => {
  test('a session created on A is served by B (tools/call), and a level set on B applies on A', async () => {
    const { a, b } = pair();
    const headers = await initialize(a);
    assert.equal(
      (await b(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))).status,
      202,
    );
    const echoed = await messages(
      await b(
        post(
          {
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name: 'echo', arguments: { message: 'hi' } },
          },
          headers,
        ),
      ),
    );
    assert.equal(echoed.at(-1)?.result?.content?.[0]?.text, 'hi', JSON.stringify(echoed));
    const loud = await messages(await a(post(logInfo(2), headers)));
    assert.deepEqual(
      loud.map((message) => message.method ?? 'response'),
      ['notifications/message', 'response'],
    );
    const setLevel = await messages(
      await b(
        post({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'error' } }, headers),
      ),
    );
    assert.deepEqual(setLevel[0]?.result, {}, JSON.stringify(setLevel));
    const quiet = await messages(await a(post(logInfo(4), headers)));
    assert.deepEqual(
      quiet.map((message) => message.method ?? 'response'),
      ['response'],
    );
    // DELETE on B ends it on A too.
    assert.equal((await b(new Request(ENDPOINT, { method: 'DELETE', headers }))).status, 204);
    assert.equal((await a(post({ jsonrpc: '2.0', id: 5, method: 'ping' }, headers))).status, 404);
  });

  test('the per-client cap counts sessions of both handlers: a newcomer on B evicts the idlest made on A', async () => {
    const { a, b } = pair(new JsonRoundTripStore(), {
      maxSessionsPerClient: 1,
      clientKey: () => 'one-client',
    });
    const first = await initialize(a);
    const second = await initialize(b);
    assert.equal((await a(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, first))).status, 404);
    assert.equal((await a(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, second))).status, 200);
  });

  test('idle expiry is the store record: a record untouched for the timeout is gone on both handlers', async () => {
    const idleMs = 60_000;
    const { store, a, b } = pair(new JsonRoundTripStore(), { sessionIdleTimeoutMs: idleMs });
    const headers = await initialize(a);
    assert.equal((await b(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, headers))).status, 200);
    // Age the record as if nobody touched it for the timeout (no sleeping).
    store.inner.touch(headers['Mcp-Session-Id'], Date.now() - idleMs);
    assert.equal((await b(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, headers))).status, 404);
    assert.equal((await a(post({ jsonrpc: '2.0', id: 3, method: 'ping' }, headers))).status, 404);
  });

  test('a session is bound to its principal on every handler (SEC-7): another principal gets 404 on B, the owner 200', async () => {
    const { a, b } = pair(new JsonRoundTripStore(), {
      authenticate: (request) => {
        const token = request.headers.get('authorization');
        return Promise.resolve(token === null ? undefined : { principal: token.replace(/^Bearer /, '') });
      },
    });
    const alice = { Authorization: 'Bearer alice' };
    const headers = { ...(await initialize(a, alice)), ...alice };
    const asBob = { ...headers, Authorization: 'Bearer bob' };
    // B holds no live object for the session: it must not bring it to life for bob.
    assert.equal((await b(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, asBob))).status, 404);
    assert.equal((await b(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, headers))).status, 200);
    // Now that B holds it live, bob is still refused there and on A.
    assert.equal((await b(post({ jsonrpc: '2.0', id: 3, method: 'ping' }, asBob))).status, 404);
    assert.equal((await a(post({ jsonrpc: '2.0', id: 4, method: 'ping' }, asBob))).status, 404);
  });

  test('a store with touchPeriodMs hears of a session at most once per period; without one, of every request', async () => {
    const calls = async (handler: HttpHandler, headers: Record<string, string>, count: number) => {
      for (let id = 1; id <= count; id++)
        assert.equal((await handler(post({ jsonrpc: '2.0', id, method: 'ping' }, headers))).status, 200);
    };
    const remote = new JsonRoundTripStore({ touchPeriodMs: 60_000 });
    const { a, b } = pair(remote, { sessionIdleTimeoutMs: 3_600_000 });
    const headers = await initialize(a);
    const before = remote.touches;
    await calls(a, headers, 10);
    await calls(b, headers, 10);
    // A's handler created the record just now; B brings the session to life from it, stamped as recent.
    assert.equal(remote.touches - before, 0, 'no touch within the period');
    // Once the period has passed (a short one here), the next request's touch reaches the store.
    const quick = new JsonRoundTripStore({ touchPeriodMs: 1 });
    const pairQuick = pair(quick);
    const quickHeaders = await initialize(pairQuick.a);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const quickBefore = quick.touches;
    await calls(pairQuick.a, quickHeaders, 1);
    assert.ok(quick.touches - quickBefore >= 1, `touched ${quick.touches - quickBefore} times`);
    // Without a period (an in-process store), every request touches on arrival and on its answer.
    const local = new JsonRoundTripStore();
    const pairLocal = pair(local);
    const localHeaders = await initialize(pairLocal.a);
    const localBefore = local.touches;
    await calls(pairLocal.a, localHeaders, 10);
    assert.equal(local.touches - localBefore, 20);
  });

  test('a store with liveIdleMs: an idle session is let go of here and its next request brings it back from its record', async () => {
    const store = new JsonRoundTripStore({ liveIdleMs: 20 });
    const server = createFixtureServer();
    let connects = 0;
    const counted = new Proxy(server, {
      get(target, property) {
        if (property === 'connect')
          return (channel: Parameters<typeof server.connect>[0]) => {
            connects++;
            return target.connect(channel);
          };
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const handler = createHttpHandler(counted, { keepAliveMs: 0, sessions: store });
    try {
      const headers = await initialize(handler);
      const initialized = post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
      assert.equal((await handler(initialized)).status, 202);
      assert.equal((await handler(post({ jsonrpc: '2.0', id: 1, method: 'ping' }, headers))).status, 200);
      assert.equal(connects, 1, 'one live session while it is in use');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const echoed = await messages(
        await handler(
          post(
            {
              jsonrpc: '2.0',
              id: 2,
              method: 'tools/call',
              params: { name: 'echo', arguments: { message: 'back' } },
            },
            headers,
          ),
        ),
      );
      assert.equal(echoed.at(-1)?.result?.content?.[0]?.text, 'back', JSON.stringify(echoed));
      assert.equal(connects, 2, 'let go of while idle, then brought back from its record');
    } finally {
      await handler.close();
    }
  });
});

// An `initialize` flood past the session cap (issue 13), over real sockets on 127.0.0.1: the cap
// holds (503 with Retry-After), the server recovers as idle sessions expire, and without the cap
// every initialize of the flood becomes a live session.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { createHttpHandler } from './handler.ts';
import type { HttpHandlerOptions } from './options.ts';
import { serveHttp } from './node.ts';

const FLOOD = 60;
const initialize = (n: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: n,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: `flood-${n}`, version: '1' },
    },
  });

async function sendInitialize(url: string, n: number): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: initialize(n),
  });
  await response.arrayBuffer();
  return response;
}

async function flood(options: HttpHandlerOptions) {
  const handle = await serveHttp(createHttpHandler(createFixtureServer(), { keepAliveMs: 0, ...options }), {
    port: 0,
  });
  const responses = await Promise.all(
    Array.from({ length: FLOOD }, (_v, n) => sendInitialize(handle.url, n)),
  );
  return { handle, responses };
}

describe('an initialize flood past maxSessions', { timeout: 60_000 }, () => {
  test('the cap holds: 503 with Retry-After for the rest, then initialize succeeds again once idle sessions expire', async (t) => {
    // A fake clock for the idle sweep only (sockets and fetch keep their real timers).
    t.mock.timers.enable({ apis: ['setInterval', 'Date'] });
    const { handle, responses } = await flood({ maxSessions: 5, sessionIdleTimeoutMs: 60_000 });
    await using _ = handle;
    const statuses = responses.map((response) => response.status);
    assert.equal(statuses.filter((status) => status === 200).length, 5);
    assert.equal(statuses.filter((status) => status === 503).length, FLOOD - 5);
    const refused = responses.find((response) => response.status === 503);
    assert.equal(refused?.headers.get('retry-after'), '1', 'the sweep runs every 60,000 / 60 ms');
    t.mock.timers.tick(30_000);
    assert.equal((await sendInitialize(handle.url, 100)).status, 503, 'nothing has expired yet');
    t.mock.timers.tick(31_000);
    assert.equal((await sendInitialize(handle.url, 101)).status, 200, 'the flood’s idle sessions expired');
  });

  test('the 503 body names the limit', async () => {
    const { handle, responses } = await flood({ maxSessions: 1, sessionIdleTimeoutMs: Infinity });
    await using _ = handle;
    const refused = responses.find((response) => response.status === 503);
    const again = await fetch(handle.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: initialize(99),
    });
    assert.equal(again.status, 503);
    assert.match(((await again.json()) as { error: { message: string } }).error.message, /the limit is 1\b/);
    assert.equal(refused?.headers.get('retry-after'), '60', 'sessions that never expire: retry much later');
  });

  test('without the cap (Infinity) every initialize of the flood opens a session', async () => {
    const { handle, responses } = await flood({ maxSessions: Infinity, sessionIdleTimeoutMs: Infinity });
    await using _ = handle;
    assert.deepEqual(
      responses.map((response) => response.status),
      Array.from({ length: FLOOD }, () => 200),
    );
    assert.equal(new Set(responses.map((response) => response.headers.get('mcp-session-id'))).size, FLOOD);
  });
});

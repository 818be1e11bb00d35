// An `initialize` flood past the session caps (issues 13 and 21), over real sockets on 127.0.0.1: the
// caps hold (the flood's newest sessions evict its own longest-idle ones), a client that arrives
// after the flood is served at once, and without the caps every initialize of the flood becomes a
// live session.

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

async function ping(url: string, session: string): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'Mcp-Session-Id': session,
      'MCP-Protocol-Version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** How many of the sessions `responses` opened still answer. */
async function countLive(url: string, responses: readonly Response[]): Promise<number> {
  const ids = responses.flatMap((response) => response.headers.get('mcp-session-id') ?? []);
  let live = 0;
  for (const id of ids) if ((await ping(url, id)) === 200) live++;
  return live;
}

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

describe('an initialize flood past the session caps', { timeout: 60_000 }, () => {
  test('maxSessions holds by evicting the longest idle; a client after the flood is served at once', async () => {
    const { handle, responses } = await flood({ maxSessions: 5, sessionIdleTimeoutMs: Infinity });
    await using _ = handle;
    // 503 only while every live session still has its initialize in flight (a race of the flood).
    for (const response of responses)
      assert.ok([200, 503].includes(response.status), String(response.status));
    assert.ok(responses.some((response) => response.status === 200));
    const newcomer = await sendInitialize(handle.url, 100);
    assert.equal(newcomer.status, 200, 'no refusal: the flood’s longest-idle session made room');
    assert.equal(
      await countLive(handle.url, responses),
      4,
      'the cap holds: four of the flood and the newcomer',
    );
    assert.equal(await ping(handle.url, newcomer.headers.get('mcp-session-id')!), 200);
  });

  test('maxSessionsPerClient holds for one address, below a global cap it never reaches', async () => {
    const options = { maxSessions: Infinity, maxSessionsPerClient: 5, sessionIdleTimeoutMs: Infinity };
    const { handle, responses } = await flood(options);
    await using _ = handle;
    for (const response of responses)
      assert.ok([200, 503].includes(response.status), String(response.status));
    assert.equal(await countLive(handle.url, responses), 5);
  });

  test('without the caps (Infinity) every initialize of the flood opens a session', async () => {
    const { handle, responses } = await flood({
      maxSessions: Infinity,
      maxSessionsPerClient: Infinity,
      sessionIdleTimeoutMs: Infinity,
    });
    await using _ = handle;
    assert.deepEqual(
      responses.map((response) => response.status),
      Array.from({ length: FLOOD }, () => 200),
    );
    assert.equal(new Set(responses.map((response) => response.headers.get('mcp-session-id'))).size, FLOOD);
  });
});

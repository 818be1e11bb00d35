// Faults of Streamable HTTP over real sockets on 127.0.0.1: an SSE stream dropped mid-response and
// resumed with Last-Event-ID, a server restart that forgets every session, foreign Origin and Host
// headers, and a thousand idle sessions expiring under a fake clock.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it, type TestContext } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createEverythingServer } from '@mcpwire/server-everything';
import { Client, type Progress } from 'mcpwire/client';
import { createHttpHandler, StreamableHttpClientTransport, type HttpHandlerOptions } from 'mcpwire/http';
import type { Channel } from 'mcpwire';
import { serveHttp, type HttpServerHandle } from 'mcpwire/node';
import { startCuttingProxy } from './http-faults/cutting-proxy.ts';

const CLIENT_INFO = { name: 'http-faults', version: '1.0.0' };
const VERSION = '2025-11-25';
/** No keep-alive comments and a zero `retry:`: every wait in these tests is socket I/O. */
const QUIET: HttpHandlerOptions = { keepAliveMs: 0, retryMs: 0 };

async function serveEverything(options: HttpHandlerOptions = {}, port = 0): Promise<HttpServerHandle> {
  return serveHttp(createHttpHandler(createEverythingServer(), { ...QUIET, ...options }), { port });
}

/** The JSON-RPC method of a fetch request's body, if it has one. */
async function rpcMethodOf(request: Request): Promise<string | undefined> {
  if (request.method !== 'POST') return undefined;
  try {
    return (JSON.parse(await request.clone().text()) as { method?: string }).method;
  } catch {
    return undefined;
  }
}

describe('an SSE response stream dropped mid-response', () => {
  it('is resumed with Last-Event-ID: every progress value and the result arrive exactly once, in order', async () => {
    await using server = await serveEverything();
    const proxy = await startCuttingProxy(server.url, {
      matches: (method, body) => method === 'POST' && (body as { method?: string })?.method === 'tools/call',
      afterEvents: 2,
    });
    const client = new Client(CLIENT_INFO, { era: 'handshake' });
    try {
      await client.connect(
        new StreamableHttpClientTransport(proxy.url, {
          reconnection: { initialDelayMs: 0 },
          onError: () => {},
        }),
      );
      const updates: Progress[] = [];
      const result = await client.callTool(
        { name: 'test_tool_with_progress' },
        { onProgress: (progress) => updates.push(progress) },
      );
      assert.equal(proxy.log.hasCut, true, 'the proxy cut the tools/call stream');
      assert.equal(proxy.log.cutEventIds.length, 2);
      // The resumption GET names an event of the cut stream (the last one the client parsed).
      const resumedFrom = proxy.log.lastEventIds.filter((id) => id !== null);
      assert.equal(
        resumedFrom.length,
        1,
        `one resumption GET, got ${JSON.stringify(proxy.log.lastEventIds)}`,
      );
      assert.ok(proxy.log.cutEventIds.includes(resumedFrom[0]!), 'Last-Event-ID is an id of the cut stream');
      assert.deepEqual(
        updates.map((update) => update.progress),
        [0, 50, 100],
      );
      assert.deepEqual(
        updates.map((update) => update.message),
        ['Completed step 0 of 100', 'Completed step 50 of 100', 'Completed step 100 of 100'],
      );
      assert.equal(result.isError, undefined);
      assert.equal(result.content.length, 1);
      assert.equal(result.content[0]?.type, 'text');
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});

describe('a server restart', () => {
  interface Wire {
    /** Status of each `initialize` POST, in order. */
    initializes: number[];
    /** `METHOD rpc-method status` of each request, in order. */
    statuses: string[];
  }

  /**
   * A handshake-era client whose fetch records the wire. While `hold()` returns a promise, requests
   * wait for it first: a server that is down is one whose requests wait for the new one.
   */
  function recordingClient(
    url: string,
    options: {
      maxAttempts?: number;
      hold?: () => Promise<void> | undefined;
      onGet?: (status: number) => void;
    } = {},
  ): { client: Client; transport: StreamableHttpClientTransport; wire: Wire } {
    const wire: Wire = { initializes: [], statuses: [] };
    const transport = new StreamableHttpClientTransport(url, {
      reconnection: {
        initialDelayMs: 0,
        ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
      },
      onError: () => {},
      fetch: async (request) => {
        await options.hold?.();
        const method = await rpcMethodOf(request);
        const response = await fetch(request);
        if (method === 'initialize') wire.initializes.push(response.status);
        wire.statuses.push(
          [request.method, method, response.status].filter((x) => x !== undefined).join(' '),
        );
        if (request.method === 'GET') options.onGet?.(response.status);
        return response;
      },
    });
    return { client: new Client(CLIENT_INFO, { era: 'handshake' }), transport, wire };
  }

  it('gets 404 for the dead session, re-initializes, and the call succeeds', async () => {
    let server = await serveEverything();
    const port = Number(new URL(server.url).port);
    // No GET-stream reconnection: the tools/call below is what discovers the restart.
    const { client, transport, wire } = recordingClient(server.url, { maxAttempts: 0 });
    try {
      await client.connect(transport);
      assert.deepEqual(wire.initializes, [200]);
      await server.close();
      server = await serveEverything({}, port);
      const result = await client.callTool({ name: 'echo', arguments: { message: 'after restart' } });
      assert.deepEqual(result.content, [{ type: 'text', text: 'after restart' }]);
      assert.deepEqual(wire.initializes, [200, 200], 'a second initialize went over the wire');
      const calls = wire.statuses.filter((line) => line.startsWith('POST tools/call'));
      assert.deepEqual(calls, ['POST tools/call 404', 'POST tools/call 200'], wire.statuses.join(', '));
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('recovers when its GET stream is the first to meet the dead session (default reconnection)', async () => {
    let server = await serveEverything();
    const port = Number(new URL(server.url).port);
    let down: Promise<void> | undefined;
    let up!: () => void;
    const gets: Record<number, () => void> = {};
    const getAnswered = (status: number) => new Promise<void>((resolve) => (gets[status] = resolve));
    const get200 = getAnswered(200);
    const get404 = getAnswered(404);
    const { client, transport, wire } = recordingClient(server.url, {
      hold: () => down,
      onGet: (status) => gets[status]?.(),
    });
    try {
      await client.connect(transport);
      // The GET stream is established before the restart breaks it.
      await get200;
      down = new Promise<void>((resolve) => (up = resolve));
      await server.close();
      server = await serveEverything({}, port);
      down = undefined;
      up();
      // The GET stream, broken by the restart, resumes against the new server and gets 404.
      await get404;
      const result = await client.callTool({ name: 'echo', arguments: { message: 'after restart' } });
      assert.deepEqual(result.content, [{ type: 'text', text: 'after restart' }]);
      assert.deepEqual(wire.initializes, [200, 200], `a second initialize: ${wire.statuses.join(', ')}`);
    } finally {
      await client.close();
      await server.close();
    }
  });
});

/** One raw HTTP request over node:http, so Host and Origin can be set freely. */
function rawRequest(
  url: string,
  options: { method: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method, headers: options.headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: VERSION, capabilities: {}, clientInfo: CLIENT_INFO },
});
const POST_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

describe('Origin and Host checks', () => {
  it('refuses a browser Origin from another site with 403 and accepts a localhost one', async () => {
    await using server = await serveEverything();
    const evil = await rawRequest(server.url, {
      method: 'POST',
      headers: { ...POST_HEADERS, Origin: 'https://evil.example.com' },
      body: INITIALIZE_BODY,
    });
    assert.equal(evil.status, 403);
    assert.equal(evil.headers['mcp-session-id'], undefined, 'no session was created');
    assert.equal(evil.headers['access-control-allow-origin'], undefined);
    const local = await rawRequest(server.url, {
      method: 'POST',
      headers: { ...POST_HEADERS, Origin: 'http://localhost:5173' },
      body: INITIALIZE_BODY,
    });
    assert.equal(local.status, 200);
    assert.equal(local.headers['access-control-allow-origin'], 'http://localhost:5173');
    assert.match(String(local.headers['mcp-session-id']), /^[0-9a-f-]{36}$/);
  });

  it('refuses a Host header that is not loopback (DNS rebinding) with a 4xx', async () => {
    await using server = await serveEverything();
    const rebound = await rawRequest(server.url, {
      method: 'POST',
      headers: { ...POST_HEADERS, Host: 'evil.example.com:8080' },
      body: INITIALIZE_BODY,
    });
    assert.ok(rebound.status >= 400 && rebound.status < 500, `expected 4xx, got ${rebound.status}`);
    assert.equal(rebound.headers['mcp-session-id'], undefined);
  });
});

/** `gc` without --expose-gc: the flag can be set at run time, and a fresh context then has it. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Runs `task` over `items` with at most `concurrency` at a time, keeping results in order. */
async function mapLimited<T, R>(items: readonly T[], concurrency: number, task: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

/** Collects garbage, then asserts no target of `refs` survived. */
async function assertReleased(refs: readonly WeakRef<object>[]): Promise<void> {
  const gc = exposeGc();
  for (let round = 0; round < 2; round++) {
    // A WeakRef read in the current job keeps its target alive until the job ends.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  const alive = refs.filter((ref) => ref.deref() !== undefined).length;
  assert.equal(alive, 0, `${alive} of ${refs.length} expired sessions are still reachable`);
}

describe('idle sessions', () => {
  const SESSIONS = 1000;
  const IDLE_MS = 60_000;

  it('1,000 idle sessions expire under a fake clock and their memory is released', async (t: TestContext) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'] });
    const channels: WeakRef<Channel>[] = [];
    const everything = createEverythingServer();
    // The handler asks only for `{ connect }`: this records each session's Channel weakly.
    const recording = {
      connect(channel: Channel) {
        channels.push(new WeakRef(channel));
        return everything.connect(channel);
      },
    };
    const handler = createHttpHandler(recording, {
      ...QUIET,
      sessionIdleTimeoutMs: IDLE_MS,
      maxSessions: SESSIONS,
      maxSessionsPerClient: Infinity, // one client (127.0.0.1) opens them all
    });
    await using server = await serveHttp(handler, { port: 0 });
    const initialize = async (): Promise<{ status: number; id: string | null }> => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: POST_HEADERS,
        body: INITIALIZE_BODY,
      });
      await response.text();
      return { status: response.status, id: response.headers.get('mcp-session-id') };
    };
    const indexes = Array.from({ length: SESSIONS }, (_, index) => index);
    const created = await mapLimited(indexes, 8, initialize);
    assert.deepEqual(new Set(created.map((c) => c.status)), new Set([200]));
    const ids = created.map((c) => c.id!);
    assert.equal(new Set(ids).size, SESSIONS);
    assert.equal(channels.length, SESSIONS);
    // The cap is reached: one more evicts the longest-idle session rather than being refused.
    assert.equal((await initialize()).status, 200);
    assert.equal(channels.length, SESSIONS + 1);

    t.mock.timers.tick(IDLE_MS + 1);

    const ping = async (id: string): Promise<number> => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { ...POST_HEADERS, 'Mcp-Session-Id': id, 'MCP-Protocol-Version': VERSION },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }),
      });
      await response.text();
      return response.status;
    };
    const after = await mapLimited(ids, 8, ping);
    assert.deepEqual(new Set(after), new Set([404]), 'every expired session id gets 404');

    // Memory: nothing holds an expired session's Channel any more (the preloaded wire check holds
    // connections weakly, so this is checked under the test runner too).
    await assertReleased(channels);

    // The registry is empty: a full cap of new sessions fits again.
    const again = await mapLimited(indexes, 8, initialize);
    assert.deepEqual(new Set(again.map((c) => c.status)), new Set([200]));
  });
});

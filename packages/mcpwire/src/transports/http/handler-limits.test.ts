// The HTTP handler's gates and limits, in-process: Host and Origin (DNS rebinding), CORS, malformed
// input, body size, media types, methods, the session cap and idle expiry under a fake clock.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { ENDPOINT, statelessPost, post, type Loose } from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';

type Body = Record<string, Loose>;

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

function setup(options: Parameters<typeof createHttpHandler>[1] = {}) {
  return createHttpHandler(createFixtureServer(), { keepAliveMs: 0, ...options });
}

describe('Host and Origin', () => {
  test('a foreign Host is refused with 403; loopback hosts on any port pass (dns-rebinding-protection)', async () => {
    const handler = setup();
    const evil = await handler(
      post(INITIALIZE, { Host: 'evil.example.com', Origin: 'http://evil.example.com' }),
    );
    assert.equal(evil.status, 403);
    for (const host of ['localhost:3000', '127.0.0.1:8080', '[::1]:9', 'localhost']) {
      const response = await handler(post(INITIALIZE, { Host: host }));
      assert.equal(response.status, 200, host);
    }
    const discover = await handler(
      statelessPost('server/discover', {}, { headers: { Host: 'evil.example.com' } }),
    );
    assert.equal(discover.status, 403, 'the stateless era is guarded the same way');
  });

  test('allowedHosts configures the accepted hosts (or * for any)', async () => {
    const handler = setup({ allowedHosts: ['mcp.example.com', 'other.example:8443'] });
    assert.equal((await handler(post(INITIALIZE, { Host: 'mcp.example.com:443' }))).status, 200);
    assert.equal((await handler(post(INITIALIZE, { Host: 'other.example:8443' }))).status, 200);
    assert.equal((await handler(post(INITIALIZE, { Host: 'other.example:9000' }))).status, 403);
    assert.equal((await handler(post(INITIALIZE, { Host: 'localhost' }))).status, 403);
    const open = setup({ allowedHosts: ['*'] });
    assert.equal((await open(post(INITIALIZE, { Host: 'anything.example' }))).status, 200);
  });

  test('a cross-site browser Origin is refused with 403; loopback and configured origins get CORS headers', async () => {
    const handler = setup({ allowedOrigins: ['https://app.example'] });
    const refused = await handler(post(INITIALIZE, { Origin: 'https://evil.example' }));
    assert.equal(refused.status, 403);
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    assert.equal((await handler(post(INITIALIZE, { Origin: 'null' }))).status, 403);
    for (const origin of ['http://localhost:5173', 'https://app.example']) {
      const response = await handler(post(INITIALIZE, { Origin: origin }));
      assert.equal(response.status, 200, origin);
      assert.equal(response.headers.get('access-control-allow-origin'), origin);
      assert.match(response.headers.get('access-control-expose-headers') ?? '', /Mcp-Session-Id/);
    }
    const noOrigin = await handler(post(INITIALIZE));
    assert.equal(
      noOrigin.headers.get('access-control-allow-origin'),
      null,
      'no CORS headers without an Origin',
    );
  });

  test('a CORS preflight from an allowed origin is answered with the methods and the asked headers', async () => {
    const handler = setup();
    const preflight = await handler(
      new Request(ENDPOINT, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://localhost:5173',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, mcp-method, mcp-param-region, authorization',
        },
      }),
    );
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /mcp-param-region/);
    const defaults = await handler(
      new Request(ENDPOINT, { method: 'OPTIONS', headers: { Origin: 'http://127.0.0.1' } }),
    );
    assert.match(defaults.headers.get('access-control-allow-headers') ?? '', /Mcp-Session-Id.*Last-Event-ID/);
    const foreign = await handler(
      new Request(ENDPOINT, { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } }),
    );
    assert.equal(foreign.status, 403);
  });
});

describe('malformed input and HTTP-level refusals', () => {
  test('bad JSON is 400 -32700; a non-JSON-RPC body is 400 -32600', async () => {
    const handler = setup();
    const parse = await handler(post('{"jsonrpc": "2.0", '));
    assert.equal(parse.status, 400);
    assert.equal(((await parse.json()) as Body).error.code, -32700);
    for (const body of ['{"jsonrpc":"1.0","id":1,"method":"ping"}', '[]', '42', '{"jsonrpc":"2.0","id":1}']) {
      const response = await handler(post(body));
      assert.equal(response.status, 400, body);
      assert.equal(((await response.json()) as Body).error.code, -32600, body);
    }
  });

  test('a body over the limit is 413, whether declared or streamed', async () => {
    const handler = setup({ maxBodyBytes: 64 });
    const big = JSON.stringify({ ...INITIALIZE, padding: 'x'.repeat(100) });
    assert.equal((await handler(post(big))).status, 413);
    const chunks = [new TextEncoder().encode(big.slice(0, 50)), new TextEncoder().encode(big.slice(50))];
    const streamed = new Request(ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: new ReadableStream({
        pull(controller) {
          const next = chunks.shift();
          if (next) controller.enqueue(next);
          else controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    assert.equal((await handler(streamed)).status, 413);
  });

  test('wrong media type 415, unacceptable Accept 406, other methods 405, other paths 404', async () => {
    const handler = setup();
    const textBody = new Request(ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{}',
    });
    assert.equal((await handler(textBody)).status, 415);
    assert.equal((await handler(post(INITIALIZE, { Accept: 'text/html' }))).status, 406);
    const put = await handler(new Request(ENDPOINT, { method: 'PUT', body: '{}' }));
    assert.equal(put.status, 405);
    assert.equal(put.headers.get('allow'), 'GET, POST, DELETE, OPTIONS');
    assert.equal(
      (await handler(new Request('http://localhost/other', { method: 'POST', body: '{}' }))).status,
      404,
    );
    const custom = setup({ path: '/' });
    assert.equal(
      (
        await custom(
          new Request('http://localhost/', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(INITIALIZE),
          }),
        )
      ).status,
      200,
    );
  });

  test('an Accept of JSON only still gets its answer; progress it cannot receive is dropped', async () => {
    const handler = setup();
    const response = await handler(
      statelessPost(
        'tools/call',
        { name: 'test_tool_with_progress', arguments: {} },
        { meta: { progressToken: 'x' } },
      ),
    );
    assert.equal(response.headers.get('content-type'), 'text/event-stream', 'both accepted: SSE');
    await response.body?.cancel();
    const init = await handler(post(INITIALIZE, { Accept: 'application/json' }));
    const sessionId = init.headers.get('mcp-session-id')!;
    const headers = { 'Mcp-Session-Id': sessionId, Accept: 'application/json' };
    await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
    const jsonOnly = await handler(
      post(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 1 } },
        },
        headers,
      ),
    );
    assert.equal(jsonOnly.headers.get('content-type'), 'application/json');
    assert.equal(((await jsonOnly.json()) as Body).id, 2);
  });
});

describe('session limits', () => {
  const ping = (handler: ReturnType<typeof setup>, id: string) =>
    handler(post({ jsonrpc: '2.0', id: 5, method: 'ping' }, { 'Mcp-Session-Id': id }));
  const open = async (handler: ReturnType<typeof setup>, headers: Record<string, string> = {}) =>
    (await handler(post(INITIALIZE, headers))).headers.get('mcp-session-id')!;

  test('initialize beyond maxSessions evicts the longest-idle session (issue 21)', async () => {
    const handler = setup({ maxSessions: 2 });
    const first = await open(handler);
    const second = await open(handler);
    assert.equal((await ping(handler, first)).status, 200, 'first is now the most recently used');
    const third = await handler(post(INITIALIZE));
    assert.equal(third.status, 200);
    assert.equal((await ping(handler, second)).status, 404, 'second, the longest idle, was evicted');
    assert.equal((await ping(handler, first)).status, 200);
    assert.equal((await ping(handler, third.headers.get('mcp-session-id')!)).status, 200);
    await handler.close();
  });

  test('a web Request has no address: without clientKey only maxSessions applies', async () => {
    const handler = setup({ maxSessionsPerClient: 1 });
    const sessions = [await open(handler), await open(handler)];
    for (const id of sessions) assert.equal((await ping(handler, id)).status, 200);
    await handler.close();
  });

  test('clientKey names the client: past its maxSessionsPerClient it evicts its own oldest session', async () => {
    const handler = setup({
      maxSessionsPerClient: 2,
      clientKey: (request) => request.headers.get('x-client') ?? undefined,
    });
    const a = [await open(handler, { 'X-Client': 'a' }), await open(handler, { 'X-Client': 'a' })];
    const b = await open(handler, { 'X-Client': 'b' });
    const keyless = [await open(handler), await open(handler), await open(handler)];
    const a3 = await open(handler, { 'X-Client': 'a' });
    assert.equal((await ping(handler, a[0]!)).status, 404, 'a’s oldest, evicted by a’s third');
    for (const id of [a[1]!, a3, b, ...keyless]) assert.equal((await ping(handler, id)).status, 200, id);
    await handler.close();
  });

  test('an idle session expires after sessionIdleTimeoutMs; one with an open stream does not', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'] });
    const handler = setup({ sessionIdleTimeoutMs: 60_000 });
    const init = async () => {
      const response = await handler(post(INITIALIZE));
      const id = response.headers.get('mcp-session-id')!;
      await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'Mcp-Session-Id': id }));
      return id;
    };
    const idle = await init();
    const watched = await init();
    const stream = await handler(
      new Request(ENDPOINT, { headers: { 'Mcp-Session-Id': watched, Accept: 'text/event-stream' } }),
    );
    const ping = (id: string) =>
      handler(post({ jsonrpc: '2.0', id: 5, method: 'ping' }, { 'Mcp-Session-Id': id }));
    t.mock.timers.tick(59_000);
    assert.equal((await ping(idle)).status, 200, 'not yet expired; the ping restarts its timer');
    t.mock.timers.tick(59_000);
    assert.equal((await ping(idle)).status, 200);
    t.mock.timers.tick(60_000);
    assert.equal((await ping(idle)).status, 404, 'expired');
    assert.equal((await ping(watched)).status, 200, 'a session with a GET stream attached stays');
    await stream.body?.cancel();
    await new Promise((resolve) => setImmediate(resolve));
    t.mock.timers.tick(120_000);
    assert.equal((await ping(watched)).status, 404, 'expired once its stream was gone');
    await handler.close();
  });

  test('sessionIdleTimeoutMs: Infinity keeps sessions forever (no sweep)', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval', 'Date'] });
    const handler = setup({ sessionIdleTimeoutMs: Infinity });
    const id = (await handler(post(INITIALIZE))).headers.get('mcp-session-id')!;
    t.mock.timers.tick(365 * 24 * 60 * 60 * 1000);
    const ping = await handler(post({ jsonrpc: '2.0', id: 5, method: 'ping' }, { 'Mcp-Session-Id': id }));
    assert.equal(ping.status, 200);
    await handler.close();
  });

  test('close() ends every session and its streams', async () => {
    const handler = setup();
    const init = await handler(post(INITIALIZE));
    const id = init.headers.get('mcp-session-id')!;
    await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'Mcp-Session-Id': id }));
    const stream = await handler(
      new Request(ENDPOINT, { headers: { 'Mcp-Session-Id': id, Accept: 'text/event-stream' } }),
    );
    await handler.close();
    assert.equal(await stream.text(), '', 'the GET stream ended (2024-11-05 sessions get no priming event)');
    assert.equal(
      (await handler(post({ jsonrpc: '2.0', id: 2, method: 'ping' }, { 'Mcp-Session-Id': id }))).status,
      404,
    );
  });
});

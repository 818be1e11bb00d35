// The Node adapter over a real socket on 127.0.0.1: both eras answer, and a client that drops its
// connection cancels its stateless-era request (the disconnect reaches the handler as an abort).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { statelessMeta, SseReader } from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';
import { serveHttp } from './node.ts';

test('serveHttp serves the handler on 127.0.0.1; a dropped connection cancels the request', async () => {
  const server = createFixtureServer();
  let cancelled!: () => void;
  const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
  server.tool(
    {
      name: 'hold',
      description: 'Reports progress, then waits to be cancelled.',
      inputSchema: { type: 'object' },
    },
    async (_a, ctx) => {
      await ctx.sendProgress(1);
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      cancelled();
      return 'unreachable';
    },
  );
  await using handle = await serveHttp(createHttpHandler(server, { keepAliveMs: 0 }), { port: 0 });
  assert.match(handle.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const init = await fetch(handle.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'socket', version: '1' },
      },
    }),
  });
  assert.equal(init.status, 200);
  assert.ok(init.headers.get('mcp-session-id'));
  assert.equal(
    ((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion,
    '2025-11-25',
  );

  const client = new AbortController();
  const stateless = {
    ...headers,
    'MCP-Protocol-Version': '2026-07-28',
    'Mcp-Method': 'tools/call',
    'Mcp-Name': 'hold',
  };
  const held = await fetch(handle.url, {
    method: 'POST',
    headers: stateless,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'hold', arguments: {}, _meta: statelessMeta({ progressToken: 'p' }) },
    }),
    signal: client.signal,
  });
  assert.equal(held.headers.get('content-type'), 'text/event-stream');
  assert.equal((await new SseReader(held).nextMessage())?.method, 'notifications/progress');
  client.abort();
  await wasCancelled;

  const evil = await fetch(handle.url, {
    method: 'POST',
    headers: { ...headers, Origin: 'http://evil.example' },
    body: '{}',
  });
  assert.equal(evil.status, 403);
});

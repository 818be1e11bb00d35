// Slow Redis (issue 24, "bounded waits"): a Redis that does not answer (here `CLIENT PAUSE`, which
// holds every client's commands) must not hold a request for as long as Redis is stuck: a command
// that waits longer than the stores' `commandTimeoutMs` fails, and the request gets 503 with
// Retry-After; once Redis answers again, so does the handler.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHttpHandler } from 'mcpwire/http';
import { Server } from 'mcpwire/server';
import { createClient } from 'redis';
import { createRedisStores } from '../src/create-redis-stores.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';

function initialize(): Request {
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    }),
  });
}

test('Redis paused for 20 s: initialize gets 503 with Retry-After after the command timeout, not after the pause; the handler answers again once Redis does', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisServer();
  await using stores = await createRedisStores({ url: redis.url, commandTimeoutMs: 250 });
  const admin = createClient({ url: redis.url });
  admin.on('error', () => {});
  await admin.connect();
  t.after(() => admin.destroy());
  const server = new Server({ name: 'slow', version: '1' });
  const handler = createHttpHandler(server, { keepAliveMs: 0, ...stores, onError: () => {} });
  assert.equal((await handler(initialize())).status, 200);
  // Every client's commands wait (the pausing one's reply comes at once); unpaused below.
  await admin.sendCommand(['CLIENT', 'PAUSE', '20000', 'ALL']);
  const response = await handler(initialize());
  const body = (await response.json()) as { error?: { message?: string } };
  assert.equal(response.status, 503, JSON.stringify(body));
  assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal(body.error?.message, 'The session store is unavailable; retry later');
  await admin.sendCommand(['CLIENT', 'UNPAUSE']);
  assert.equal((await handler(initialize())).status, 200);
});

// Redis unreachable (issue 24): a request that needs the session store gets 503 with Retry-After and
// a message naming the store, at once (no offline queue), and the handler keeps answering: it neither
// hangs nor falls back to memory. Redis slow ("bounded waits"): a Redis that does not answer (here
// `CLIENT PAUSE`, which holds every client's commands) holds a request no longer than the stores'
// `commandTimeoutMs`; then 503 with Retry-After, and the handler answers again once Redis does.

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

test('Redis stopped: initialize gets 503 with Retry-After and a message naming the session store (not the Redis address); the handler answers again', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  const redis = await startRedisServer();
  const errors: Error[] = [];
  await using stores = await createRedisStores({ url: redis.url });
  const server = new Server({ name: 'unreachable', version: '1' });
  const handler = createHttpHandler(server, {
    keepAliveMs: 0,
    ...stores,
    onError: (error) => errors.push(error),
  });
  assert.equal((await handler(initialize())).status, 200);
  await redis.stop();
  for (const attempt of [1, 2]) {
    const response = await handler(initialize());
    const body = (await response.json()) as { error?: { message?: string } };
    assert.equal(response.status, 503, `attempt ${attempt}: ${JSON.stringify(body)}`);
    assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
    assert.match(body.error?.message ?? '', /session store is unavailable/i);
    // What the node knows of its Redis (address, port, the driver's words) stays in onError.
    assert.equal(body.error?.message, 'The session store is unavailable; retry later');
  }
  assert.ok(errors.length > 0, 'the cause is reported to onError');
});

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

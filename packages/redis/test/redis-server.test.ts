// The test support's redis-server: it starts on a free port, answers, and is gone after disposal.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createClient } from 'redis';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';

test('startRedisServer: a real redis-server answers PING on 127.0.0.1 and refuses connections once stopped', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  const server = await startRedisServer();
  const client = createClient({ url: server.url, socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  assert.equal(await client.ping(), 'PONG');
  assert.equal(await client.configGet('save').then((config) => config.save), '');
  client.destroy();
  await server.stop();
  const after = createClient({ url: server.url, socket: { reconnectStrategy: false } });
  after.on('error', () => {});
  await assert.rejects(after.connect(), /ECONNREFUSED/);
});

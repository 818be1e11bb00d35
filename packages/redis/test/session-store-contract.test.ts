// The SessionStore contract cases, run against the library's InMemorySessionStore and against
// RedisSessionStore on a real redis-server (each case on an empty database).

import { after, before, describe, test } from 'node:test';
import { InMemorySessionStore } from 'mcpwire/http';
import { createClient } from 'redis';
import { RedisSessionStore } from '../src/redis-session-store.ts';
import { redisSkipReason, startRedisServer, type RedisServer } from '../../../test/support/redis-server.ts';
import { SESSION_STORE_CASES } from './support/session-store-contract.ts';

describe('SessionStore contract: InMemorySessionStore', () => {
  for (const item of SESSION_STORE_CASES) test(item.name, () => item.run(new InMemorySessionStore()));
});

describe('SessionStore contract: RedisSessionStore', () => {
  let skip: string | undefined;
  let server: RedisServer | undefined;
  let client: ReturnType<typeof createClient> | undefined;
  before(async () => {
    skip = await redisSkipReason();
    if (skip !== undefined) return;
    server = await startRedisServer();
    client = createClient({ url: server.url });
    await client.connect();
  });
  after(async () => {
    client?.destroy();
    await server?.stop();
  });
  for (const item of SESSION_STORE_CASES) {
    test(item.name, async (t) => {
      if (skip !== undefined || client === undefined) return t.skip(skip);
      await client.flushAll();
      await item.run(new RedisSessionStore(client));
    });
  }
});

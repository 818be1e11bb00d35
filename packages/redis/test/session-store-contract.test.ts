// The SessionStore contract cases, run against the library's InMemorySessionStore, against
// RedisSessionStore on a real redis-server (each case on an empty database) and on a real
// three-master Redis Cluster (each case under a prefix of its own).

import { after, before, describe, test } from 'node:test';
import { InMemorySessionStore } from 'mcpwire/http';
import { createClient, createCluster } from 'redis';
import { clusterConnection } from '../src/cluster-connection.ts';
import { RedisSessionStore } from '../src/redis-session-store.ts';
import { redisSkipReason, startRedisServer, type RedisServer } from '../../../test/support/redis-server.ts';
import { startRedisCluster, type RedisCluster } from '../../../test/support/redis-cluster.ts';
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

describe('SessionStore contract: RedisSessionStore on a Redis Cluster', () => {
  let skip: string | undefined;
  let redis: RedisCluster | undefined;
  let cluster: ReturnType<typeof createCluster> | undefined;
  before(async () => {
    skip = await redisSkipReason();
    if (skip !== undefined) return;
    redis = await startRedisCluster();
    cluster = createCluster({ rootNodes: redis.urls.map((url) => ({ url })) });
    await cluster.connect();
  });
  after(async () => {
    cluster?.destroy();
    await redis?.stop();
  });
  SESSION_STORE_CASES.forEach((item, index) => {
    test(item.name, async (t) => {
      if (skip !== undefined || cluster === undefined) return t.skip(skip);
      // A prefix per case: the keys of the cases before it are not this store's.
      await item.run(new RedisSessionStore(clusterConnection(cluster), { prefix: `case${index}` }));
    });
  });
});

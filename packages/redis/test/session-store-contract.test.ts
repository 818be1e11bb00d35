// The SessionStore contract cases, run against the library's InMemorySessionStore, against
// RedisSessionStore on a real redis-server (each case on an empty database) and on a real
// three-master Redis Cluster (each case under a prefix of its own).

import { describe, test } from 'node:test';
import { InMemorySessionStore } from 'mcpwire/http';
import { createClient, createCluster } from 'redis';
import { clusterConnection } from '../src/cluster-connection.ts';
import { RedisSessionStore } from '../src/redis-session-store.ts';
import { redisForSuite, startRedisServer } from '../../../test/support/redis-server.ts';
import { startRedisCluster } from '../../../test/support/redis-cluster.ts';
import { SESSION_STORE_CASES } from './support/session-store-contract.ts';

describe('SessionStore contract: InMemorySessionStore', () => {
  for (const item of SESSION_STORE_CASES) test(item.name, () => item.run(new InMemorySessionStore()));
});

describe('SessionStore contract: RedisSessionStore', () => {
  const redis = redisForSuite({
    start: async () => {
      const server = await startRedisServer();
      const client = createClient({ url: server.url });
      await client.connect();
      return { client, stop: () => (client.destroy(), server.stop()) };
    },
  });
  for (const item of SESSION_STORE_CASES) {
    test(item.name, async (t) => {
      if (redis.skipped(t)) return;
      const { client } = redis.server;
      await client.flushAll();
      await item.run(new RedisSessionStore(client));
    });
  }
});

describe('SessionStore contract: RedisSessionStore on a Redis Cluster', () => {
  const redis = redisForSuite({
    start: async () => {
      const masters = await startRedisCluster();
      const cluster = createCluster({ rootNodes: masters.urls.map((url) => ({ url })) });
      await cluster.connect();
      return { cluster, stop: () => (cluster.destroy(), masters.stop()) };
    },
  });
  SESSION_STORE_CASES.forEach((item, index) => {
    test(item.name, async (t) => {
      if (redis.skipped(t)) return;
      // A prefix per case: the keys of the cases before it are not this store's.
      const connection = clusterConnection(redis.server.cluster);
      await item.run(new RedisSessionStore(connection, { prefix: `case${index}` }));
    });
  });
});

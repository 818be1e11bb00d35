// The sharded bus through failovers (issue 24): on a real Redis Cluster of three masters with a
// replica each, every replica is promoted in turn while one node publishes on several topics. When a
// shard's master changes, Redis drops its sharded subscriptions and node-redis moves them to the new
// master without a reconnect; what is published in between never arrives over pub/sub. Each node's
// bus must still deliver every message of every topic, once each and in order, from the replay log.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCluster } from 'redis';
import { clusterConnection } from '../src/cluster-connection.ts';
import { RedisMessageBus } from '../src/redis-message-bus.ts';
import { ask, replicasOf } from './support/cluster-admin.ts';
import { redisSkipReason } from '../../../test/support/redis-server.ts';
import { startRedisCluster } from '../../../test/support/redis-cluster.ts';

/**
 * Two topics per shard: `redis-cli --cluster create` gives the masters slots 0-5460, 5461-10922 and
 * 10923-16383, and the channels `mcp:bus:t/a`, `t/e` hash to 3945 and 4077, `t/d`, `t/h` to 8140 and
 * 7744, `t/b`, `t/c` to 16138 and 12075.
 */
const TOPICS = ['t/a', 't/e', 't/d', 't/h', 't/b', 't/c'];

test('every replica promoted in turn while messages are published: each bus delivers every message of each topic once, in order', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  await using cluster = await startRedisCluster({ replicas: 1 });
  const clients: { destroy(): void }[] = [];
  t.after(() => {
    for (const client of clients) client.destroy();
  });
  const errors: string[] = [];
  /** A bus on a cluster client of its own, subscribed to every topic; what it was given per topic. */
  const node = async () => {
    const client = createCluster({
      rootNodes: cluster.urls.map((url) => ({ url })),
      defaults: { disableOfflineQueue: true },
    });
    client.on('error', () => {});
    client.on('node-error', () => {});
    await client.connect();
    clients.push(client);
    const bus = new RedisMessageBus(clusterConnection(client), {
      onError: (error) => errors.push(error.message),
      catchUpIntervalMs: 100,
    });
    const seen = new Map<string, number[]>(TOPICS.map((topic) => [topic, []]));
    for (const topic of TOPICS)
      await bus.subscribe(topic, (message) => seen.get(topic)?.push(message.n as number));
    return { bus, seen };
  };
  const a = await node();
  const b = await node();
  try {
    const replicas = await replicasOf(cluster.urls);
    assert.equal(replicas.length, 3);
    let n = 0;
    const publishAll = async (): Promise<void> => {
      n++;
      for (const topic of TOPICS) {
        // A publish refused while its shard has no master is not a message: publish it again.
        for (;;) {
          try {
            await a.bus.publish(topic, { n });
            break;
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      }
    };
    for (const replica of replicas) {
      assert.equal(await ask(replica, ['CLUSTER', 'FAILOVER']), 'OK');
      // Publishing until the replica is a master and a few more rounds: some land while node-redis
      // moves the subscriptions of the shard.
      let after = 0;
      while (after < 10) {
        await publishAll();
        await new Promise((resolve) => setTimeout(resolve, 10));
        if ((await ask(replica, ['INFO', 'replication'])).includes('role:master')) after++;
      }
    }
    await publishAll();
    const expected = Array.from({ length: n }, (_, index) => index + 1);
    const complete = (seen: Map<string, number[]>): boolean =>
      [...seen.values()].every((got) => got.at(-1) === n);
    const deadline = Date.now() + 20_000;
    while (!(complete(a.seen) && complete(b.seen)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    for (const [name, { seen }] of [
      ['A', a],
      ['B', b],
    ] as const)
      for (const topic of TOPICS)
        assert.deepEqual(seen.get(topic), expected, `${name} ${topic} (bus errors: ${errors.join('; ')})`);
  } finally {
    await a.bus.close();
    await b.bus.close();
  }
});

// The official conformance server suite, both legs, through a round-robin HAProxy in front of three
// `mcpwire serve everything --http 0 --redis-cluster <urls>` nodes on a real three-master Redis
// Cluster (issue 24, point 1; the run and what it excuses: test/support/conformance-nodes.ts).

import { test } from 'node:test';
import { runConformanceThroughProxy } from './support/conformance-nodes.ts';
import { redisSkipReason } from './support/redis-server.ts';
import { startRedisCluster } from './support/redis-cluster.ts';
import { haproxySkipReason } from './support/redis-nodes.ts';

test('the conformance server suite, both legs, through HAProxy in round-robin over three serve --redis-cluster nodes', async (t) => {
  const skip = (await redisSkipReason()) ?? (await haproxySkipReason());
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisCluster();
  await runConformanceThroughProxy(t, { clusterUrls: redis.urls });
});

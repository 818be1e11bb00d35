// Issue 24 ("A Redis failover in Cluster mode"): two nodes on a real Redis Cluster of three masters,
// each with a replica, keep serving one session while every replica is promoted in turn
// (`CLUSTER FAILOVER` on it). Every request sent meanwhile is answered, either served (200) or 503
// with Retry-After, none lost or failed otherwise; afterwards both nodes serve the session again
// without a restart, and an elicitation's answer POSTed to the other node still reaches its handler
// (the sharded bus resubscribed, or read it from the topic's log).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { twoRedisNodes } from './support/nodes.ts';
import { answerOf, open, postTo } from './support/mcp-http.ts';
import { SseFrames } from './support/sse.ts';
import { ask, replicasOf } from './support/cluster-admin.ts';
import { redisSkipReason } from '../../../test/support/redis-server.ts';
import { startRedisCluster } from '../../../test/support/redis-cluster.ts';

test('every replica promoted in turn under requests: each request served or 503, the session kept, the bus still crossing nodes', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  await using cluster = await startRedisCluster({ replicas: 1 });
  await using nodes = await twoRedisNodes({ clusterUrls: cluster.urls });
  const headers = await open(nodes.a.handle);
  const replicas = await replicasOf(cluster.urls);
  assert.equal(replicas.length, 3);
  let id = 0;
  /** One tools/call, to A and B in turn: its outcome, `200` or the status (and Retry-After). */
  const request = async (): Promise<string> => {
    id++;
    const handle = id % 2 === 0 ? nodes.a.handle : nodes.b.handle;
    const call = { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } };
    const response = await postTo(handle, call, headers);
    if (response.status === 200) {
      const answer = await answerOf(response);
      return answer.result === undefined ? `200 ${JSON.stringify(answer)}` : '200';
    }
    await response.text();
    return `${response.status}${response.headers.get('retry-after') === null ? '' : ' retry-after'}`;
  };
  // Both nodes have served one call before the first failover starts.
  assert.deepEqual([await request(), await request()], ['200', '200']);
  const outcomes: string[] = [];
  for (const replica of replicas) {
    assert.equal(await ask(replica, ['CLUSTER', 'FAILOVER']), 'OK');
    // Requests one after another until the replica says it is a master: at least one during the
    // failover, whatever its speed.
    do outcomes.push(await request());
    while (!(await ask(replica, ['INFO', 'replication'])).includes('role:master'));
  }
  const during = outcomes.length;
  // Service resumes by itself: requests until both nodes served one in a row (each still 200 or 503).
  while (outcomes.at(-1) !== '200' || outcomes.at(-2) !== '200' || outcomes.length < during + 2)
    outcomes.push(await request());
  const unexpected = outcomes.filter((outcome) => outcome !== '200' && outcome !== '503 retry-after');
  assert.deepEqual(unexpected, [], `outcomes: ${outcomes.join(', ')}`);
  const served = outcomes.slice(0, during).filter((outcome) => outcome === '200').length;
  t.diagnostic(
    `${during} requests during the failovers: ${served} served, ${during - served} 503; ${outcomes.length - during} after`,
  );
  // An answer must cross the (sharded) bus to the handler waiting on the other node: at once, or from
  // the topic's log when its subscription is still moving to a promoted master.
  const call = await postTo(
    nodes.a.handle,
    { jsonrpc: '2.0', id: 'ask', method: 'tools/call', params: { name: 'ask' } },
    headers,
  );
  const reader = new SseFrames(call);
  const elicitation = await reader.nextMessage();
  assert.equal(elicitation.method, 'elicitation/create');
  const answer = await postTo(
    nodes.b.handle,
    { jsonrpc: '2.0', id: elicitation.id, result: { action: 'accept', content: { username: 'u' } } },
    headers,
  );
  assert.equal(answer.status, 202);
  const result = await reader.nextMessage();
  assert.deepEqual((result.result as { content: unknown }).content, [
    { type: 'text', text: 'accept {"username":"u"} on a' },
  ]);
});

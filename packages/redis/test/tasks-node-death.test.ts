// A task whose worker dies (issue 24): two `mcpwire serve everything --http 0 --redis <url>` nodes on
// one real redis-server; a 2026-07-28 task created through node 1 runs there, node 1 is SIGKILLed,
// and a `subscriptions/listen` stream on node 2 that follows the task sees it failed once the dead
// worker's lease lapses; `tasks/get` through node 2 then shows it failed with a message saying so.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statelessRequest } from '../../../test/support/raw-mcp-http.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';
import { startServeNode } from '../../../test/support/redis-nodes.ts';
import { killWorkerAndFollow, WITH_TASKS } from './support/task-listen.ts';

test(
  'a task whose node is SIGKILLed is failed through another node once its lease lapses',
  { timeout: 120_000 },
  async (t) => {
    const skip = await redisSkipReason();
    if (skip !== undefined) return t.skip(skip);
    await using redis = await startRedisServer();
    await using worker = await startServeNode(redis.url);
    await using survivor = await startServeNode(redis.url);
    const created = await statelessRequest(
      worker.url,
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 600, label: 'never' } },
      { capabilities: WITH_TASKS },
    );
    assert.equal(created.message.result?.resultType, 'task', JSON.stringify(created.message));
    const taskId = created.message.result.taskId as string;
    const before = await statelessRequest(
      survivor.url,
      'tasks/get',
      { taskId },
      { capabilities: WITH_TASKS },
    );
    assert.equal(before.message.result?.status, 'working', JSON.stringify(before.message));

    const seen = await killWorkerAndFollow(t, worker, survivor.url, taskId);
    const failed = seen.at(-1)!;
    assert.deepEqual(
      seen.slice(0, -1).map((each) => each.status),
      seen.slice(0, -1).map(() => 'working'),
      'working until it failed',
    );
    assert.equal(failed.status, 'failed');
    assert.match(failed.statusMessage, /the node running it stopped/);

    const after = await statelessRequest(survivor.url, 'tasks/get', { taskId }, { capabilities: WITH_TASKS });
    assert.equal(after.message.result.status, 'failed');
    assert.match(
      after.message.result.statusMessage,
      /the node running it stopped \(its lease was not renewed\)/,
    );
    assert.match(after.message.result.error.message, /the node running it stopped/);
  },
);

// Node death and idempotent tools (issue 24): two `mcpwire serve <rerun-server> --http 0 --redis`
// nodes on one real redis-server. A 2026-07-28 task of a tool that declares `idempotentHint: true`,
// created through node 1, whose node is SIGKILLed while it works, is re-run once by node 2 (which
// claimed it) and completes there; a `subscriptions/listen` stream on node 2 sees it re-run, then
// completed. A tool that does not declare itself idempotent still fails (tasks-node-death.test.ts).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { statelessRequest } from '../../../test/support/raw-mcp-http.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';
import { startServeNode } from '../../../test/support/redis-nodes.ts';
import { killWorkerAndFollow, WITH_TASKS } from './support/task-listen.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'rerun-server.ts');

test(
  'a task of an idempotent tool whose node is SIGKILLed is re-run once by another node and completes',
  { timeout: 120_000 },
  async (t) => {
    const skip = await redisSkipReason();
    if (skip !== undefined) return t.skip(skip);
    await using redis = await startRedisServer();
    await using worker = await startServeNode(redis.url, [FIXTURE]);
    await using survivor = await startServeNode(redis.url, [FIXTURE]);
    const created = await statelessRequest(
      worker.url,
      'tools/call',
      // Long enough that the worker, killed at once, never finishes it; short for the re-run.
      { name: 'idempotent_wait', arguments: { ms: 3000 } },
      { capabilities: WITH_TASKS },
    );
    assert.equal(created.message.result?.resultType, 'task', JSON.stringify(created.message));
    const taskId = created.message.result.taskId as string;

    const seen = await killWorkerAndFollow(t, worker, survivor.url, taskId);
    const last = seen.at(-1)!;
    assert.equal(last.status, 'completed', JSON.stringify(seen));
    assert.deepEqual(last.result.content, [
      { type: 'text', text: `finished by process ${survivor.child.pid}` },
    ]);
    const rerun = seen.find((task) => task.status === 'working' && /re-run/.test(task.statusMessage ?? ''));
    assert.ok(rerun, `a status said the task is re-run: ${JSON.stringify(seen)}`);
    assert.match(rerun.statusMessage, /the node running it stopped; re-running it \(run 2 of 3\)/);

    const after = await statelessRequest(survivor.url, 'tasks/get', { taskId }, { capabilities: WITH_TASKS });
    assert.equal(after.message.result.status, 'completed', JSON.stringify(after.message));
  },
);

// A task whose worker dies (issue 24): two `mcpwire serve everything --http 0 --redis <url>` nodes on
// one real redis-server; a 2026-07-28 task created through node 1 runs there, node 1 is SIGKILLed,
// and a `subscriptions/listen` stream on node 2 that follows the task sees it failed once the dead
// worker's lease lapses; `tasks/get` through node 2 then shows it failed with a message saying so.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { statelessRequest, STATELESS_VERSION, type Loose } from '../../../test/support/raw-mcp-http.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';
import { startServeNode } from '../../../test/support/redis-nodes.ts';
import { SseFrames } from './support/sse.ts';

const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

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

    const exited = once(worker.child, 'exit');
    worker.child.kill('SIGKILL');
    await exited;

    const stop = new AbortController();
    t.after(() => stop.abort());
    const response = await fetch(survivor.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': STATELESS_VERSION,
        'Mcp-Method': 'subscriptions/listen',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'subscriptions/listen',
        params: {
          notifications: { taskIds: [taskId] },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
            'io.modelcontextprotocol/clientCapabilities': WITH_TASKS,
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          },
        },
      }),
      signal: stop.signal,
    });
    assert.equal(response.status, 200);
    const frames = new SseFrames(response);
    const ack = (await frames.nextMessage()) as Loose;
    assert.deepEqual(ack.params.notifications, { taskIds: [taskId] });
    let failed: Loose;
    while (failed === undefined) {
      const message = (await frames.nextMessage()) as Loose;
      if (message.method === 'notifications/tasks' && message.params.status !== 'working')
        failed = message.params;
    }
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

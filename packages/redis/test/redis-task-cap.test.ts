// maxTasksPerRequestor across nodes (issue 24, TASK-21): two nodes (servers of one definition, each
// on its own 127.0.0.1 port) on one real redis-server, `tasks({ maxTasksPerRequestor: 2 })`. The cap
// counts a requestor's tasks that are not terminal on every node together: one task through A, one
// through B, and a third through A is refused -32010; once one ends (cancelled through B) A takes
// another.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tasks, TOO_MANY_TASKS } from 'mcpwire/extensions/tasks';
import { createHttpHandler } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { Server } from 'mcpwire/server';
import { createRedisStores } from '../src/create-redis-stores.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';
import { statelessRequest, type Loose } from '../../../test/support/raw-mcp-http.ts';

const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** One node: its own stores on `url`, a server whose `hold` tool runs until its task ends. */
async function node(url: string): Promise<{ url: string } & AsyncDisposable> {
  const stores = await createRedisStores({ url });
  const extension = tasks({ store: stores.tasks, maxTasksPerRequestor: 2 });
  const server = new Server({ name: 'redis-task-cap', version: '0.0.0' }, { extensions: [extension] });
  server.tool({ name: 'hold', execution: { taskSupport: 'optional' } }, (_args, ctx) => {
    return new Promise((_resolve, reject) =>
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true }),
    );
  });
  const handle = await serveHttp(createHttpHandler(server, { keepAliveMs: 0, ...stores }), { port: 0 });
  return {
    url: handle.url,
    async [Symbol.asyncDispose]() {
      await handle.close();
      await extension.runner.close();
      await stores.close();
    },
  };
}

async function hold(url: string): Promise<Loose> {
  const reply = await statelessRequest(
    url,
    'tools/call',
    { name: 'hold', arguments: {} },
    { capabilities: WITH_TASKS },
  );
  return reply.message;
}

test('maxTasksPerRequestor holds across two nodes on one Redis', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisServer();
  await using a = await node(redis.url);
  await using b = await node(redis.url);
  const first = await hold(a.url);
  assert.equal(first.result?.resultType, 'task', JSON.stringify(first));
  const second = await hold(b.url);
  assert.equal(second.result?.resultType, 'task', JSON.stringify(second));

  const third = await hold(a.url);
  assert.equal(third.error?.code, TOO_MANY_TASKS, `the third is refused: ${JSON.stringify(third)}`);
  assert.deepEqual(third.error.data, { maxTasksPerRequestor: 2 });
  assert.equal((await hold(b.url)).error?.code, TOO_MANY_TASKS, 'through B as well');

  const cancelled = await statelessRequest(
    b.url,
    'tasks/cancel',
    { taskId: first.result.taskId },
    { capabilities: WITH_TASKS },
  );
  assert.equal(cancelled.status, 200, JSON.stringify(cancelled.message));
  const fourth = await hold(a.url);
  assert.equal(fourth.result?.resultType, 'task', `freed once one ended: ${JSON.stringify(fourth)}`);
});

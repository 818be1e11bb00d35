// The tasks extension in the stateless era (S26-TASK-*), over the in-memory pair under a fake
// clock: server-directed creation, tasks/get by status, tasks/update rounds, cancellation, expiry,
// MRTR before a task, and every error code the checklist names.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../jsonrpc/message.ts';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import { Server } from '../../server/server.ts';
import { connectRawPeer } from '../../../test/support/task-peer.ts';
import { CONFIRM, registerHeldTools } from '../../../test/support/task-tools.ts';
import { FakeClock, inputThenTask, tasks, type TaskRunner } from './index.ts';

/** A server with the tasks extension on a fake clock, and tools for every path. */
function createServer(clock = new FakeClock()) {
  const extension = tasks({ clock, defaultTtlMs: 60_000, pollIntervalMs: 500 });
  const server = new Server({ name: 'tasks-stateless', version: '1' }, { extensions: [extension] });
  const { release, stubbornStarted, stubbornDone } = registerHeldTools(server);
  server.tool({ name: 'sync' }, () => 'sync done');
  server.tool({ name: 'twice', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const first = await ctx.elicit(CONFIRM, { key: 'first' });
    const second = await ctx.elicit(CONFIRM, { key: 'second' });
    return `${first.action} then ${second.action}`;
  });
  server.tool({ name: 'tool_error', execution: { taskSupport: 'required' } }, () => {
    throw new Error('the tool failed');
  });
  server.tool({ name: 'rpc_error', execution: { taskSupport: 'optional' } }, () => {
    throw new RpcError(-32603, 'broken inside', { why: 'test' });
  });
  server.tool(
    { name: 'ask_then_task', execution: { taskSupport: 'required' } },
    inputThenTask(async (_args, ctx, continueAsTask) => {
      const answer = await ctx.elicit(CONFIRM, { key: 'before' });
      return continueAsTask(async (taskCtx) => {
        const later = await taskCtx.elicit(CONFIRM, { key: 'inside' });
        return `${answer.action}, then ${later.action}`;
      });
    }),
  );
  return { server, clock, runner: extension.runner, release, stubbornStarted, stubbornDone };
}

/** Lets the runner's background steps (store writes, the work's awaits) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Resolves at the runner's next change of `taskId`; `off` stops listening. */
function nextChange(runner: TaskRunner, taskId: string): { changed: Promise<void>; off: () => void } {
  let off!: () => void;
  const changed = new Promise<void>((resolve) => {
    off = runner.onChange((id) => {
      if (id !== taskId) return;
      off();
      resolve();
    });
  });
  return { changed, off };
}

/**
 * Reads the task with `get` until `done` holds, reading again after each change the runner makes
 * to it: no polling loop and no timing (the listener is set before each read, so no change is missed).
 */
async function until(
  runner: TaskRunner,
  get: () => Promise<JsonObject>,
  done: (task: JsonObject) => boolean,
): Promise<JsonObject> {
  let task = await get();
  for (;;) {
    if (done(task)) return task;
    const next = nextChange(runner, task.taskId as string);
    task = await get();
    if (done(task)) {
      next.off();
      return task;
    }
    await next.changed;
    task = await get();
  }
}

const rejectsWith = (code: number) => (error: unknown) => error instanceof RpcError && error.code === code;

test('S26-TASK-1/5: discover declares the extension, not capabilities.tasks; a task-capable call returns a flat CreateTaskResult', async () => {
  const { server, runner, release } = createServer();
  const client = connectRawPeer(server);
  const discovered = await client.stateless('server/discover');
  const capabilities = discovered.capabilities as JsonObject;
  assert.deepEqual((capabilities.extensions as JsonObject)['io.modelcontextprotocol/tasks'], {});
  assert.equal(capabilities.tasks, undefined);
  const created = await client.stateless('tools/call', { name: 'held', arguments: {} });
  assert.equal(created.resultType, 'task');
  assert.equal(created.status, 'working');
  assert.equal(created.ttlMs, 60_000);
  assert.equal(created.pollIntervalMs, 500);
  assert.equal(created.createdAt, '2026-01-01T00:00:00.000Z');
  for (const absent of ['task', 'ttl', 'pollInterval', 'requestState', 'result', 'inputRequests'])
    assert.equal(absent in created, false, `no ${absent}`);
  // S26-TASK-6: a tasks/get right after creation finds it.
  const working = await client.stateless('tasks/get', { taskId: created.taskId as string });
  assert.equal(working.resultType, 'complete');
  assert.equal(working.status, 'working');
  assert.equal('result' in working, false);
  release();
  const done = await until(
    runner,
    () => client.stateless('tasks/get', { taskId: created.taskId as string }),
    (task) => task.status === 'completed',
  );
  assert.deepEqual(done.result, { content: [{ type: 'text', text: 'held done' }] });
  await server.close();
});

test('S26-TASK-2/3: no extension on this request, or a sync tool, or a handshake-era task param: a plain result', async () => {
  const { server } = createServer();
  const client = connectRawPeer(server);
  const plain = await client.stateless('tools/call', { name: 'sync', arguments: {}, task: { ttl: 1000 } });
  assert.equal(plain.resultType, 'complete');
  assert.deepEqual(plain.content, [{ type: 'text', text: 'sync done' }]);
  const rpc = client.stateless('tools/call', { name: 'rpc_error', arguments: {} }, { elicitation: {} });
  await assert.rejects(rpc, rejectsWith(-32603));
  // A required tool cannot run without the extension: -32021 naming it.
  await assert.rejects(
    client.stateless('tools/call', { name: 'tool_error', arguments: {} }, {}),
    (error: unknown) =>
      error instanceof RpcError &&
      error.code === -32021 &&
      JSON.stringify(error.data) ===
        '{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}',
  );
  await server.close();
});

test('S26-TASK-4/12: tasks/* without the extension are -32021; unknown ids -32602; tasks/result and tasks/list -32601', async () => {
  const { server } = createServer();
  const client = connectRawPeer(server);
  for (const [method, params] of [
    ['tasks/get', { taskId: 'x' }],
    ['tasks/update', { taskId: 'x', inputResponses: {} }],
    ['tasks/cancel', { taskId: 'x' }],
  ] as const)
    await assert.rejects(client.stateless(method, params, {}), rejectsWith(-32021), method);
  for (const method of ['tasks/get', 'tasks/cancel'])
    await assert.rejects(client.stateless(method, { taskId: 'nope' }), rejectsWith(-32602), method);
  await assert.rejects(
    client.stateless('tasks/update', { taskId: 'nope', inputResponses: {} }),
    rejectsWith(-32602),
  );
  await assert.rejects(client.stateless('tasks/result', { taskId: 'nope' }), rejectsWith(-32601));
  await assert.rejects(client.stateless('tasks/list', {}), rejectsWith(-32601));
  await server.close();
});

test('S26-TASK-7/10: a task that needs input twice parks in input_required each time and resumes on tasks/update', async () => {
  const { server, runner } = createServer();
  const client = connectRawPeer(server);
  const { taskId } = (await client.stateless('tools/call', { name: 'twice', arguments: {} })) as {
    taskId: string;
  };
  const get = () => client.stateless('tasks/get', { taskId });
  const first = await until(runner, get, (task) => task.status === 'input_required');
  assert.deepEqual(first.inputRequests, { first: { method: 'elicitation/create', params: CONFIRM } });
  // An unknown key is ignored; the ack is empty.
  const ignored = await client.stateless('tasks/update', {
    taskId,
    inputResponses: { bogus: { action: 'accept' } },
  });
  assert.deepEqual(Object.keys(ignored).sort(), ['_meta', 'resultType']);
  assert.equal((await get()).status, 'input_required');
  await client.stateless('tasks/update', {
    taskId,
    inputResponses: { first: { action: 'accept', content: { confirm: true } } },
  });
  const second = await until(
    runner,
    get,
    (task) => task.status === 'input_required' && 'second' in (task.inputRequests as JsonObject),
  );
  assert.deepEqual(Object.keys(second.inputRequests as JsonObject), ['second']);
  await client.stateless('tasks/update', { taskId, inputResponses: { second: { action: 'decline' } } });
  const done = await until(runner, get, (task) => task.status === 'completed');
  assert.deepEqual(done.result, { content: [{ type: 'text', text: 'accept then decline' }] });
  await server.close();
});

test('S26-TASK-8: a tool error completes the task with isError; a JSON-RPC error fails it with error', async () => {
  const { server, runner } = createServer();
  const client = connectRawPeer(server);
  const toolError = (await client.stateless('tools/call', { name: 'tool_error', arguments: {} })) as {
    taskId: string;
  };
  const completed = await until(
    runner,
    () => client.stateless('tasks/get', toolError),
    (task) => task.status !== 'working',
  );
  assert.equal(completed.status, 'completed');
  assert.equal((completed.result as JsonObject).isError, true);
  const rpcError = (await client.stateless('tools/call', { name: 'rpc_error', arguments: {} })) as {
    taskId: string;
  };
  const failed = await until(
    runner,
    () => client.stateless('tasks/get', rpcError),
    (task) => task.status !== 'working',
  );
  assert.equal(failed.status, 'failed');
  assert.deepEqual(failed.error, { code: -32603, message: 'broken inside', data: { why: 'test' } });
  assert.equal('result' in failed, false);
  assert.equal(failed.statusMessage, 'broken inside');
  await server.close();
});

test('S26-TASK-11: cancel acks empty, settles cancelled, stays cancelled when the work finishes later, and is idempotent', async () => {
  const { server, release, stubbornStarted, stubbornDone } = createServer();
  const client = connectRawPeer(server);
  const { taskId } = (await client.stateless('tools/call', { name: 'stubborn', arguments: {} })) as {
    taskId: string;
  };
  await stubbornStarted;
  const ack = await client.stateless('tasks/cancel', { taskId });
  assert.deepEqual(Object.keys(ack).sort(), ['_meta', 'resultType']);
  assert.equal(ack.resultType, 'complete');
  release();
  await stubbornDone;
  await settle();
  const after = await client.stateless('tasks/get', { taskId });
  assert.equal(after.status, 'cancelled', 'the work completed after the cancel: still cancelled');
  assert.equal('result' in after, false);
  const again = await client.stateless('tasks/cancel', { taskId });
  assert.equal(again.resultType, 'complete');
  await server.close();
});

test('S26-TASK-9: a task stays reachable for its whole ttl and is gone after it (fake clock)', async () => {
  const { server, clock } = createServer();
  const client = connectRawPeer(server);
  const { taskId } = (await client.stateless('tools/call', { name: 'held', arguments: {} })) as {
    taskId: string;
  };
  clock.advance(60_000);
  assert.equal((await client.stateless('tasks/get', { taskId })).status, 'working');
  clock.advance(1);
  await settle();
  await assert.rejects(client.stateless('tasks/get', { taskId }), rejectsWith(-32602));
  await server.close();
});

test('S26-TASK-6: input before the task goes through MRTR rounds, then the task is created, without requestState', async () => {
  const { server, runner } = createServer();
  const client = connectRawPeer(server);
  const round = await client.stateless('tools/call', { name: 'ask_then_task', arguments: {} });
  assert.equal(round.resultType, 'input_required');
  assert.equal('taskId' in round, false);
  assert.deepEqual(Object.keys(round.inputRequests as JsonObject), ['before']);
  const created = await client.stateless('tools/call', {
    name: 'ask_then_task',
    arguments: {},
    inputResponses: { before: { action: 'accept', content: { confirm: true } } },
    requestState: round.requestState,
  });
  assert.equal(created.resultType, 'task');
  assert.equal('requestState' in created, false);
  const taskId = created.taskId as string;
  const parked = await until(
    runner,
    () => client.stateless('tasks/get', { taskId }),
    (task) => task.status === 'input_required',
  );
  assert.deepEqual(Object.keys(parked.inputRequests as JsonObject), ['inside']);
  await client.stateless('tasks/update', { taskId, inputResponses: { inside: { action: 'cancel' } } });
  const done = await until(
    runner,
    () => client.stateless('tasks/get', { taskId }),
    (task) => task.status === 'completed',
  );
  assert.deepEqual(done.result, { content: [{ type: 'text', text: 'accept, then cancel' }] });
  await server.close();
});

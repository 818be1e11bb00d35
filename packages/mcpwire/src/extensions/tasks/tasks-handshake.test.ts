// The tasks extension in the handshake era (2025-11-25's experimental core tasks, TASK-*), over the
// in-memory pair under a fake clock: the capability, `task` in the params, blocking tasks/result,
// input through real requests tagged with the related task, status notifications, list, cancel,
// expiry, and the error codes TASK-3 and TASK-18 give.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../jsonrpc/message.ts';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import { Server } from '../../server/server.ts';
import { connectRawPeer } from '../../../test/support/task-peer.ts';
import { CONFIRM, registerHeldTools } from '../../../test/support/task-tools.ts';
import { FakeClock, tasks } from './index.ts';

const RELATED = 'io.modelcontextprotocol/related-task';
function createServer(options: { pageSize?: number } = {}) {
  const clock = new FakeClock();
  const extension = tasks({
    clock,
    defaultTtlMs: 60_000,
    maxTtlMs: 120_000,
    pollIntervalMs: 250,
    ...options,
  });
  const server = new Server({ name: 'tasks-handshake', version: '1' }, { extensions: [extension] });
  const { release, stubbornStarted, stubbornDone } = registerHeldTools(server);
  server.tool({ name: 'plain' }, () => 'plain done');
  server.tool({ name: 'twice', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const first = await ctx.elicit(CONFIRM);
    const second = await ctx.elicit(CONFIRM);
    return `${first.action} then ${second.action}`;
  });
  server.tool({ name: 'progress', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    await ctx.sendProgress(1, { total: 2 });
    await ctx.sendProgress(1, { total: 2 }); // not increasing: dropped (PROG-3)
    await ctx.sendProgress(2, { total: 2 });
    return 'progressed';
  });
  server.tool({ name: 'logs', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    await ctx.log('info', { step: 1 }, 'worker');
    await ctx.log('debug', 'below the chosen level');
    return 'logged';
  });
  server.tool({ name: 'tool_error', execution: { taskSupport: 'required' } }, () => {
    throw new Error('the tool failed');
  });
  server.tool({ name: 'rpc_error', execution: { taskSupport: 'optional' } }, () => {
    throw new RpcError(-32603, 'broken inside');
  });
  return { server, clock, release, stubbornStarted, stubbornDone };
}

const rejectsWith = (code: number) => (error: unknown) => error instanceof RpcError && error.code === code;
const settle = () => new Promise((resolve) => setImmediate(resolve));
const taskOf = (created: JsonObject) => created.task as JsonObject & { taskId: string };

test('TASK-1/3: initialize declares tasks (list, cancel, tools.call) and tools/list shows taskSupport', async () => {
  const { server } = createServer();
  const client = connectRawPeer(server);
  const init = await client.initialize();
  assert.deepEqual((init.capabilities as JsonObject).tasks, {
    cancel: {},
    requests: { tools: { call: {} } },
    list: {},
  });
  const { tools } = (await client.peer.request('tools/list', {})) as { tools: JsonObject[] };
  assert.deepEqual(tools.find((tool) => tool.name === 'held')?.execution, { taskSupport: 'optional' });
  await server.close();
});

test('TASK-5/10/12/14: a task-augmented call returns {task}; tasks/result blocks until the result, with related-task _meta', async () => {
  const { server, release } = createServer();
  const client = connectRawPeer(server);
  await client.initialize();
  const created = await client.peer.request('tools/call', {
    name: 'held',
    arguments: {},
    task: { ttl: 5000 },
  });
  const task = taskOf(created);
  assert.equal(task.status, 'working');
  assert.equal(task.ttl, 5000);
  assert.equal(task.pollInterval, 250);
  assert.equal(task.createdAt, '2026-01-01T00:00:00.000Z');
  assert.equal('content' in created, false);
  const got = await client.peer.request('tasks/get', { taskId: task.taskId });
  assert.equal(got.status, 'working');
  assert.equal(got.ttl, 5000);
  let isBlocked = true;
  const result = client.peer
    .request('tasks/result', { taskId: task.taskId })
    .finally(() => (isBlocked = false));
  await settle();
  assert.equal(isBlocked, true, 'tasks/result waits while the task works');
  release();
  const payload = await result;
  assert.deepEqual(payload.content, [{ type: 'text', text: 'held done' }]);
  assert.deepEqual((payload._meta as JsonObject)[RELATED], { taskId: task.taskId });
  // TASK-14: status changes as notifications, each the whole task, without related-task _meta (the
  // creation itself is in the CreateTaskResult).
  await settle();
  const statuses = client.notifications.filter((n) => n.method === 'notifications/tasks/status');
  assert.deepEqual(
    statuses.map((n) => n.params!.status),
    ['completed'],
  );
  assert.ok(statuses.every((n) => n.params!.taskId === task.taskId && n.params!._meta === undefined));
  await server.close();
});

test('TASK-3/4: required without a task and a task for a tool without support are -32601; before 2025-11-25 `task` is ignored', async () => {
  const { server } = createServer();
  const client = connectRawPeer(server);
  await client.initialize();
  await assert.rejects(
    client.peer.request('tools/call', { name: 'tool_error', arguments: {} }),
    rejectsWith(-32601),
  );
  await assert.rejects(
    client.peer.request('tools/call', { name: 'plain', arguments: {}, task: {} }),
    rejectsWith(-32601),
  );
  await assert.rejects(
    client.peer.request('tools/call', { name: 'nope', arguments: {}, task: {} }),
    rejectsWith(-32602),
  );
  const older = connectRawPeer(server);
  await older.peer.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'old', version: '1' },
  });
  await older.peer.notify('notifications/initialized');
  const plain = await older.peer.request('tools/call', { name: 'tool_error', arguments: {}, task: {} });
  assert.equal(plain.isError, true, 'ran at once, as a plain call');
  await server.close();
});

test('TASK-9/15: a task that needs input twice asks with real requests tagged with its id, input_required meanwhile', async () => {
  const { server } = createServer();
  const seen: string[] = [];
  let taskId = '';
  const client: ReturnType<typeof connectRawPeer> = connectRawPeer(server, async (request) => {
    const meta = (request.params as JsonObject)._meta as JsonObject;
    assert.deepEqual(meta[RELATED], { taskId });
    const task = await client.peer.request('tasks/get', { taskId });
    seen.push(`${request.method}:${String(task.status)}`);
    return { action: seen.length === 1 ? 'accept' : 'decline' };
  });
  await client.initialize({ elicitation: {} });
  taskId = taskOf(await client.peer.request('tools/call', { name: 'twice', arguments: {}, task: {} })).taskId;
  const payload = await client.peer.request('tasks/result', { taskId });
  assert.deepEqual(payload.content, [{ type: 'text', text: 'accept then decline' }]);
  assert.deepEqual(seen, ['elicitation/create:input_required', 'elicitation/create:input_required']);
  assert.equal((await client.peer.request('tasks/get', { taskId })).status, 'completed');
  await server.close();
});

test('TASK-12/13: a tool error fails the task and tasks/result returns that result; a JSON-RPC error is returned as the error', async () => {
  const { server } = createServer();
  const client = connectRawPeer(server);
  await client.initialize();
  const failing = taskOf(
    await client.peer.request('tools/call', { name: 'tool_error', arguments: {}, task: {} }),
  );
  const payload = await client.peer.request('tasks/result', { taskId: failing.taskId });
  assert.equal(payload.isError, true);
  const got = await client.peer.request('tasks/get', { taskId: failing.taskId });
  assert.equal(got.status, 'failed');
  assert.equal(got.statusMessage, 'the tool failed');
  const broken = taskOf(
    await client.peer.request('tools/call', { name: 'rpc_error', arguments: {}, task: {} }),
  );
  await assert.rejects(
    client.peer.request('tasks/result', { taskId: broken.taskId }),
    (error: unknown) =>
      error instanceof RpcError && error.code === -32603 && error.message === 'broken inside',
  );
  await server.close();
});

test('TASK-17/18: cancel returns the cancelled task, beats a later completion; cancelling again, or an unknown id, is -32602', async () => {
  const { server, release, stubbornStarted, stubbornDone } = createServer();
  const client = connectRawPeer(server);
  await client.initialize();
  const { taskId } = taskOf(
    await client.peer.request('tools/call', { name: 'stubborn', arguments: {}, task: {} }),
  );
  const result = client.peer.request('tasks/result', { taskId }).catch((error: unknown) => error);
  await stubbornStarted;
  const cancelled = await client.peer.request('tasks/cancel', { taskId });
  assert.equal(cancelled.status, 'cancelled');
  release();
  await stubbornDone;
  await settle();
  const after = await client.peer.request('tasks/get', { taskId });
  assert.equal(after.status, 'cancelled', 'the work completed after the cancel: still cancelled');
  assert.ok(rejectsWith(-32602)(await result), 'a cancelled task has no result');
  await assert.rejects(client.peer.request('tasks/cancel', { taskId }), rejectsWith(-32602));
  for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'])
    await assert.rejects(client.peer.request(method, { taskId: 'unknown' }), rejectsWith(-32602), method);
  await server.close();
});

test('TASK-10: ttl is capped at maxTtlMs; a task is kept for its ttl, then gone, and a waiting tasks/result ends (fake clock)', async () => {
  const { server, clock } = createServer();
  const client = connectRawPeer(server);
  await client.initialize();
  const capped = taskOf(
    await client.peer.request('tools/call', { name: 'held', arguments: {}, task: { ttl: 1e9 } }),
  );
  assert.equal(capped.ttl, 120_000);
  const { taskId } = taskOf(
    await client.peer.request('tools/call', { name: 'held', arguments: {}, task: { ttl: 1000 } }),
  );
  const waiting = client.peer.request('tasks/result', { taskId }).catch((error: unknown) => error);
  clock.advance(1000);
  assert.equal((await client.peer.request('tasks/get', { taskId })).status, 'working');
  clock.advance(1);
  assert.ok(rejectsWith(-32602)(await waiting), 'the wait ends with the task gone');
  await assert.rejects(client.peer.request('tasks/get', { taskId }), rejectsWith(-32602));
  await server.close();
});

test('TASK-16: tasks/list pages with an opaque cursor; a foreign cursor is -32602', async () => {
  const { server } = createServer({ pageSize: 2 });
  const client = connectRawPeer(server);
  await client.initialize();
  const ids: string[] = [];
  for (let i = 0; i < 3; i++)
    ids.push(
      taskOf(await client.peer.request('tools/call', { name: 'held', arguments: {}, task: {} })).taskId,
    );
  const first = await client.peer.request('tasks/list', {});
  assert.equal((first.tasks as JsonObject[]).length, 2);
  const second = await client.peer.request('tasks/list', { cursor: first.nextCursor as string });
  assert.equal(second.nextCursor, undefined);
  assert.deepEqual(
    [...(first.tasks as JsonObject[]), ...(second.tasks as JsonObject[])].map((task) => task.taskId),
    ids,
  );
  await assert.rejects(client.peer.request('tasks/list', { cursor: 'made-up' }), rejectsWith(-32602));
  await server.close();
});

test('TASK-15: progress of a task keeps the request’s token and carries the related task', async () => {
  const { server } = createServer();
  const client = connectRawPeer(server);
  await client.initialize();
  const created = await client.peer.request('tools/call', {
    name: 'progress',
    arguments: {},
    task: {},
    _meta: { progressToken: 'p-1' },
  });
  const { taskId } = taskOf(created);
  await client.peer.request('tasks/result', { taskId });
  await settle();
  const progress = client.notifications.filter((n) => n.method === 'notifications/progress');
  assert.deepEqual(
    progress.map((n) => n.params),
    [1, 2].map((value) => ({
      progressToken: 'p-1',
      progress: value,
      total: 2,
      _meta: { [RELATED]: { taskId } },
    })),
  );
  await server.close();
});

test("TASK-15: a task's log messages carry the related task and honour the connection's logging/setLevel", async () => {
  const { server } = createServer();
  const client = connectRawPeer(server);
  await client.initialize();
  await client.peer.request('logging/setLevel', { level: 'info' });
  const task = taskOf(await client.peer.request('tools/call', { name: 'logs', arguments: {}, task: {} }));
  const payload = await client.peer.request('tasks/result', { taskId: task.taskId });
  assert.deepEqual(payload.content, [{ type: 'text', text: 'logged' }]);
  await settle();
  const logs = client.notifications.filter((n) => n.method === 'notifications/message');
  assert.deepEqual(
    logs.map((n) => n.params),
    [{ level: 'info', logger: 'worker', data: { step: 1 }, _meta: { [RELATED]: { taskId: task.taskId } } }],
  );
  await server.close();
});

// `notifications/tasks` on a stateless-era `subscriptions/listen` stream (S26-TASK-13), over the
// in-memory pair: the ack echoes only the ids the caller may follow, every status change arrives as
// a full DetailedTask tagged with the subscription, nothing after the terminal one, nothing on a
// stream that did not ask, and -32021 for `taskIds` without the extension (S26-TASK-4).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject, JsonRpcNotification } from '../../jsonrpc/message.ts';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import { Server } from '../../server/server.ts';
import { connectRawPeer, statelessMeta, WITH_TASKS } from '../../../test/support/task-peer.ts';
import { FakeClock, tasks } from './index.ts';

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';
const CONFIRM = {
  mode: 'form',
  message: 'Sure?',
  requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
} as const;

function createServer() {
  const extension = tasks({ clock: new FakeClock(), defaultTtlMs: 60_000, pollIntervalMs: 500 });
  const server = new Server({ name: 'tasks-listen', version: '1' }, { extensions: [extension] });
  server.tool({ name: 'confirm', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const answer = await ctx.elicit(CONFIRM, { key: 'sure' });
    return `answered ${answer.action}`;
  });
  return { server, runner: extension.runner };
}

/** Lets queued deliveries run: a bounded number of turns of the event loop, no timing. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 10_000 && !condition(); turn++)
    await new Promise((resolve) => setImmediate(resolve));
  assert.ok(condition(), 'the expected notifications arrived');
}

const ofStream = (id: number | string) => (notification: JsonRpcNotification) =>
  (notification.params?._meta as JsonObject | undefined)?.[SUBSCRIPTION] === id;

test('S26-TASK-13: a listen for taskIds gets the ack with the accepted ids, then each status as a full DetailedTask', async () => {
  const { server, runner } = createServer();
  const client = connectRawPeer(server);
  const created = await client.stateless('tools/call', { name: 'confirm', arguments: {} });
  const taskId = created.taskId as string;
  const listen = client.peer.request('subscriptions/listen', {
    notifications: { taskIds: [taskId, 'no-such-task', taskId] },
    _meta: statelessMeta(WITH_TASKS),
  });
  await until(() =>
    client.notifications.some((n) => n.method === 'notifications/subscriptions/acknowledged'),
  );
  const ack = client.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged')!;
  // The stream's id is the listen request's own (S26-SUB-3).
  const streamId = (ack.params!._meta as JsonObject)[SUBSCRIPTION] as number;
  assert.deepEqual(ack.params!.notifications, { taskIds: [taskId] }, 'unknown ids are left out');
  const onStream = () => client.notifications.filter(ofStream(streamId));
  const tasksSeen = () => onStream().filter((n) => n.method === 'notifications/tasks');
  await until(() => tasksSeen().some((n) => n.params!.status === 'input_required'));
  await client.stateless('tasks/update', {
    taskId,
    inputResponses: { sure: { action: 'accept', content: { confirm: true } } },
  });
  assert.equal((await runner.waitForTerminal(taskId))?.status, 'completed');
  await until(() => tasksSeen().some((n) => n.params!.status === 'completed'));
  // S26-SUB-2: the ack is the stream's first message.
  assert.equal(onStream()[0]!.method, 'notifications/subscriptions/acknowledged');
  const statuses = tasksSeen().map((n) => n.params!.status);
  assert.equal(statuses.at(-1), 'completed');
  assert.ok(
    statuses.includes('input_required') && statuses.indexOf('input_required') < statuses.indexOf('completed'),
  );
  const parked = tasksSeen().find((n) => n.params!.status === 'input_required')!.params!;
  assert.deepEqual(parked.inputRequests, { sure: { method: 'elicitation/create', params: CONFIRM } });
  const done = tasksSeen().at(-1)!.params!;
  assert.equal(done.taskId, taskId);
  assert.deepEqual(done.result, { content: [{ type: 'text', text: 'answered accept' }] });
  assert.equal('resultType' in done, false, 'a notification, not a tasks/get result');
  assert.equal(done.ttlMs, 60_000);
  assert.equal(done.pollIntervalMs, 500);
  // Nothing after the terminal status; the stream ends gracefully when the server closes.
  const count = tasksSeen().length;
  await server.close();
  const result = await listen;
  assert.equal((result._meta as JsonObject)[SUBSCRIPTION], streamId);
  assert.equal(tasksSeen().length, count);
});

test('S26-SUB-1: a listen that did not ask for taskIds hears nothing of tasks; the ack has no taskIds', async () => {
  const { server, runner } = createServer();
  const client = connectRawPeer(server);
  const listen = client.stateless('subscriptions/listen', { notifications: { toolsListChanged: true } });
  await until(() =>
    client.notifications.some((n) => n.method === 'notifications/subscriptions/acknowledged'),
  );
  const ack = client.notifications.find((n) => n.method === 'notifications/subscriptions/acknowledged')!;
  assert.deepEqual(ack.params!.notifications, { toolsListChanged: true });
  const { taskId } = (await client.stateless('tools/call', { name: 'confirm', arguments: {} })) as {
    taskId: string;
  };
  let status: string | undefined;
  const off = runner.onChange((id, record) => id === taskId && (status = record?.status));
  // Read once after subscribing: the move may have happened before the subscription.
  status ??= (await runner.get(taskId))?.status;
  await until(() => status === 'input_required');
  off();
  await client.stateless('tasks/update', { taskId, inputResponses: { sure: { action: 'decline' } } });
  assert.equal((await runner.waitForTerminal(taskId))?.status, 'completed');
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    client.notifications.filter((n) => n.method === 'notifications/tasks'),
    [],
  );
  await server.close();
  await listen;
});

test('S26-TASK-4: a listen asking for taskIds without declaring the extension is -32021 naming it; a malformed taskIds is -32602', async () => {
  const { server } = createServer();
  const client = connectRawPeer(server);
  await assert.rejects(
    client.stateless('subscriptions/listen', { notifications: { taskIds: ['x'] } }, { elicitation: {} }),
    (error: unknown) =>
      error instanceof RpcError &&
      error.code === -32021 &&
      JSON.stringify(error.data) ===
        '{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}',
  );
  await assert.rejects(
    client.stateless('subscriptions/listen', { notifications: { taskIds: 'x' } }),
    (error: unknown) => error instanceof RpcError && error.code === -32602,
  );
  assert.deepEqual(
    client.notifications.filter((n) => n.method === 'notifications/subscriptions/acknowledged'),
    [],
    'a refused listen sends no ack',
  );
  await server.close();
});

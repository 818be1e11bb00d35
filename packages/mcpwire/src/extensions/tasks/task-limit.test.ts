// TASK-21: a limit on the tasks one requestor has that are not terminal, under a fake clock: the
// refusal's code and data, per-requestor counting, and the slot freed by completion, cancellation
// and expiry; then the same refusal on the wire in both eras.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import { Server } from '../../server/server.ts';
import { connectRawPeer } from '../../../test/support/task-peer.ts';
import {
  FakeClock,
  MemoryTaskStore,
  TaskRunner,
  tasks,
  TOO_MANY_TASKS,
  type StartTaskOptions,
  type TaskOutcome,
} from './index.ts';

const settle = () => new Promise((resolve) => setImmediate(resolve));

const isTooMany = (limit: number) => (error: unknown) =>
  error instanceof RpcError &&
  error.code === TOO_MANY_TASKS &&
  JSON.stringify(error.data) === JSON.stringify({ maxTasksPerRequestor: limit });

/** A runner whose tasks run until the test finishes them one by one (`finish()`) or they are aborted. */
function createRunner(maxTasksPerRequestor?: number) {
  const clock = new FakeClock();
  const store = new MemoryTaskStore();
  const runner = new TaskRunner({
    clock,
    store,
    defaultTtlMs: 1000,
    ...(maxTasksPerRequestor === undefined ? {} : { maxTasksPerRequestor }),
  });
  const finishers: Array<() => void> = [];
  const start = (owner?: string) =>
    runner.start(
      (control) =>
        new Promise<TaskOutcome>((resolve, reject) => {
          finishers.push(() => resolve({ result: { content: [] } }));
          control.signal.addEventListener('abort', () => reject(control.signal.reason as Error));
        }),
      { era: 'stateless', requestMethod: 'tools/call', owner } satisfies StartTaskOptions,
    );
  return { runner, clock, store, start, finish: () => finishers.shift()?.() };
}

test('TASK-21: a requestor at the limit is refused with -32010 and nothing is stored; others are not affected', async () => {
  const { runner, store, start } = createRunner(2);
  await start('alice');
  await start('alice');
  await assert.rejects(start('alice'), isTooMany(2));
  assert.equal(store.size, 2, 'the refused task was never stored');
  await start('bob');
  await start(); // unauthenticated callers count as one requestor of their own
  await start();
  await assert.rejects(start(), isTooMany(2));
  assert.equal(store.size, 5);
  await runner.close();
});

test('TASK-21: completing, cancelling or expiring a task frees its slot; a terminal task does not count', async () => {
  const { runner, clock, start, finish } = createRunner(1);
  await start('alice');
  await assert.rejects(start('alice'), isTooMany(1));
  finish();
  await settle();
  const second = await start('alice');
  await assert.rejects(start('alice'), isTooMany(1));
  assert.equal((await runner.cancel(second.taskId, { owner: 'alice' }))?.record.status, 'cancelled');
  await start('alice');
  await assert.rejects(start('alice'), isTooMany(1));
  clock.advance(1001); // the ttl of 1000 ms is over: expired and deleted
  await settle();
  await start('alice');
  await runner.close();
});

test('TASK-21: the default limit is 100 per requestor', async () => {
  const { runner, start } = createRunner();
  for (let index = 0; index < 100; index++) await start('alice');
  await assert.rejects(start('alice'), isTooMany(100));
  await runner.close();
});

/** A server allowing one task per requestor, with a tool that runs until the test releases it. */
function createServer() {
  const extension = tasks({ clock: new FakeClock(), maxTasksPerRequestor: 1 });
  const server = new Server({ name: 'task-limit', version: '1' }, { extensions: [extension] });
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  server.tool({ name: 'slow', execution: { taskSupport: 'optional' } }, async () => {
    await released;
    return 'slow done';
  });
  return { server, runner: extension.runner, release };
}

test('TASK-21: over the wire, a second task-augmented call is an error response -32010 in both eras; a finished task frees the slot', async () => {
  for (const era of ['handshake', 'stateless'] as const) {
    const { server, runner, release } = createServer();
    const client = connectRawPeer(server);
    const call =
      era === 'handshake'
        ? () => client.peer.request('tools/call', { name: 'slow', arguments: {}, task: {} })
        : () => client.stateless('tools/call', { name: 'slow', arguments: {} });
    if (era === 'handshake') await client.initialize();
    const created = await call();
    assert.ok(era === 'handshake' ? created.task : created.resultType === 'task', `${era}: a task`);
    await assert.rejects(call(), isTooMany(1), era);
    release();
    const taskId = (era === 'handshake' ? (created.task as { taskId: string }) : created).taskId as string;
    assert.equal((await runner.waitForTerminal(taskId))?.status, 'completed');
    const again = await call();
    assert.ok(era === 'handshake' ? again.task : again.resultType === 'task', `${era}: a task again`);
    await server.close();
  }
});

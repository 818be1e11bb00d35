// TasksClient and TaskHandle against a real Server with the tasks extension, over the in-memory
// channel pair, in both eras: creation, status (notified and polled under a fake clock), progress,
// input answered through the client's handlers, cancel, a failed task, and resuming by id.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '../../../client/client.ts';
import type { ClientOptions } from '../../../client/client-options.ts';
import { InvalidResultError } from '../../../client/errors.ts';
import { RpcError } from '../../../jsonrpc/rpc-error.ts';
import { Server } from '../../../server/server.ts';
import type { Channel } from '../../../transports/channel.ts';
import { createMemoryPair } from '../../../transports/memory.ts';
import { FakeClock } from '../task-clock.ts';
import { tasks } from '../tasks-server.ts';
import { TaskCancelledError } from './task-errors.ts';
import type { TaskHandle } from './task-handle.ts';
import { TasksClient } from './tasks-client.ts';

const ERAS = ['handshake', 'stateless'] as const;
type Era = (typeof ERAS)[number];

/** A server whose `gated` tool runs until the test opens its gate; `ask` elicits; `broken` fails. */
function createServer() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const server = new Server(
    { name: 'tasks-test', version: '1' },
    { extensions: [tasks({ pollIntervalMs: 500 })] },
  );
  const execution = { taskSupport: 'optional' } as const;
  server.tool({ name: 'gated', execution }, async (_args, ctx) => {
    await ctx.sendProgress(1, { total: 2, message: 'waiting' });
    await gate;
    return `done ${ctx.era}`;
  });
  server.tool({ name: 'ask', execution }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return `hello ${String(answer.content?.name)}`;
  });
  server.tool({ name: 'broken', execution }, () => {
    throw new RpcError(-32050, 'the backend is down');
  });
  server.tool({ name: 'plain' }, () => 'at once');
  return { server, open: () => open() };
}

async function connect(
  server: Server,
  era: Era,
  options: ClientOptions = {},
  principal?: string,
): Promise<Client> {
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(principal === undefined ? serverEnd : authenticatedAs(serverEnd, principal));
  const client = new Client(
    { name: 'tasks-client-test', version: '1' },
    { era, eraCache: false, extensions: [tasks()], ...options },
  );
  await client.connect(clientEnd);
  return client;
}

/** The server's end of a connection whose every request comes from `principal` (as HTTP auth would say). */
function authenticatedAs(channel: Channel, principal: string): Channel {
  return {
    open: (receiver) => channel.open(receiver),
    send: (message, options) => channel.send(message, options),
    close: () => channel.close(),
    info: { principalOf: () => ({ principal }) },
  };
}

/**
 * Advances the fake clock a poll at a time, yielding to the real event loop between polls, until
 * the handle ends (its result settles); then checks it ended in `status`. Bounded by the test's timeout.
 */
async function pollUntil(clock: FakeClock, handle: TaskHandle, status: string): Promise<void> {
  let isSettled = false;
  const settled = (): void => void (isSettled = true);
  handle.result().then(settled, settled);
  while (!isSettled) {
    clock.advance(handle.task?.pollIntervalMs ?? 1000);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.equal(handle.status, status);
}

for (const era of ERAS) {
  test(`${era}: a task-capable tool runs as a task; its status is followed until completed and result() is the tool's result (TASK-5/11/12, S26-TASK-2/7/9)`, async () => {
    const { server, open } = createServer();
    const client = await connect(server, era);
    const clock = new FakeClock();
    const taskClient = new TasksClient(client, { clock });
    assert.equal(taskClient.isSupported, true);
    const handle = await taskClient.callToolAsTask('gated');
    assert.equal(typeof handle.id, 'string');
    assert.equal(handle.status, 'working', 'TASK-7: a task starts in working');
    assert.equal(handle.task?.pollIntervalMs, 500);
    // TASK-16 lists it in the handshake era; the stateless era has no tasks/list (S26-TASK-12).
    const listed = (await taskClient.list()).map((task) => task.taskId);
    assert.deepEqual(listed, era === 'handshake' ? [handle.id] : []);
    const seen: string[] = [];
    handle.onStatus((task) => seen.push(task.status));
    const progress: number[] = [];
    handle.onProgress((update) => progress.push(update.progress));
    open();
    await pollUntil(clock, handle, 'completed');
    const result = await handle.result();
    assert.deepEqual(result.content, [{ type: 'text', text: `done ${era}` }]);
    assert.deepEqual(seen, ['completed']);
    // PROG-5 keeps the creating request's token in the handshake era; S26-TASK-13 forbids progress for tasks.
    assert.deepEqual(progress, era === 'handshake' ? [1] : []);
    await client.close();
    await server.close();
  });

  test(`${era}: a tool without task support is called directly: a handle with no id whose result is ready (TASK-3)`, async () => {
    const { server } = createServer();
    const client = await connect(server, era);
    const handle = await new TasksClient(client).callToolAsTask('plain');
    assert.equal(handle.id, undefined);
    assert.equal(handle.status, 'completed');
    assert.deepEqual((await handle.result()).content, [{ type: 'text', text: 'at once' }]);
    await client.close();
    await server.close();
  });

  test(`${era}: a task's input request is answered through the client's elicitation handler (TASK-9, S26-TASK-10)`, async () => {
    const { server } = createServer();
    const asked: string[] = [];
    const client = await connect(server, era, {
      handlers: {
        elicitation: (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    });
    const clock = new FakeClock();
    const handle = await new TasksClient(client, { clock }).callToolAsTask('ask');
    assert.equal(typeof handle.id, 'string');
    await pollUntil(clock, handle, 'completed');
    assert.deepEqual((await handle.result()).content, [{ type: 'text', text: 'hello Ada' }]);
    assert.deepEqual(asked, ['Name?'], 'asked once: an answered key is never answered again');
    await client.close();
    await server.close();
  });

  test(`${era}: cancel() ends a running task as cancelled and result() rejects with TaskCancelledError (TASK-17, S26-TASK-11)`, async () => {
    const { server } = createServer();
    const client = await connect(server, era);
    const clock = new FakeClock();
    const handle = await new TasksClient(client, { clock }).callToolAsTask('gated');
    assert.equal(await handle.cancel(), 'cancelled');
    await assert.rejects(handle.result(), TaskCancelledError);
    await client.close();
    await server.close();
  });

  test(`${era}: a task whose tool throws an RpcError rejects result() with that error (TASK-12, S26-TASK-8)`, async () => {
    const { server } = createServer();
    const client = await connect(server, era);
    const clock = new FakeClock();
    const handle = await new TasksClient(client, { clock }).callToolAsTask('broken');
    await pollUntil(clock, handle, 'failed');
    await assert.rejects(handle.result(), (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, -32050);
      assert.equal(error.message, 'the backend is down');
      return true;
    });
    await client.close();
    await server.close();
  });

  // A task is resumed from another connection by the principal that created it (without one, a
  // handshake-era task belongs to its session, issue 21).
  test(`${era}: a task survives its client: a second connection resumes it by id and fetches its result; an unknown id is -32602`, async () => {
    const { server, open } = createServer();
    const first = await connect(server, era, {}, 'alice');
    const handle = await new TasksClient(first, { clock: new FakeClock() }).callToolAsTask('gated');
    const taskId = handle.id!;
    await first.close();
    await assert.rejects(handle.result(), { code: 'TASK_DETACHED' });
    const stranger = await connect(server, era);
    await assert.rejects(
      new TasksClient(stranger).task(taskId),
      { code: -32602 },
      'another requestor: not yours',
    );
    await stranger.close();
    const second = await connect(server, era, {}, 'alice');
    const clock = new FakeClock();
    const resumed = await new TasksClient(second, { clock }).task(taskId);
    assert.equal(resumed.status, 'working');
    open();
    await pollUntil(clock, resumed, 'completed');
    assert.deepEqual((await resumed.result()).content, [{ type: 'text', text: `done ${era}` }]);
    await assert.rejects(new TasksClient(second).task('no-such-task'), { code: -32602 });
    await second.close();
    await server.close();
  });
}

test('handshake: status notifications alone carry the task to its end, with no poll (TASK-14)', async () => {
  const { server, open } = createServer();
  const client = await connect(server, 'handshake');
  const clock = new FakeClock();
  const handle = await new TasksClient(client, { clock }).callToolAsTask('gated');
  open();
  // The fake clock never moves: no tasks/get is sent; notifications/tasks/status and tasks/result are.
  assert.deepEqual((await handle.result()).content, [{ type: 'text', text: 'done handshake' }]);
  assert.equal(handle.status, 'completed');
  await client.close();
  await server.close();
});

test('stateless: a task result is accepted for tools/call only, and only by a client that took the extension (S26-TASK-3)', async () => {
  const server = new Server({ name: 'task-everywhere', version: '1' });
  server.tool({ name: 'plain' }, () => 'plain');
  server.prompt({ name: 'hello' }, () => 'hello');
  const task = {
    resultType: 'task',
    taskId: 'made-up',
    status: 'working',
    createdAt: '2026-01-01T00:00:00.000Z',
    lastUpdatedAt: '2026-01-01T00:00:00.000Z',
    ttlMs: null,
  };
  // A server that answers everything with a task, whatever the client declared.
  server.use(async (request, next) =>
    request.method === 'tools/call' || request.method === 'prompts/get' ? task : next(),
  );
  const declaring = await connect(server, 'stateless');
  const handle = await new TasksClient(declaring, { clock: new FakeClock() }).callToolAsTask('plain');
  assert.equal(handle.id, 'made-up');
  handle.close();
  await assert.rejects(declaring.getPrompt({ name: 'hello' }), InvalidResultError);
  await declaring.close();
  const plain = await connect(server, 'stateless', { extensions: [] });
  await assert.rejects(plain.callTool({ name: 'plain' }), InvalidResultError);
  await plain.close();
  await server.close();
});

// Tasks and listen feeds on Redis (issue 24): two nodes (handlers over servers of one definition, each
// on its own 127.0.0.1 port) share createRedisStores' stores, the task store among them. A task created
// through A is read, cancelled (its work on A aborts) and its result awaited through B, in both eras;
// a resource update raised on A and a task status changed on A reach a `subscriptions/listen` stream
// held by B.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { tasks } from 'mcpwire/extensions/tasks';
import { createHttpHandler } from 'mcpwire/http';
import { serveHttp, type HttpServerHandle } from 'mcpwire/node';
import { Server } from 'mcpwire/server';
import { createRedisStores } from '../src/create-redis-stores.ts';
import { redisForSuite } from '../../../test/support/redis-server.ts';
import { postRaw, RawHttpSession, statelessRequest, type Loose } from '../../../test/support/raw-mcp-http.ts';
import type { SseFrames } from './support/sse.ts';
import { LISTEN_ID, openListen } from './support/task-listen.ts';

const TASKS_ID = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { extensions: { [TASKS_ID]: {} } };
const RESOURCE = 'test://watched';

/** A gate the `hold` tool waits on, per node; its calls' aborts are counted. */
interface Holds {
  started: Promise<string>;
  aborted: Promise<string>;
  release(): void;
}

function holds(): Holds & {
  onStarted(name: string): void;
  onAborted(name: string): void;
  released: Promise<void>;
} {
  let onStarted: (name: string) => void = () => {};
  let onAborted: (name: string) => void = () => {};
  let release = (): void => {};
  const started = new Promise<string>((resolve) => (onStarted = resolve));
  const aborted = new Promise<string>((resolve) => (onAborted = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { started, aborted, release, released, onStarted, onAborted };
}

async function twoTaskNodes(url: string) {
  const gate = holds();
  const closers: Array<() => Promise<void>> = [];
  const make = async (name: string) => {
    const stores = await createRedisStores({ url });
    closers.push(() => stores.close());
    const extension = tasks({ store: stores.tasks, pollIntervalMs: 100 });
    closers.unshift(() => extension.runner.close());
    const server = new Server({ name: 'redis-tasks', version: '0.0.0' }, { extensions: [extension] });
    server.tool({ name: 'hold', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
      gate.onStarted(name);
      await new Promise<void>((resolve, reject) => {
        ctx.signal.addEventListener(
          'abort',
          () => {
            gate.onAborted(name);
            reject(ctx.signal.reason as Error);
          },
          { once: true },
        );
        void gate.released.then(resolve);
      });
      return `done on ${name}`;
    });
    server.resource({ name: 'watched', uri: RESOURCE }, () => 'x');
    const handler = createHttpHandler(server, { keepAliveMs: 0, ...stores });
    const handle = await serveHttp(handler, { port: 0 });
    closers.unshift(() => handle.close());
    return { server, handle, runner: extension.runner };
  };
  const a = await make('a');
  const b = await make('b');
  return {
    a,
    b,
    gate: gate as Holds,
    async [Symbol.asyncDispose]() {
      gate.release();
      for (const close of closers) await close();
    },
  };
}

function onNode(handle: HttpServerHandle, method: string, params: Record<string, unknown>): Promise<Loose> {
  return statelessRequest(handle.url, method, params, { capabilities: WITH_TASKS }).then((reply) => {
    assert.equal(reply.status, 200, JSON.stringify(reply.message));
    return reply.message;
  });
}

/** Requests in `session` (opened on another node) sent to `handle`. */
function sameSessionOn(handle: HttpServerHandle, session: RawHttpSession) {
  let nextId = 100;
  return {
    async request(method: string, params: object): Promise<Loose> {
      const reply = await postRaw(
        handle.url,
        { jsonrpc: '2.0', id: nextId++, method, params },
        { 'Mcp-Session-Id': session.sessionId, 'MCP-Protocol-Version': session.protocolVersion },
      );
      assert.equal(reply.status, 200, JSON.stringify(reply.message));
      return reply.message;
    },
  };
}

/** The next notification of `method` on the stream (others skipped). */
async function nextOf(frames: SseFrames, method: string, accept: (params: Loose) => boolean = () => true) {
  for (;;) {
    const message = (await frames.nextMessage()) as Loose;
    if (message.method === method && accept(message.params)) return message.params as Loose;
  }
}

describe('tasks and listen feeds on one redis-server, two nodes', { timeout: 60_000 }, () => {
  const redis = redisForSuite();

  test('2026-07-28: a task created through A is read and cancelled through B, and its work on A aborts', async (t) => {
    if (redis.skipped(t)) return;
    await using nodes = await twoTaskNodes(redis.server.url);
    const created = await onNode(nodes.a.handle, 'tools/call', { name: 'hold', arguments: {} });
    assert.equal(created.result.resultType, 'task', JSON.stringify(created));
    const taskId = created.result.taskId as string;
    assert.equal(await nodes.gate.started, 'a');
    const read = await onNode(nodes.b.handle, 'tasks/get', { taskId });
    assert.equal(read.error, undefined, `tasks/get on B: ${JSON.stringify(read.error)}`);
    assert.equal(read.result.status, 'working');
    const cancel = await onNode(nodes.b.handle, 'tasks/cancel', { taskId });
    assert.deepEqual(cancel.error, undefined);
    assert.equal(await nodes.gate.aborted, 'a', 'the work on A was aborted by the cancel through B');
    const after = await onNode(nodes.a.handle, 'tasks/get', { taskId });
    assert.equal(after.result.status, 'cancelled');
    assert.equal((await nodes.b.runner.get(taskId))?.status, 'cancelled');
  });

  test('2025-11-25: tasks/result through B waits for the task running on A and returns its result', async (t) => {
    if (redis.skipped(t)) return;
    await using nodes = await twoTaskNodes(redis.server.url);
    const onA = await RawHttpSession.open(nodes.a.handle.url);
    const created = await onA.request('tools/call', { name: 'hold', arguments: {}, task: { ttl: 60_000 } });
    const taskId = created.result.task.taskId as string;
    assert.equal(await nodes.gate.started, 'a');
    const onB = sameSessionOn(nodes.b.handle, onA);
    const listed = await onB.request('tasks/list', {});
    assert.deepEqual(
      (listed.result.tasks as Loose[]).map((task) => task.taskId),
      [taskId],
      'tasks/list on B names the session task made on A',
    );
    const result = onB.request('tasks/result', { taskId });
    const status = await onB.request('tasks/get', { taskId });
    assert.equal(status.result.status, 'working');
    nodes.gate.release();
    const answer = await result;
    assert.deepEqual(answer.result.content, [{ type: 'text', text: 'done on a' }]);
    assert.deepEqual(answer.result._meta, { 'io.modelcontextprotocol/related-task': { taskId } });
  });

  test('listen on B: a resource update raised on A and the status of a task running on A arrive', async (t) => {
    if (redis.skipped(t)) return;
    await using nodes = await twoTaskNodes(redis.server.url);
    const stop = new AbortController();
    t.after(() => stop.abort());
    const updates = await openListen(nodes.b.handle.url, { resourceSubscriptions: [RESOURCE] }, stop.signal);
    assert.deepEqual(updates.ack.params, {
      notifications: { resourceSubscriptions: [RESOURCE] },
      _meta: { 'io.modelcontextprotocol/subscriptionId': LISTEN_ID },
    });
    nodes.a.server.notifyResourceUpdated(RESOURCE);
    const updated = await nextOf(updates.frames, 'notifications/resources/updated');
    assert.equal(updated.uri, RESOURCE);

    const created = await onNode(nodes.a.handle, 'tools/call', { name: 'hold', arguments: {} });
    const taskId = created.result.taskId as string;
    const feed = await openListen(nodes.b.handle.url, { taskIds: [taskId] }, stop.signal);
    assert.deepEqual((feed.ack.params as Loose).notifications, { taskIds: [taskId] });
    assert.equal((await nextOf(feed.frames, 'notifications/tasks')).status, 'working');
    nodes.gate.release();
    const done = await nextOf(feed.frames, 'notifications/tasks', (params) => params.status !== 'working');
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.result.content, [{ type: 'text', text: 'done on a' }]);
  });
});

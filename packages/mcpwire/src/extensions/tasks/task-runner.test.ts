// The side-neutral task engine on its own, under a fake clock: status moves, ttl expiry, cancellation
// racing completion, input rounds (twice, partial, reused keys), failures, the store's copies, and a
// durable-shaped store in place of the memory one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcError } from '../../jsonrpc/rpc-error.ts';
import {
  canMove,
  FakeClock,
  MemoryTaskStore,
  TaskEndedError,
  TaskRunner,
  type TaskOutcome,
  type TaskPage,
  type TaskRecord,
  type TaskStore,
} from './index.ts';

/** A deferred outcome the test settles by hand. */
function deferred() {
  let resolve!: (outcome: TaskOutcome) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<TaskOutcome>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function createRunner(options: ConstructorParameters<typeof TaskRunner>[0] = {}) {
  const clock = new FakeClock();
  const store = new MemoryTaskStore();
  const errors: Error[] = [];
  const runner = new TaskRunner({
    clock,
    store,
    defaultTtlMs: 1000,
    onError: (e) => errors.push(e),
    ...options,
  });
  return { runner, clock, store, errors };
}

const START = { era: 'stateless', requestMethod: 'tools/call' } as const;

test('TASK-7: the allowed moves, and never out of a terminal status', () => {
  assert.equal(canMove('working', 'input_required'), true);
  assert.equal(canMove('input_required', 'working'), true);
  assert.equal(canMove('input_required', 'input_required'), true);
  assert.equal(canMove('working', 'working'), false);
  for (const terminal of ['completed', 'failed', 'cancelled'] as const)
    for (const to of ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const)
      assert.equal(canMove(terminal, to), false, `${terminal} -> ${to}`);
});

test('a task starts working, is stored before start resolves, and completes with its result', async () => {
  const { runner, store } = createRunner();
  const work = deferred();
  const record = await runner.start(() => work.promise, START);
  assert.equal(record.status, 'working');
  assert.equal((await store.get(record.taskId))?.status, 'working');
  work.resolve({ result: { content: [] } });
  const done = await runner.waitForTerminal(record.taskId);
  assert.equal(done?.status, 'completed');
  assert.deepEqual(done?.result, { content: [] });
});

test('ttl: kept through its last millisecond, deleted after, the work aborted; default, requested and capped ttls', async () => {
  const { runner, clock, store } = createRunner({ maxTtlMs: 5000 });
  let reason: unknown;
  const record = await runner.start(
    (control) =>
      new Promise((_resolve, reject) =>
        control.signal.addEventListener('abort', () => reject((reason = control.signal.reason))),
      ),
    START,
  );
  assert.equal(record.ttlMs, 1000);
  clock.advance(1000);
  assert.equal((await runner.get(record.taskId))?.status, 'working');
  clock.advance(1);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(await store.get(record.taskId), undefined);
  assert.ok(reason instanceof TaskEndedError && reason.why === 'expired');
  assert.equal((await runner.start(() => deferred().promise, { ...START, ttlMs: 9e9 })).ttlMs, 5000);
  assert.equal((await runner.start(() => deferred().promise, { ...START, ttlMs: 10 })).ttlMs, 10);
  assert.equal((await runner.start(() => deferred().promise, { ...START, ttlMs: null })).ttlMs, 5000);
  await runner.close();
});

test('a lazy read past the ttl also finds nothing (a store shared with a runner whose timer never ran)', async () => {
  const clock = new FakeClock();
  const store = new MemoryTaskStore();
  const creator = new TaskRunner({ clock, store, defaultTtlMs: 100 });
  const record = await creator.start(() => deferred().promise, START);
  await creator.close(); // its expiry timer is gone
  clock.advance(101);
  const reader = new TaskRunner({ clock, store });
  assert.equal(await reader.get(record.taskId), undefined);
  assert.equal(store.size, 0);
});

test('cancellation racing completion: cancelled first stays cancelled; completed first makes cancel a no-op', async () => {
  const { runner } = createRunner();
  const first = deferred();
  const a = await runner.start(() => first.promise, START);
  const cancelled = await runner.cancel(a.taskId);
  assert.equal(cancelled?.record.status, 'cancelled');
  assert.equal(cancelled?.wasTerminal, false);
  first.resolve({ result: { late: true } });
  assert.equal((await runner.waitForTerminal(a.taskId))?.status, 'cancelled');
  await new Promise((resolve) => setImmediate(resolve));
  const after = await runner.get(a.taskId);
  assert.equal(after?.status, 'cancelled');
  assert.equal(after?.result, undefined, 'the late result is dropped');

  const second = deferred();
  const b = await runner.start(() => second.promise, START);
  second.resolve({ result: { on: 'time' } });
  await runner.waitForTerminal(b.taskId);
  const late = await runner.cancel(b.taskId);
  assert.equal(late?.wasTerminal, true);
  assert.equal(late?.record.status, 'completed');
  assert.equal(await runner.cancel('unknown'), undefined);
});

test('input twice: input_required with the request, back to working on the answer, partial answers keep the rest', async () => {
  const { runner } = createRunner();
  const record = await runner.start(async (control) => {
    const one = await control.requestInput('one', { method: 'elicitation/create', params: { message: 'a' } });
    const [two, three] = await Promise.all([
      control.requestInput('two', { method: 'elicitation/create' }),
      control.requestInput('three', { method: 'sampling/createMessage' }),
    ]);
    return { result: { answers: [one, two, three] } };
  }, START);
  const waitFor = async (keys: string[]) => {
    for (;;) {
      const current = await runner.get(record.taskId);
      if (JSON.stringify(Object.keys(current?.inputRequests ?? {})) === JSON.stringify(keys)) return current!;
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  assert.equal((await waitFor(['one'])).status, 'input_required');
  await runner.answer(record.taskId, { one: { n: 1 }, unknown: { ignored: true } });
  const both = await waitFor(['two', 'three']);
  assert.equal(both.status, 'input_required');
  const partial = await runner.answer(record.taskId, { three: { n: 3 } });
  assert.deepEqual(Object.keys(partial?.inputRequests ?? {}), ['two']);
  assert.equal(partial?.status, 'input_required');
  await runner.answer(record.taskId, { two: { n: 2 } });
  const done = await runner.waitForTerminal(record.taskId);
  assert.deepEqual(done?.result, { answers: [{ n: 1 }, { n: 2 }, { n: 3 }] });
  assert.equal(done?.inputResponses, undefined);
});

test('an input key is never reused over a task’s life', async () => {
  const { runner, errors } = createRunner();
  const parked = new Promise<void>((resolve) => {
    const off = runner.onChange((_id, current) => {
      if (current?.status !== 'input_required') return;
      off();
      resolve();
    });
  });
  const record = await runner.start(async (control) => {
    await control.requestInput('k', { method: 'roots/list' });
    await control.requestInput('k', { method: 'roots/list' });
    return { result: {} };
  }, START);
  await parked;
  await runner.answer(record.taskId, { k: { roots: [] } });
  const done = await runner.waitForTerminal(record.taskId);
  assert.equal(done?.status, 'failed');
  assert.equal(done?.error?.code, -32603);
  assert.match(errors[0]?.message ?? '', /already used/);
});

test('failures: an RpcError is kept as the error; any other throw is -32603 with the original reported locally', async () => {
  const { runner, errors } = createRunner();
  const rpc = await runner.start(() => Promise.reject(new RpcError(-32001, 'nope', { x: 1 })), START);
  const rpcDone = await runner.waitForTerminal(rpc.taskId);
  assert.equal(rpcDone?.status, 'failed');
  assert.deepEqual(rpcDone?.error, { code: -32001, message: 'nope', data: { x: 1 } });
  assert.equal(rpcDone?.statusMessage, 'nope');
  const crash = await runner.start(() => Promise.reject(new Error('disk on fire')), START);
  const crashDone = await runner.waitForTerminal(crash.taskId);
  assert.deepEqual(crashDone?.error, { code: -32603, message: 'Internal error' });
  assert.equal(errors[0]?.message, 'disk on fire');
  const toolFailure = await runner.start(
    () => Promise.resolve({ result: { isError: true }, status: 'failed', statusMessage: 'tool said no' }),
    START,
  );
  const toolDone = await runner.waitForTerminal(toolFailure.taskId);
  assert.equal(toolDone?.status, 'failed');
  assert.deepEqual(toolDone?.result, { isError: true });
});

test('owners: a task is invisible to another requestor; list pages one owner’s tasks', async () => {
  const { runner } = createRunner();
  const mine = await runner.start(() => deferred().promise, { ...START, owner: 'alice' });
  await runner.start(() => deferred().promise, { ...START, owner: 'bob' });
  assert.equal(await runner.get(mine.taskId, { owner: 'bob' }), undefined);
  assert.equal(await runner.get(mine.taskId), undefined);
  assert.equal((await runner.get(mine.taskId, { owner: 'alice' }))?.taskId, mine.taskId);
  assert.equal(await runner.cancel(mine.taskId, { owner: 'bob' }), undefined);
  const page = await runner.list({ owner: 'alice' });
  assert.deepEqual(
    page?.records.map((record) => record.taskId),
    [mine.taskId],
  );
  await runner.close();
});

test('the memory store hands out copies: changing a returned record changes nothing stored', async () => {
  const store = new MemoryTaskStore();
  const record = {
    taskId: 't',
    status: 'working',
    era: 'stateless',
    requestMethod: 'tools/call',
    createdAt: 0,
    lastUpdatedAt: 0,
    ttlMs: null,
  } as const;
  await store.create({ ...record });
  const read = await store.get('t');
  read!.status = 'failed';
  assert.equal((await store.get('t'))?.status, 'working');
  await assert.rejects(store.create({ ...record }), /already exists/);
  assert.equal(await store.list({ owner: undefined, cursor: 'nope', limit: 1 }), undefined);
});

test('waitForTerminal ends with the signal', async () => {
  const { runner } = createRunner();
  const record = await runner.start(() => deferred().promise, START);
  const controller = new AbortController();
  const waiting = runner.waitForTerminal(record.taskId, controller.signal);
  controller.abort(new Error('gave up'));
  await assert.rejects(waiting, /gave up/);
  await runner.close();
});

/** A store shaped like a durable one: records kept as JSON text, no watch (the runner's own events serve). */
class JsonTextStore implements TaskStore {
  readonly texts = new Map<string, string>();
  create(record: TaskRecord): Promise<void> {
    this.texts.set(record.taskId, JSON.stringify(record));
    return Promise.resolve();
  }
  get(taskId: string): Promise<TaskRecord | undefined> {
    const text = this.texts.get(taskId);
    return Promise.resolve(text === undefined ? undefined : (JSON.parse(text) as TaskRecord));
  }
  async update(taskId: string, change: (record: TaskRecord) => TaskRecord | undefined) {
    const current = await this.get(taskId);
    if (!current) return undefined;
    const next = change(current);
    if (next) this.texts.set(taskId, JSON.stringify(next));
    return next ?? current;
  }
  delete(taskId: string): Promise<void> {
    this.texts.delete(taskId);
    return Promise.resolve();
  }
  list(): Promise<TaskPage> {
    return Promise.resolve({
      records: [...this.texts.values()].map((text) => JSON.parse(text) as TaskRecord),
    });
  }
}

test('a durable-shaped store (JSON text, no watch) drops in: input rounds, results and waits work the same', async () => {
  const store = new JsonTextStore();
  const runner = new TaskRunner({ store, clock: new FakeClock() });
  const parked = new Promise<void>((resolve) => {
    const off = runner.onChange((_id, record) => {
      if (record?.status !== 'input_required') return;
      off();
      resolve();
    });
  });
  const record = await runner.start(async (control) => {
    const answer = await control.requestInput('q', { method: 'elicitation/create' });
    return { result: { answer } };
  }, START);
  await parked;
  const waiting = runner.waitForTerminal(record.taskId);
  await runner.answer(record.taskId, { q: { action: 'accept' } });
  assert.deepEqual((await waiting)?.result, { answer: { action: 'accept' } });
  assert.equal(typeof store.texts.get(record.taskId), 'string');
  await runner.close();
});

// RedisTaskStore's own rules on a real redis-server (issue 24), two stores standing for two nodes:
// fenced transitions (of two nodes finishing one task, one writes; a terminal task never changes),
// and the lease (a task whose worker stops renewing is failed, seen by another node's watcher, and
// the worker's late result is refused).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TaskRecord } from 'mcpwire/extensions/tasks';
import { createClient } from 'redis';
import { createRedisStores } from '../src/create-redis-stores.ts';
import { RedisKeys } from '../src/keys.ts';
import { RERUN_MESSAGE, WORKER_LOST_MESSAGE } from '../src/lost-task.ts';
import { redisForSuite } from '../../../test/support/redis-server.ts';

function working(taskId: string): TaskRecord {
  const now = Date.now();
  return {
    taskId,
    status: 'working',
    era: 'stateless',
    requestMethod: 'tools/call',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
  };
}

/** A change as the runner makes them: nothing once the task is terminal. */
const finish =
  (status: 'completed' | 'cancelled') =>
  (record: TaskRecord): TaskRecord | undefined =>
    record.status === 'working' ? { ...record, status, lastUpdatedAt: Date.now() } : undefined;

describe('RedisTaskStore on one redis-server, two stores', () => {
  const redis = redisForSuite();

  test('two nodes finishing one task at once: one write wins, both see it, one terminal change is published', async (t) => {
    if (redis.skipped(t)) return;
    await using a = await createRedisStores({ url: redis.server.url });
    await using b = await createRedisStores({ url: redis.server.url });
    const seen: string[] = [];
    await a.tasks.create(working('race'));
    let terminal!: () => void;
    const isTerminal = new Promise<void>((resolve) => (terminal = resolve));
    const unwatch = b.tasks.watch('race', (record) => {
      seen.push(record?.status ?? 'deleted');
      if (record?.status !== 'working') terminal();
    });
    const [onA, onB] = await Promise.all([
      a.tasks.update('race', finish('completed')),
      b.tasks.update('race', finish('cancelled')),
    ]);
    await isTerminal;
    unwatch();
    assert.ok(onA && onB);
    assert.equal(onA.status, onB.status, 'both nodes resolve with the one status stored');
    assert.equal((await a.tasks.get('race'))?.status, onA.status);
    // The create's own 'working' may reach the watch or not (published after its script, like every write).
    assert.deepEqual(
      seen.filter((status) => status !== 'working'),
      [onA.status],
      'one terminal write was published',
    );
    // A change that ignores the status cannot move a terminal task (TASK-7).
    const after = await b.tasks.update('race', (record) => ({ ...record, status: 'working' }));
    assert.equal(after?.status, onA.status);
    assert.equal((await b.tasks.get('race'))?.status, onA.status);
  });

  test('a worker that stops renewing: another node watching sees the task failed; its late result is refused', async (t) => {
    if (redis.skipped(t)) return;
    await using worker = await createRedisStores({ url: redis.server.url, taskLeaseMs: 200 });
    await using other = await createRedisStores({ url: redis.server.url, taskLeaseMs: 200 });
    await worker.tasks.create(working('orphan'));
    assert.equal((await other.tasks.get('orphan'))?.status, 'working', 'the lease is held');
    const failed = new Promise<TaskRecord | undefined>((resolve) => {
      other.tasks.watch('orphan', (record) => record?.status !== 'working' && resolve(record));
    });
    // The worker's process stops renewing (as a SIGKILLed node would); its connection stays.
    await worker.tasks.close();
    const record = await failed;
    assert.equal(record?.status, 'failed');
    assert.equal(record?.statusMessage, WORKER_LOST_MESSAGE);
    assert.deepEqual(record?.error, { code: -32603, message: WORKER_LOST_MESSAGE });
    const late = await worker.tasks.update('orphan', finish('completed'));
    assert.equal(late?.status, 'failed', 'the fence refuses the late result');
    assert.equal((await other.tasks.get('orphan'))?.status, 'failed');
  });

  test('a re-runnable task whose lease is gone: two nodes read it at once, exactly one claims it; at maxRuns it fails', async (t) => {
    if (redis.skipped(t)) return;
    await using worker = await createRedisStores({ url: redis.server.url });
    await using b = await createRedisStores({ url: redis.server.url });
    await using c = await createRedisStores({ url: redis.server.url });
    const claims: string[] = [];
    b.tasks.onRerun((record) => claims.push(`b ${record.rerun?.runs}`));
    c.tasks.onRerun((record) => claims.push(`c ${record.rerun?.runs}`));
    const rerun = { params: { name: 'x' }, context: {}, runs: 1, maxRuns: 2 };
    await worker.tasks.create({ ...working('rerun'), rerun });
    await worker.tasks.close();
    // The lease's expiry, without waiting for it: the worker is gone and nobody renews it.
    const raw = createClient({ url: redis.server.url });
    await raw.connect();
    t.after(() => raw.close());
    const lease = new RedisKeys().taskLease('rerun');
    await raw.del(lease);
    const [onB, onC] = await Promise.all([b.tasks.get('rerun'), c.tasks.get('rerun')]);
    assert.deepEqual(claims.length, 1, `one claim: ${claims.join(', ')}`);
    assert.match(claims[0]!, / 2$/);
    for (const record of [onB, onC]) {
      assert.equal(record?.status, 'working');
      assert.equal(record?.rerun?.runs, 2);
    }
    assert.equal(onB?.statusMessage, `${RERUN_MESSAGE} (run 2 of 2)`);
    assert.equal(await raw.exists(lease), 1, 'the claim took the lease');

    await raw.del(lease);
    const failed = await b.tasks.get('rerun');
    assert.equal(failed?.status, 'failed', 'no runs left');
    assert.equal(failed?.statusMessage, `${WORKER_LOST_MESSAGE} (after 2 of at most 2 runs)`);
    assert.equal(claims.length, 1);
  });

  test('createWithin at the cap: a place held by a task that is gone or ended is freed (the prune), one held by a working task is not', async (t) => {
    if (redis.skipped(t)) return;
    await using a = await createRedisStores({ url: redis.server.url });
    const owner = { owner: 'prune-cap' };
    for (const id of ['cap-1', 'cap-2', 'cap-3'])
      assert.equal(await a.tasks.createWithin({ ...working(id), ...owner }, 3), true);
    assert.equal(await a.tasks.createWithin({ ...working('cap-4'), ...owner }, 3), false, 'at the cap');
    // A task gone without its terminal write (a delete behind the store's back, as an expiry) and one
    // ended by a write whose removal from the active set was lost (a node dying between the two).
    const raw = createClient({ url: redis.server.url });
    await raw.connect();
    t.after(() => raw.close());
    const keys = new RedisKeys();
    await raw.del(keys.task('cap-1'));
    await a.tasks.update('cap-2', finish('completed'));
    await raw.zAdd(keys.requestorActive('principal:prune-cap'), { score: 0, value: 'cap-2' });
    assert.equal(await a.tasks.createWithin({ ...working('cap-4'), ...owner }, 3), true, 'two places freed');
    assert.equal(await a.tasks.createWithin({ ...working('cap-5'), ...owner }, 3), true);
    assert.equal(await a.tasks.createWithin({ ...working('cap-6'), ...owner }, 3), false, 'cap-3, 4, 5 work');
  });
});

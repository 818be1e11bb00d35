// The SessionStore contract (mcpwire/http's session-store.ts) as one list of cases, run against
// InMemorySessionStore and RedisSessionStore alike, so the Redis store keeps the default's rules.

import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import type { SessionCreateLimits, SessionRecord, SessionStore } from 'mcpwire/http';

/** One case: a name and what it does with a fresh, empty store. */
export interface ContractCase {
  readonly name: string;
  run(store: SessionStore): Promise<void>;
}

const OPEN: SessionCreateLimits = { maxSessions: 100, maxSessionsPerClient: 100, idleTimeoutMs: 60_000 };

function recordOf(id: string, at: number, extra: Partial<SessionRecord> = {}): SessionRecord {
  return { id, createdAt: at, lastActiveAt: at, revision: 0, ...extra };
}

async function created(store: SessionStore, record: SessionRecord, limits = OPEN) {
  const outcome = await store.create(record, limits);
  assert.ok('record' in outcome, `create ${record.id}: ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The cases every SessionStore must pass. */
export const SESSION_STORE_CASES: readonly ContractCase[] = [
  {
    name: 'create stores a record that get returns equal (JSON data), count counts it, per client too',
    async run(store) {
      const now = Date.now();
      const record = recordOf('s-1', now, {
        clientKey: 'client-a',
        principal: 'alice',
        protocolVersion: '2025-11-25',
        clientCapabilities: { roots: { listChanged: true } },
        clientInfo: { name: 'c', version: '1' },
        subscriptions: [],
      });
      assert.deepEqual(await created(store, record), { record, evicted: [] });
      assert.deepEqual(await store.get('s-1'), record);
      assert.equal(await store.get('s-2'), undefined);
      assert.equal(await store.count(), 1);
      assert.equal(await store.count('client-a'), 1);
      assert.equal(await store.count('client-b'), 0);
    },
  },
  {
    name: 'update is fenced by revision: the expected one writes and raises it, a stale one returns the current record, a gone one none',
    async run(store) {
      await created(store, recordOf('s-1', Date.now()));
      const first = await store.update('s-1', 0, { logLevel: 'warning', subscriptions: ['a://1'] });
      assert.ok(first.ok);
      assert.equal(first.record.revision, 1);
      assert.equal(first.record.logLevel, 'warning');
      assert.deepEqual(first.record.subscriptions, ['a://1']);
      const stale = await store.update('s-1', 0, { logLevel: 'debug' });
      assert.equal(stale.ok, false);
      assert.deepEqual(stale.ok ? undefined : stale.current, first.record);
      assert.deepEqual(await store.get('s-1'), first.record);
      assert.deepEqual(await store.update('gone', 0, { logLevel: 'debug' }), {
        ok: false,
        current: undefined,
      });
    },
  },
  {
    name: 'touch moves lastActiveAt and keeps the revision; delete removes once',
    async run(store) {
      const now = Date.now();
      await created(store, recordOf('s-1', now));
      await store.touch('s-1', now + 5);
      const touched = await store.get('s-1');
      assert.equal(touched?.lastActiveAt, now + 5);
      assert.equal(touched.revision, 0);
      await store.touch('gone', now);
      assert.equal(await store.get('gone'), undefined);
      assert.equal(await store.delete('s-1'), true);
      assert.equal(await store.delete('s-1'), false);
      assert.equal(await store.get('s-1'), undefined);
      assert.equal(await store.count(), 0);
    },
  },
  {
    name: "past maxSessionsPerClient, create evicts the client's least recently touched session, not another client's",
    async run(store) {
      const now = Date.now();
      const limits = { ...OPEN, maxSessionsPerClient: 2 };
      await created(store, recordOf('a-1', now, { clientKey: 'a' }), limits);
      await created(store, recordOf('a-2', now + 1, { clientKey: 'a' }), limits);
      await created(store, recordOf('b-1', now - 10, { clientKey: 'b' }), limits);
      await store.touch('a-1', now + 2);
      const third = await created(store, recordOf('a-3', now + 3, { clientKey: 'a' }), limits);
      assert.deepEqual(third.evicted, ['a-2']);
      assert.equal(await store.get('a-2'), undefined);
      assert.equal(await store.count('a'), 2);
      assert.equal(await store.count(), 3);
    },
  },
  {
    name: 'at maxSessions, create evicts the least recently touched of all, skipping pinned ones; refuses when all are pinned',
    async run(store) {
      const now = Date.now();
      const limits = { ...OPEN, maxSessions: 2 };
      await created(store, recordOf('s-1', now), limits);
      await created(store, recordOf('s-2', now + 1), limits);
      const pinned = { ...limits, isPinned: (id: string) => id === 's-1' };
      const third = await created(store, recordOf('s-3', now + 2), pinned);
      assert.deepEqual(third.evicted, ['s-2']);
      const allPinned = { ...limits, isPinned: () => true };
      assert.deepEqual(await store.create(recordOf('s-4', now + 3), allPinned), {
        refused: { cap: 'maxSessions', limit: 2 },
      });
      assert.equal(await store.get('s-4'), undefined);
      assert.equal(await store.count(), 2);
    },
  },
  {
    name: 'a record untouched for idleTimeoutMs is gone: get, count and the caps no longer see it',
    async run(store) {
      const limits = { ...OPEN, maxSessions: 1, idleTimeoutMs: 30 };
      await created(store, recordOf('s-1', Date.now(), { clientKey: 'a' }), limits);
      // Expiry is real time here (Redis keeps its own clock): wait until it passed.
      while ((await store.get('s-1')) !== undefined) await delay(10);
      assert.equal(await store.count(), 0);
      assert.equal(await store.count('a'), 0);
      const next = await created(store, recordOf('s-2', Date.now(), { clientKey: 'a' }), limits);
      assert.deepEqual(next.evicted, [], 'an expired record is not reported as evicted');
    },
  },
];

// The wire engine's table of requests in flight: a Map's semantics (set, get, delete, size, every
// entry visited once) under the engine's churn, with storage that stays the same while the number
// in flight does (no table per few requests: a Map whose table is in the old space allocates each
// rehashed table there, garbage that only a mark-compact frees).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PendingRequests } from './pending-requests.ts';

interface Entry {
  readonly id: number;
}

function entries(table: PendingRequests<Entry>): Array<[number, Entry]> {
  const seen: Array<[number, Entry]> = [];
  table.forEach((value, id) => seen.push([id, value]));
  return seen.sort((a, b) => a[0] - b[0]);
}

test('the engine churn (8 in flight, ids rising from 2^30): a Map answer each time, the storage unchanged', () => {
  const table = new PendingRequests<Entry>();
  const model = new Map<number, Entry>();
  let next = 2 ** 30;
  for (let index = 0; index < 8; index++) {
    const entry = { id: next++ };
    table.set(entry.id, entry);
    model.set(entry.id, entry);
  }
  const capacity = table.capacity;
  for (let round = 0; round < 100_000; round++) {
    // The oldest answered first, or, one time in five, the third oldest (answers out of order).
    const ids = [...model.keys()];
    const done = ids[round % 5 === 0 ? 2 : 0]!;
    assert.equal(table.get(done), model.get(done));
    assert.equal(table.delete(done), true);
    assert.equal(table.delete(done), false);
    model.delete(done);
    const entry = { id: next++ };
    table.set(entry.id, entry);
    model.set(entry.id, entry);
    assert.equal(table.size, model.size);
  }
  assert.deepEqual(
    entries(table),
    [...model.entries()].sort((a, b) => a[0] - b[0]),
  );
  assert.equal(table.capacity, capacity, 'the table grew with no more requests in flight');
});

test('colliding ids (a request left in flight while the ids wrap round the table) are all found', () => {
  const table = new PendingRequests<Entry>();
  const stuck = { id: 5 };
  table.set(stuck.id, stuck);
  const capacity = table.capacity;
  const model = new Map<number, Entry>([[stuck.id, stuck]]);
  for (let id = 6; id < 6 + capacity * 10; id++) {
    const entry = { id };
    table.set(id, entry);
    model.set(id, entry);
    if (model.size > 4) {
      const oldest = [...model.keys()].find((key) => key !== stuck.id)!;
      assert.equal(table.delete(oldest), true);
      model.delete(oldest);
    }
    for (const [key, value] of model) assert.equal(table.get(key), value, `id ${key} lost`);
    assert.equal(table.has(id - capacity), model.has(id - capacity));
  }
  assert.equal(table.get(stuck.id), stuck);
  assert.deepEqual(
    entries(table),
    [...model.entries()].sort((a, b) => a[0] - b[0]),
  );
});

test('more in flight than the table holds: it grows, and keeps every request', () => {
  const table = new PendingRequests<Entry>();
  const first = table.capacity;
  const count = first * 4 + 3;
  for (let id = 1; id <= count; id++) table.set(id * 7, { id: id * 7 });
  assert.ok(table.capacity > first);
  assert.equal(table.size, count);
  for (let id = 1; id <= count; id++) assert.equal(table.get(id * 7)?.id, id * 7);
  assert.equal(table.get(3), undefined);
  assert.equal(entries(table).length, count);
});

test('set on an id in flight replaces its request; clear empties the table', () => {
  const table = new PendingRequests<Entry>();
  table.set(1, { id: 1 });
  const replacement = { id: 1 };
  table.set(1, replacement);
  assert.equal(table.size, 1);
  assert.equal(table.get(1), replacement);
  table.set(2, { id: 2 });
  table.clear();
  assert.equal(table.size, 0);
  assert.equal(table.get(1), undefined);
  assert.deepEqual(entries(table), []);
});

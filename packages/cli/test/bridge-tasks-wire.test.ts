// The bridge's tasks translation between the eras as pure functions (era-task-wire.ts): task ids
// sealed to their requestor, a child's 2025-11-25 Task shown as the 2026-07-28 extension's, and the
// handshake-era related-task `_meta` taken off what the front shows.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  childTaskOf,
  fromFrontTaskId,
  relatedChildTaskId,
  toFrontInputRequest,
  toFrontTask,
  toFrontTaskId,
  withoutRelatedTask,
  type ChildTask,
} from '../src/commands/bridge/era-task-wire.ts';

const SECRET = new Uint8Array(32).fill(7);
const OTHER_SECRET = new Uint8Array(32).fill(8);
const CHILD_ID = '3f2a9c1e-5b7d-4e8f-9a0b-1c2d3e4f5a6b';

test('a front task id opens to the child id for the same owner and secret only', () => {
  for (const owner of [undefined, 'issuer|alice|client']) {
    const front = toFrontTaskId(CHILD_ID, owner, SECRET);
    assert.equal(toFrontTaskId(CHILD_ID, owner, SECRET), front, 'deterministic');
    assert.notEqual(front, CHILD_ID);
    assert.equal(fromFrontTaskId(front, owner, SECRET), CHILD_ID);
    assert.equal(fromFrontTaskId(front, owner, OTHER_SECRET), undefined, 'another bridge');
  }
  const alices = toFrontTaskId(CHILD_ID, 'alice', SECRET);
  assert.equal(fromFrontTaskId(alices, 'bob', SECRET), undefined, "bob cannot open alice's id");
  assert.equal(fromFrontTaskId(alices, undefined, SECRET), undefined, 'nor can an unauthenticated client');
  const anonymous = toFrontTaskId(CHILD_ID, undefined, SECRET);
  assert.equal(fromFrontTaskId(anonymous, 'alice', SECRET), undefined, 'nor alice an anonymous one');
});

test('a forged, altered or malformed front id opens to nothing', () => {
  const front = toFrontTaskId(CHILD_ID, 'alice', SECRET);
  const [encoded, mac] = front.split('.') as [string, string];
  // Another child id under the same MAC: the MAC covers the child id.
  const otherChild = Buffer.from('another-task', 'utf8').toString('base64url');
  assert.equal(fromFrontTaskId(`${otherChild}.${mac}`, 'alice', SECRET), undefined);
  const flipped = `${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
  assert.equal(fromFrontTaskId(`${encoded}.${flipped}`, 'alice', SECRET), undefined);
  for (const bad of ['', '.', CHILD_ID, `${encoded}.`, `.${mac}`, `${encoded}.${mac}x`, `a+b.${mac}`])
    assert.equal(fromFrontTaskId(bad, 'alice', SECRET), undefined, JSON.stringify(bad));
  // Owner and child id cannot be traded against each other (the MAC's input is the JSON pair).
  const pair = toFrontTaskId('b', 'a', SECRET);
  assert.equal(
    fromFrontTaskId(pair.replace(/^[^.]+/, Buffer.from('a').toString('base64url')), 'b', SECRET),
    undefined,
  );
});

const CHILD_TASK: ChildTask = {
  taskId: CHILD_ID,
  status: 'working',
  createdAt: '2026-12-06T10:00:00.000Z',
  lastUpdatedAt: '2026-12-06T10:00:01.000Z',
  ttl: 60_000,
  pollInterval: 1000,
  statusMessage: 'busy',
};

test("a child's Task becomes the extension's: ttlMs, pollIntervalMs, the front id, no v1 keys", () => {
  const front = toFrontTask(CHILD_TASK, 'front-id', false);
  assert.deepEqual(front, {
    taskId: 'front-id',
    status: 'working',
    createdAt: '2026-12-06T10:00:00.000Z',
    lastUpdatedAt: '2026-12-06T10:00:01.000Z',
    ttlMs: 60_000,
    pollIntervalMs: 1000,
    statusMessage: 'busy',
  });
  assert.equal(toFrontTask({ ...CHILD_TASK, ttl: null }, 'f', false).ttlMs, null, 'unlimited');
  assert.equal(toFrontTask({ ...CHILD_TASK, ttl: 1500.5 }, 'f', false).ttlMs, 1501, 'integer ms');
  const { pollInterval: _p, ...noPoll } = CHILD_TASK;
  assert.equal('pollIntervalMs' in toFrontTask(noPoll, 'f', false), false);
});

test('input_required on the front exactly while the bridge holds input requests of the task', () => {
  assert.equal(toFrontTask(CHILD_TASK, 'f', true).status, 'input_required');
  // The child says input_required but its request has not reached the bridge: still working.
  assert.equal(toFrontTask({ ...CHILD_TASK, status: 'input_required' }, 'f', false).status, 'working');
  assert.equal(toFrontTask({ ...CHILD_TASK, status: 'input_required' }, 'f', true).status, 'input_required');
  for (const status of ['completed', 'failed', 'cancelled'] as const)
    assert.equal(toFrontTask({ ...CHILD_TASK, status }, 'f', true).status, status, 'terminal stays');
});

test("the child's CreateTaskResult is recognised; anything else is a plain result", () => {
  assert.deepEqual(childTaskOf({ task: CHILD_TASK as never }), CHILD_TASK);
  assert.equal(childTaskOf({ content: [] }), undefined);
  assert.equal(childTaskOf({ task: { taskId: 1 } }), undefined);
  assert.equal(childTaskOf({ task: [] as never }), undefined);
});

test('related-task _meta names the child task and is taken off what the front shows', () => {
  const related = { 'io.modelcontextprotocol/related-task': { taskId: CHILD_ID } };
  assert.equal(relatedChildTaskId({ message: 'x', _meta: related }), CHILD_ID);
  assert.equal(relatedChildTaskId({ message: 'x' }), undefined);
  assert.equal(relatedChildTaskId(undefined), undefined);
  assert.deepEqual(withoutRelatedTask({ content: [], _meta: related }), { content: [] });
  assert.deepEqual(withoutRelatedTask({ content: [], _meta: { ...related, other: 1 } }), {
    content: [],
    _meta: { other: 1 },
  });
  assert.deepEqual(toFrontInputRequest('elicitation/create', { message: 'Sure?', _meta: related }), {
    method: 'elicitation/create',
    params: { message: 'Sure?' },
  });
  assert.deepEqual(toFrontInputRequest('roots/list', undefined), { method: 'roots/list' });
});

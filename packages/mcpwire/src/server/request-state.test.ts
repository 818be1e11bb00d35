// requestState integrity (S26-MRTR-4): tampering, another request's state, expiry and key rotation.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { toCanonicalJson } from '../validation/canonical-json.ts';
import { RequestStateSealer } from './request-state.ts';

const isInvalidParams = (error: unknown): boolean => error instanceof RpcError && error.code === -32602;

test('a sealed state opens for the same binding and carries the answers', async () => {
  const sealer = RequestStateSealer.random();
  const token = await sealer.seal('tools/call#abc', { confirm: { action: 'accept' } });
  const payload = await sealer.open('tools/call#abc', token);
  assert.deepEqual(payload.answers, { confirm: { action: 'accept' } });
});

test('tampered, foreign, malformed and expired states are -32602', async (t) => {
  const sealer = RequestStateSealer.random();
  const token = await sealer.seal('tools/call#abc', { a: 1 });
  await assert.rejects(sealer.open('tools/call#abc', `${token}-TAMPERED`), isInvalidParams);
  await assert.rejects(
    sealer.open(
      'tools/call#abc',
      token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
    ),
    isInvalidParams,
  );
  await assert.rejects(sealer.open('tools/call#other', token), isInvalidParams);
  await assert.rejects(sealer.open('tools/call#abc', 'not-a-state'), isInvalidParams);
  await assert.rejects(sealer.open('tools/call#abc', 42), isInvalidParams);
  await assert.rejects(RequestStateSealer.random().open('tools/call#abc', token), isInvalidParams);
  t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
  t.mock.timers.tick(sealer.ttlMs + 1);
  await assert.rejects(sealer.open('tools/call#abc', token), isInvalidParams);
});

test('keys rotate: the first signs, every key verifies', async () => {
  const oldKey = 'old-key-0123456789abcdef';
  const newKey = 'new-key-0123456789abcdef';
  const before = new RequestStateSealer({ keys: [oldKey] });
  const after = new RequestStateSealer({ keys: [newKey, oldKey] });
  const token = await before.seal('b', {});
  assert.deepEqual((await after.open('b', token)).answers, {});
  const fresh = await after.seal('b', {});
  await assert.rejects(before.open('b', fresh), isInvalidParams);
  assert.throws(() => new RequestStateSealer({ keys: [] }), TypeError);
});

test('answers nested 100,000 deep (a peer chose them) are sealed and open again (issue 21)', async () => {
  let deep: unknown = 1;
  for (let level = 0; level < 50_000; level += 1) deep = { a: [deep] };
  const sealer = RequestStateSealer.random();
  const token = await sealer.seal('tools/call#abc', { deep });
  const payload = await sealer.open('tools/call#abc', token);
  // assert.deepEqual recurses too: compare the canonical texts.
  assert.equal(toCanonicalJson(payload.answers), toCanonicalJson({ deep }));
});

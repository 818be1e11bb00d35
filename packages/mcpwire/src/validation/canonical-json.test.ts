import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toCanonicalJson } from './canonical-json.ts';

test('key order does not change the result, at any depth', () => {
  const a = { type: 'object', properties: { x: { type: 'string', minLength: 1 }, y: { type: 'number' } } };
  const b = { properties: { y: { type: 'number' }, x: { minLength: 1, type: 'string' } }, type: 'object' };
  assert.equal(toCanonicalJson(a), toCanonicalJson(b));
});

test('array order is kept and different content gives different keys', () => {
  assert.notEqual(toCanonicalJson({ enum: ['a', 'b'] }), toCanonicalJson({ enum: ['b', 'a'] }));
  assert.notEqual(toCanonicalJson({ type: 'string' }), toCanonicalJson({ type: 'number' }));
});

test('booleans and a "__proto__" key serialize as data', () => {
  assert.equal(toCanonicalJson(true), 'true');
  const parsed: unknown = JSON.parse('{"properties":{"__proto__":{"type":"string"}}}');
  assert.equal(toCanonicalJson(parsed), '{"properties":{"__proto__":{"type":"string"}}}');
});

test('cycles throw rather than loop', () => {
  const cyclic: Record<string, unknown> = {};
  cyclic['self'] = cyclic;
  assert.throws(() => toCanonicalJson(cyclic), TypeError);
});

test('values nested 100,000 deep serialize exactly, without recursion (issue 21)', () => {
  const depth = 100_000;
  let array: unknown = [];
  let object: unknown = { z: 1 };
  for (let level = 1; level < depth; level += 1) {
    array = [array];
    object = { z: 1, a: object };
  }
  assert.equal(toCanonicalJson(array), '['.repeat(depth) + ']'.repeat(depth));
  assert.equal(toCanonicalJson(object), '{"a":'.repeat(depth - 1) + '{"z":1}' + ',"z":1}'.repeat(depth - 1));
});

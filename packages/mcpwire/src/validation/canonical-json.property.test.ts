// The iterative walkers over peer JSON agree with plain recursive references on shallow values, where
// recursion is safe (issue 21): canonical JSON and isDeeperThan.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../test/support/property.ts';
import { isDeeperThan } from '../jsonrpc/json-depth.ts';
import { toCanonicalJson } from './canonical-json.ts';

/** The recursive reference: a copy with sorted keys, then JSON.stringify. */
function sortedCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(sortedCopy);
  const source = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(source)
      .sort()
      .map((key) => [key, sortedCopy(source[key])]),
  );
}

/** Nesting levels of objects and arrays, recursively (a scalar is 0, `[]` is 1). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

// JSON as JSON.parse makes it (a `__proto__` key is an own member), with hostile keys and strings.
const json = fc
  .jsonValue({ maxDepth: 6 })
  .chain((value) =>
    fc
      .constantFrom('__proto__', 'constructor', '\ud800', 'x')
      .map((key) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`) as unknown),
  );

test('toCanonicalJson is JSON.stringify of a recursively sorted copy', async (t) => {
  await checkProperty(
    t,
    fc.property(json, (value) => {
      assert.equal(toCanonicalJson(value), JSON.stringify(sortedCopy(value)));
    }),
  );
});

test('isDeeperThan agrees with the recursive depth at every cap', async (t) => {
  await checkProperty(
    t,
    fc.property(json, fc.integer({ min: 0, max: 9 }), (value, cap) => {
      assert.equal(isDeeperThan(value, cap), depthOf(value) > cap);
    }),
  );
});

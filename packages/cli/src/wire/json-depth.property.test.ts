// The CLI's depth cut over any JSON value (issue 21): the value itself when nothing nests past the cap,
// else exactly what a recursive cut gives, with the value left unchanged; isDeeperThan agrees with the
// recursive depth.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../test/support/property.ts';
import { capDepth, DEPTH_MARKER, isDeeperThan } from './json-depth.ts';

/** Nesting levels of objects and arrays, recursively (a scalar is 0, `[]` is 1). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** The recursive reference of capDepth: containers below level `maxDepth` become DEPTH_MARKER. */
function cutAt(value: unknown, maxDepth: number, level = 1): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (level > maxDepth) return DEPTH_MARKER;
  if (Array.isArray(value)) return value.map((item) => cutAt(item, maxDepth, level + 1));
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, cutAt(child, maxDepth, level + 1)]),
  );
}

// JSON as JSON.parse makes it: a `__proto__` key is an own member.
const json = fc
  .jsonValue({ maxDepth: 7 })
  .chain((value) =>
    fc
      .constantFrom('__proto__', 'constructor', '\udc00', 'k')
      .map((key) => JSON.parse(`[{${JSON.stringify(key)}:${JSON.stringify(value)}}]`) as unknown),
  );

test('capDepth is the value itself (no copy) when nothing nests deeper than the cap', async (t) => {
  await checkProperty(
    t,
    fc.property(json, fc.integer({ min: 0, max: 3 }), (value, extra) => {
      const cap = depthOf(value) + extra;
      assert.equal(capDepth(value, { maxDepth: cap }), value);
      assert.equal(capDepth(value), value, 'far below the default cap of 1,000');
      assert.equal(isDeeperThan(value, cap), false);
    }),
  );
});

test('capDepth below the depth is the recursive cut, and leaves the value unchanged', async (t) => {
  await checkProperty(
    t,
    fc.property(json, fc.integer({ min: 1, max: 9 }), (value, cap) => {
      const before = JSON.stringify(value);
      const cut = capDepth(value, { maxDepth: cap });
      assert.deepEqual(cut, cutAt(value, cap));
      assert.equal(JSON.stringify(value), before);
      assert.equal(isDeeperThan(value, cap), depthOf(value) > cap);
    }),
  );
});

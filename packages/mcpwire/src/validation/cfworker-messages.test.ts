// toAjvLines over schemas whose `$ref`s lead far (issue 21): finding an `$anchor` under 100,000 levels
// and following a `$ref` chain do not recurse, and a `$ref` cycle ends.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OutputUnit } from '@cfworker/json-schema';
import { toAjvLines } from './cfworker-messages.ts';

function typeUnit(keywordLocation: string): OutputUnit {
  return {
    keyword: 'type',
    keywordLocation,
    instanceLocation: '#/a',
    error: 'Instance type "number" is invalid.',
  };
}

test('an $anchor found past a 100,000-deep branch, without recursion', () => {
  let deep: unknown = [];
  for (let level = 0; level < 100_000; level += 1) deep = { nested: deep };
  const root = {
    $defs: { deep, id: { $anchor: 'label', type: 'string' } },
    properties: { a: { $ref: '#label' } },
  };
  assert.deepEqual(toAjvLines([typeUnit('#/properties/a/$ref/type')], root, { a: 1 }), [
    '/a: must be string',
  ]);
});

test('a cycle of $refs ends with the sentence of the unit', () => {
  const root = { $defs: { x: { $ref: '#/$defs/y/$ref' }, y: { $ref: '#/$defs/x/$ref' } } };
  assert.deepEqual(toAjvLines([typeUnit('#/$defs/x/$ref/type')], root, { a: 1 }), [
    '/a: Instance type "number" is invalid.',
  ]);
});

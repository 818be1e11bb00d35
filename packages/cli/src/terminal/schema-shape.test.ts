import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toArgumentShapes } from './schema-shape.ts';

test('toArgumentShapes: required, optional, defaults, nested objects and arrays, unions, $ref', () => {
  assert.deepEqual(
    toArgumentShapes({
      type: 'object',
      properties: {
        q: { type: 'string' },
        n: { type: 'number', default: 3 },
        f: {
          type: 'object',
          properties: { a: { type: 'string' }, b: { enum: ['x', 'y'] } },
          required: ['a'],
        },
        l: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
        r: { $ref: '#/$defs/Thing' },
        c: { oneOf: [{ const: 'a', title: 'A' }, { const: 'b' }] },
        z: {},
      },
      required: ['q'],
    }),
    [
      'q: string',
      'n?: number = 3',
      'f?: { a: string, b?: "x"|"y" }',
      'l?: (string|number)[]',
      'r?: Thing',
      'c?: "a"|"b"',
      'z?: any',
    ],
  );
});

test('toArgumentShapes: a hostile schema (deep unions and arrays, wrong types, controls) is bounded and escaped', () => {
  let deep: unknown = { type: 'string' };
  for (let i = 0; i < 50_000; i++) deep = i % 2 === 0 ? { anyOf: [deep] } : { type: 'array', items: deep };
  const shapes = toArgumentShapes({
    properties: { deep, 'x\x1b[2A': { type: 'string', default: '\x9b'.repeat(100) }, bad: null },
    required: 'not a list',
  });
  assert.equal(shapes.length, 3);
  assert.ok(shapes[0]!.length < 100, shapes[0]);
  assert.equal(
    shapes[1],
    'x\\x1b[2A?: string = "\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b\\x9b…',
  );
  assert.equal(shapes[2], 'bad?: any');
  assert.deepEqual(toArgumentShapes('nope'), []);
  assert.deepEqual(toArgumentShapes({ properties: [1, 2] }), []);
});

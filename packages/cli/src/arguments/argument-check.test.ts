// The local argument check: what it judges, and the schemas it leaves to the server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findArgumentProblems, toCheckableSchema } from './argument-check.ts';

const BOOK = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    nights: { type: 'integer' },
    note: { type: ['string', 'null'] },
    room: { enum: ['single', 'double'] },
    spec: { $ref: '#/$defs/spec', type: 'string' },
    shape: { enum: [{ a: 1 }, 'round'] },
  },
  required: ['city', 'nights'],
  additionalProperties: false,
};

test('every problem, a line each: unknown names, types, enums, then the required ones not given', () => {
  const schema = toCheckableSchema(BOOK)!;
  assert.deepEqual(
    findArgumentProblems({ nights: 2.5, room: 'suite', colour: 'red', note: null, constructor: 1 }, schema),
    [
      'argument "nights" expects integer, received 2.5',
      'argument "room" expects one of "single", "double", received "suite"',
      'argument "colour" is not one the tool takes (it takes city, nights, note, room, spec, shape)',
      'argument "constructor" is not one the tool takes (it takes city, nights, note, room, spec, shape)',
      'argument "city" is required (string), not given',
    ],
  );
  // A $ref property and an enum of objects are the server's to judge; skipped keys are reported elsewhere.
  assert.deepEqual(
    findArgumentProblems({ city: 'Oslo', spec: 42, shape: 'square' }, schema, new Set(['nights'])),
    [],
  );
});

test('an open schema takes unknown names; a draft-07 $schema is known, with or without "#"', () => {
  const open = toCheckableSchema({
    ...BOOK,
    additionalProperties: true,
    $schema: 'http://json-schema.org/draft-07/schema#',
  })!;
  assert.deepEqual(findArgumentProblems({ city: 'Oslo', nights: 1, colour: 'red' }, open), []);
});

test('a schema this check cannot judge is left to the server: unknown dialect, combinators, references', () => {
  for (const schema of [
    { ...BOOK, $schema: 'https://example.com/my-dialect' },
    { ...BOOK, anyOf: [{ required: ['a'] }] },
    { ...BOOK, $ref: '#/$defs/book' },
    { ...BOOK, patternProperties: { '^x-': {} } },
    { ...BOOK, if: { required: ['a'] }, then: { required: ['b'] } },
    'not an object',
    null,
  ])
    assert.equal(toCheckableSchema(schema), undefined, JSON.stringify(schema));
});

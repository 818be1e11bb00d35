// The code-generation-free validator (@cfworker/json-schema) words every failure as the Ajv validator
// does (issue 14: "the same error messages for the same failures"), and the default validator picks it
// by itself where code generation is forbidden (a Node child with --disallow-code-generation-from-strings).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { createAjvValidator } from '../../src/validation/ajv-validator.ts';
import { createCfWorkerValidator } from '../../src/validation/cfworker-validator.ts';
import type {
  JsonSchema,
  SyncJsonSchemaValidator,
  ValidateResult,
} from '../../src/validation/json-schema-validator.ts';

interface Case {
  name: string;
  schema: JsonSchema;
  value: unknown;
}

// One failure each: the lines must be identical, in order.
const SINGLE: Case[] = [
  { name: 'type', schema: { type: 'object', properties: { a: { type: 'number' } } }, value: { a: 'x' } },
  { name: 'type list', schema: { type: ['string', 'null'] }, value: 1 },
  { name: 'integer', schema: { type: 'integer' }, value: 1.5 },
  { name: 'required', schema: { type: 'object', required: ['text'] }, value: {} },
  {
    name: 'additionalProperties',
    schema: { properties: { a: {} }, additionalProperties: false },
    value: { a: 1, 'b/c': 2 },
  },
  { name: 'enum', schema: { enum: ['a', 'b'] }, value: 'c' },
  { name: 'const', schema: { const: 42 }, value: 41 },
  { name: 'minimum', schema: { minimum: 1 }, value: 0 },
  { name: 'maximum', schema: { maximum: 1 }, value: 2 },
  { name: 'exclusiveMinimum', schema: { exclusiveMinimum: 0 }, value: 0 },
  { name: 'exclusiveMaximum', schema: { exclusiveMaximum: 0 }, value: 0 },
  { name: 'multipleOf', schema: { multipleOf: 2 }, value: 3 },
  { name: 'minLength', schema: { minLength: 2 }, value: 'a' },
  { name: 'maxLength', schema: { maxLength: 1 }, value: 'ab' },
  { name: 'minItems', schema: { minItems: 2 }, value: [1] },
  { name: 'maxItems', schema: { maxItems: 1 }, value: [1, 2] },
  { name: 'minProperties', schema: { minProperties: 1 }, value: {} },
  { name: 'maxProperties', schema: { maxProperties: 1 }, value: { a: 1, b: 2 } },
  { name: 'pattern', schema: { pattern: '^u-' }, value: 'x' },
  { name: 'format email', schema: { type: 'string', format: 'email' }, value: 'nope' },
  { name: 'format date-time', schema: { type: 'string', format: 'date-time' }, value: 'yesterday' },
  { name: 'not', schema: { not: { type: 'string' } }, value: 'x' },
  { name: 'false schema', schema: false, value: 1 },
  { name: 'false property', schema: { properties: { gone: false } }, value: { gone: 1 } },
  {
    name: 'nested path',
    schema: { properties: { list: { items: { type: 'string' } } } },
    value: { list: ['a', 2] },
  },
  {
    name: '$ref into $defs',
    schema: {
      $defs: { positive: { type: 'number', exclusiveMinimum: 0 } },
      properties: { a: { $ref: '#/$defs/positive' } },
    },
    value: { a: -1 },
  },
  {
    name: '$anchor',
    schema: {
      $defs: { id: { $anchor: 'userId', type: 'string', pattern: '^u-' } },
      properties: { owner: { $ref: '#userId' } },
    },
    value: { owner: 'x' },
  },
  {
    name: 'unevaluatedProperties',
    schema: { allOf: [{ properties: { a: { type: 'string' } } }], unevaluatedProperties: false },
    value: { a: 'x', c: 1 },
  },
  {
    name: 'prefixItems closed by items: false',
    schema: { prefixItems: [{}, {}], items: false },
    value: [1, 2, 3, 4],
  },
  {
    name: 'draft-07',
    schema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      properties: { n: { type: 'integer', maximum: 3 } },
    },
    value: { n: 4 },
  },
  { name: 'unsupported dialect', schema: { $schema: 'http://json-schema.org/draft-04/schema#' }, value: 1 },
  { name: 'not a schema', schema: 'string' as unknown as JsonSchema, value: 1 },
  {
    name: 'unresolvable $ref',
    schema: { properties: { a: { $ref: 'https://example.com/s.json' } } },
    value: { a: 1 },
  },
];

// Several failures: the same lines (combinators after their branches, as Ajv reports them).
const SEVERAL: Case[] = [
  {
    name: 'object with three failures',
    schema: {
      type: 'object',
      properties: { text: { type: 'string' }, n: { type: 'integer', minimum: 1 } },
      required: ['text'],
      additionalProperties: false,
    },
    value: { n: 0, x: 1 },
  },
  { name: 'anyOf', schema: { anyOf: [{ type: 'string' }, { type: 'number' }] }, value: true },
  { name: 'oneOf', schema: { oneOf: [{ type: 'string' }, { type: 'number' }] }, value: true },
];

function errorsOf(validator: SyncJsonSchemaValidator, { schema, value }: Case): string[] {
  const result: ValidateResult = validator.compile(schema)(value);
  assert.equal(result.valid, false, 'expected the value to be rejected');
  return result.valid ? [] : result.errors;
}

describe('cfworker and Ajv word failures alike', () => {
  const ajv = createAjvValidator();
  const cfworker = createCfWorkerValidator();
  for (const item of SINGLE) {
    test(`one failure: ${item.name}`, () => {
      const expected = errorsOf(ajv, item);
      assert.equal(expected.length, 1, `the case must have one failure under Ajv: ${expected.join(' | ')}`);
      assert.deepEqual(errorsOf(cfworker, item), expected);
    });
  }
  for (const item of SEVERAL) {
    test(`several failures: ${item.name}`, () => {
      const expected = errorsOf(ajv, item);
      assert.ok(expected.length > 1, 'the case must have several failures');
      assert.deepEqual(errorsOf(cfworker, item).sort(), [...expected].sort());
    });
  }
  test('valid values pass both, and a schema is compiled once per content', () => {
    const schema = { type: 'object', properties: { a: { type: 'number' } } };
    assert.deepEqual(cfworker.compile(schema)({ a: 1 }), { valid: true });
    assert.deepEqual(ajv.compile(schema)({ a: 1 }), { valid: true });
    assert.equal(
      cfworker.compile(schema),
      cfworker.compile({ properties: { a: { type: 'number' } }, type: 'object' }),
    );
  });
});

describe('the default validator without code generation', () => {
  test('picks cfworker by itself where new Function is forbidden, with the same messages', () => {
    const probe = join(import.meta.dirname, 'fixtures', 'default-validator-probe.ts');
    const run = (flags: string[]): { canGenerate: boolean; errors: string[] } =>
      JSON.parse(
        execFileSync(process.execPath, [...flags, '--conditions=@mcpwire/source', '--import=tsx', probe], {
          encoding: 'utf8',
          env: { ...process.env, NODE_OPTIONS: '' },
        }),
      ) as { canGenerate: boolean; errors: string[] };
    const forbidden = run(['--disallow-code-generation-from-strings']);
    const allowed = run([]);
    assert.equal(forbidden.canGenerate, false);
    assert.equal(allowed.canGenerate, true);
    assert.deepEqual(forbidden.errors, ['/text: must be string']);
    assert.deepEqual(forbidden.errors, allowed.errors);
  });
});

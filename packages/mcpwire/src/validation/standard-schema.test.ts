import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as z from 'zod';
import { createAjvValidator } from './ajv-validator.ts';
import { isStandardSchema, toJsonSchema, validateWith } from './standard-schema.ts';
import type { InferSchemaOutput, SchemaInput, StandardSchemaV1 } from './standard-schema.ts';

const validator = createAjvValidator();

// `a` arrives as a string and leaves as its length; `b` is optional on input and always present on output.
const zodSchema = z.object({
  a: z
    .string()
    .transform((text) => text.length)
    .pipe(z.number()),
  b: z.number().default(3),
});

// Compile-time checks: zod schemas are SchemaInputs, and their output type flows through validateWith.
const asInput: SchemaInput = zodSchema;
const inferred: InferSchemaOutput<typeof zodSchema> = { a: 1, b: 2 };
// @ts-expect-error a is a number once validated
const wrongOutput: InferSchemaOutput<typeof zodSchema> = { a: 'x', b: 2 };
const viaNamespace: StandardSchemaV1.InferInput<typeof zodSchema> = { a: 'x' };
const rawOutput: InferSchemaOutput<{ type: 'object' }> = 'anything goes: unknown';
void [asInput, inferred, wrongOutput, viaNamespace, rawOutput];

test('isStandardSchema tells Standard Schemas from JSON Schema', () => {
  assert.equal(isStandardSchema(zodSchema), true);
  const callable = Object.assign(() => undefined, {
    '~standard': { version: 1, vendor: 'callable', validate: (value: unknown) => ({ value }) },
  });
  assert.equal(isStandardSchema(callable), true, 'arktype schemas are functions');
  assert.equal(isStandardSchema({ type: 'object', properties: { '~standard': { type: 'string' } } }), false);
  assert.equal(isStandardSchema({ '~standard': { version: 2, validate: () => ({}) } }), false);
  assert.equal(isStandardSchema(null), false);
  assert.equal(isStandardSchema('x'), false);
});

test('the installed zod exposes ~standard.jsonSchema', () => {
  assert.equal(typeof zodSchema['~standard'].jsonSchema?.input, 'function');
  assert.equal(typeof zodSchema['~standard'].jsonSchema?.output, 'function');
});

test('toJsonSchema gives the input form for inputSchema and the output form for outputSchema', () => {
  const input = toJsonSchema(zodSchema, 'input');
  const output = toJsonSchema(zodSchema, 'output');
  assert.equal(input['$schema'], 'https://json-schema.org/draft/2020-12/schema');
  assert.deepEqual(input['properties'], { a: { type: 'string' }, b: { default: 3, type: 'number' } });
  assert.deepEqual(input['required'], ['a']);
  assert.deepEqual(output['properties'], { a: { type: 'number' }, b: { default: 3, type: 'number' } });
  assert.deepEqual(output['required'], ['a', 'b']);
});

test('toJsonSchema output validates with our validator', () => {
  const validate = validator.compile(toJsonSchema(zodSchema, 'input'));
  assert.deepEqual(validate({ a: 'xy' }), { valid: true });
  assert.equal(validate({ a: 1 }).valid, false);
});

test('toJsonSchema returns a raw JSON Schema as the very same, unchanged object', () => {
  const raw = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    $defs: { id: { $anchor: 'id', type: 'string' } },
    properties: { id: { $ref: '#id' }, z: { type: 'number' }, a: { type: 'number' } },
    additionalProperties: false,
  };
  const before = JSON.stringify(raw);
  assert.equal(toJsonSchema(raw, 'input'), raw);
  assert.equal(toJsonSchema(raw, 'output'), raw);
  assert.equal(JSON.stringify(raw), before, 'key order and content preserved');
});

test('toJsonSchema explains a Standard Schema without a JSON Schema converter', () => {
  const bare: StandardSchemaV1<string> = {
    '~standard': { version: 1, vendor: 'bare', validate: (value) => ({ value: String(value) }) },
  };
  assert.throws(() => toJsonSchema(bare, 'input'), {
    name: 'TypeError',
    message: /"bare" Standard Schema has no ~standard\.jsonSchema/,
  });
});

test('toJsonSchema wraps a converter failure, keeping the cause', () => {
  assert.throws(
    () => toJsonSchema(z.object({ when: z.date() }), 'input'),
    (error: unknown) =>
      error instanceof TypeError &&
      /"zod" schema cannot be converted to JSON Schema \(input\): Date cannot be represented/.test(
        error.message,
      ) &&
      error.cause instanceof Error,
  );
});

test('toJsonSchema rejects values that are neither kind of schema', () => {
  assert.throws(() => toJsonSchema(null as never, 'input'), /received null/);
  assert.throws(() => toJsonSchema([] as never, 'input'), /received an array/);
});

test('validateWith runs zod and returns its transformed value', async () => {
  const result = await validateWith(zodSchema, { a: 'hello' }, validator);
  assert.deepEqual(result, { ok: true, value: { a: 5, b: 3 } });
  if (result.ok) {
    const typed: { a: number; b: number } = result.value;
    assert.equal(typed.a, 5);
  }
});

test('validateWith reports zod issues as pointer lines', async () => {
  const result = await validateWith(zodSchema, { a: 1, b: 'x' }, validator);
  assert.equal(result.ok, false);
  assert.deepEqual(!result.ok && result.errors, [
    '/a: Invalid input: expected string, received number',
    '/b: Invalid input: expected number, received string',
  ]);
});

test('validateWith awaits asynchronous Standard Schemas', async () => {
  const even = z.number().refine(async (n) => n % 2 === 0, 'must be even');
  assert.deepEqual(await validateWith(even, 2, validator), { ok: true, value: 2 });
  assert.deepEqual(await validateWith(even, 3, validator), { ok: false, errors: ['(root): must be even'] });
});

test('validateWith uses the JSON Schema validator for raw schemas and returns the value unchanged', async () => {
  const raw = { type: 'object', properties: { n: { type: 'number', default: 1 } }, required: ['n'] };
  const value = { n: 2 };
  const ok = await validateWith(raw, value, validator);
  assert.equal(ok.ok, true);
  assert.equal(ok.ok && ok.value, value);
  assert.deepEqual(await validateWith(raw, {}, validator), {
    ok: false,
    errors: ["(root): must have required property 'n'"],
  });
});

test('validateWith turns issue paths with {key} segments into pointers', async () => {
  const custom: StandardSchemaV1 = {
    '~standard': {
      version: 1,
      vendor: 'custom',
      validate: () => ({ issues: [{ message: 'bad', path: [{ key: 'list' }, 0] }, { message: 'worse' }] }),
    },
  };
  assert.deepEqual(await validateWith(custom, 1, validator), {
    ok: false,
    errors: ['/list/0: bad', '(root): worse'],
  });
});

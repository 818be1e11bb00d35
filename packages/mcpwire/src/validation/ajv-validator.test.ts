import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAjvValidator, supportedDialects } from './ajv-validator.ts';
import type { ValidateResult } from './json-schema-validator.ts';

function errorsOf(result: ValidateResult): string[] {
  assert.equal(result.valid, false, 'expected the value to be rejected');
  return result.valid ? [] : result.errors;
}

test('a schema without $schema is 2020-12: $defs and $ref', () => {
  const validate = createAjvValidator().compile({
    type: 'object',
    $defs: { positive: { type: 'number', exclusiveMinimum: 0 } },
    properties: { a: { $ref: '#/$defs/positive' } },
  });
  assert.deepEqual(validate({ a: 1 }), { valid: true });
  assert.deepEqual(errorsOf(validate({ a: 'x' })), ['/a: must be number']);
  assert.deepEqual(errorsOf(validate({ a: -1 })), ['/a: must be > 0']);
});

test('2020-12: $anchor is a $ref target', () => {
  const validate = createAjvValidator().compile({
    $defs: { id: { $anchor: 'userId', type: 'string', pattern: '^u-' } },
    type: 'object',
    properties: { owner: { $ref: '#userId' } },
  });
  assert.deepEqual(validate({ owner: 'u-1' }), { valid: true });
  assert.deepEqual(errorsOf(validate({ owner: 'x' })), ['/owner: must match pattern "^u-"']);
});

test('2020-12: prefixItems with items: false closes the tuple', () => {
  const validate = createAjvValidator().compile({
    type: 'array',
    prefixItems: [{ type: 'string' }, { type: 'integer' }],
    items: false,
  });
  assert.deepEqual(validate(['a', 1]), { valid: true });
  assert.deepEqual(errorsOf(validate([1, 1])), ['/0: must be string']);
  assert.equal(errorsOf(validate(['a', 1, true])).length, 1);
});

test('2020-12: unevaluatedProperties sees properties evaluated by allOf', () => {
  const validate = createAjvValidator().compile({
    allOf: [{ type: 'object', properties: { a: { type: 'string' } } }],
    properties: { b: { type: 'string' } },
    unevaluatedProperties: false,
  });
  assert.deepEqual(validate({ a: 'x', b: 'y' }), { valid: true });
  assert.deepEqual(errorsOf(validate({ a: 'x', c: 1 })), [
    '(root): must NOT have unevaluated properties ("c")',
  ]);
});

test('2020-12: if/then/else picks the branch', () => {
  const validate = createAjvValidator().compile({
    type: 'object',
    if: { properties: { kind: { const: 'email' } } },
    then: { required: ['address'] },
    else: { required: ['phone'] },
  });
  assert.deepEqual(validate({ kind: 'email', address: 'a@b.c' }), { valid: true });
  assert.deepEqual(validate({ kind: 'sms', phone: '1' }), { valid: true });
  const errors = errorsOf(validate({ kind: 'sms' }));
  assert.ok(errors.includes("(root): must have required property 'phone'"), errors.join('\n'));
});

test('an explicit 2020-12 $schema, with or without the trailing #, is accepted', () => {
  const validator = createAjvValidator();
  for (const $schema of [
    'https://json-schema.org/draft/2020-12/schema',
    'https://json-schema.org/draft/2020-12/schema#',
  ]) {
    const validate = validator.compile({ $schema, type: 'string' });
    assert.deepEqual(validate('x'), { valid: true });
    assert.deepEqual(errorsOf(validate(1)), ['(root): must be string']);
  }
});

test('draft-07 via $schema, with or without #, uses draft-07 semantics', () => {
  const validator = createAjvValidator();
  for (const $schema of [
    'http://json-schema.org/draft-07/schema#',
    'http://json-schema.org/draft-07/schema',
  ]) {
    // Array-form `items` and `additionalItems` are draft-07 tuples; under 2020-12 this schema is invalid.
    const validate = validator.compile({
      $schema,
      type: 'array',
      items: [{ type: 'string' }, { $ref: '#/definitions/count' }],
      additionalItems: false,
      definitions: { count: { type: 'integer' } },
    });
    assert.deepEqual(validate(['a', 2]), { valid: true });
    assert.deepEqual(errorsOf(validate(['a', 'b'])), ['/1: must be integer']);
    assert.equal(errorsOf(validate(['a', 2, 3])).length, 1);
  }
  const as2020 = validator.compile({ type: 'array', items: [{ type: 'string' }], additionalItems: false });
  assert.match(
    errorsOf(as2020(['a']))[0] ?? '',
    /invalid JSON Schema \(https:\/\/json-schema\.org\/draft\/2020-12/,
  );
});

test('an unsupported dialect fails gracefully, saying so', () => {
  const validator = createAjvValidator();
  const validate = validator.compile({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' });
  const errors = errorsOf(validate('x'));
  assert.equal(errors.length, 1);
  assert.match(
    errors[0] ?? '',
    /unsupported JSON Schema dialect "http:\/\/json-schema\.org\/draft-04\/schema#"/,
  );
  assert.match(errors[0] ?? '', /2020-12/);
  assert.match(
    errorsOf(validator.compile({ $schema: 42 })(1))[0] ?? '',
    /unsupported JSON Schema dialect 42/,
  );
  assert.deepEqual(supportedDialects, [
    'https://json-schema.org/draft/2020-12/schema',
    'http://json-schema.org/draft-07/schema#',
  ]);
});

test('a $ref to a network URI is never fetched: the schema is rejected, synchronously', () => {
  const realFetch = globalThis.fetch;
  const fetched: unknown[] = [];
  globalThis.fetch = (input) => {
    fetched.push(input);
    return Promise.reject(new Error('no network in this test'));
  };
  try {
    const validate = createAjvValidator().compile({
      type: 'object',
      properties: { profile: { $ref: 'http://127.0.0.1:1/never.json' } },
    });
    const result = validate({ profile: {} });
    assert.equal(result instanceof Promise, false);
    const errors = errorsOf(result);
    assert.match(errors[0] ?? '', /\$ref "http:\/\/127\.0\.0\.1:1\/never\.json" does not resolve/);
    assert.match(errors[0] ?? '', /never fetched/);
    // Rejected whatever the value: an unresolved external $ref is not treated as permissive (S26-SCHEMA-2).
    assert.equal(validate({}).valid, false);
    assert.deepEqual(fetched, []);
  } finally {
    globalThis.fetch = realFetch;
  }
});

test('a $ref to the schema own $id resolves without any network', () => {
  const validate = createAjvValidator().compile({
    $id: 'https://example.com/schemas/order',
    $defs: { qty: { type: 'integer', minimum: 1 } },
    type: 'object',
    properties: { qty: { $ref: 'https://example.com/schemas/order#/$defs/qty' } },
  });
  assert.deepEqual(validate({ qty: 2 }), { valid: true });
  assert.deepEqual(errorsOf(validate({ qty: 0 })), ['/qty: must be >= 1']);
});

test('the same schema object compiles to the same Validate; equal content shares it too', () => {
  const validator = createAjvValidator();
  const schema = { type: 'object', properties: { a: { type: 'number' } } };
  const first = validator.compile(schema);
  assert.equal(validator.compile(schema), first);
  assert.equal(validator.compile({ properties: { a: { type: 'number' } }, type: 'object' }), first);
  assert.notEqual(validator.compile({ type: 'object', properties: { a: { type: 'string' } } }), first);
  assert.equal(validator.compile(true), validator.compile(true));
});

test('the content cache is bounded; identity hits survive eviction', () => {
  const validator = createAjvValidator({ cacheSize: 2 });
  const schema = { type: 'string' };
  const first = validator.compile(schema);
  validator.compile({ type: 'number' });
  validator.compile({ type: 'boolean' });
  assert.notEqual(validator.compile({ type: 'string' }), first, 'evicted by content');
  assert.equal(validator.compile(schema), first, 'still cached by identity');
});

test('validators keep working after their Ajv instance is replaced', () => {
  const validator = createAjvValidator({ cacheSize: 1 });
  const strings = validator.compile({ type: 'string' });
  assert.deepEqual(strings('x'), { valid: true });
  const numbers = validator.compile({ type: 'number' });
  assert.deepEqual(numbers(1), { valid: true });
  assert.deepEqual(errorsOf(strings(1)), ['(root): must be string']);
});

test('schemas sharing a root $id do not collide', () => {
  const validator = createAjvValidator();
  const a = validator.compile({ $id: 'https://example.com/same', type: 'string' });
  const b = validator.compile({ $id: 'https://example.com/same', type: 'number' });
  assert.deepEqual(a('x'), { valid: true });
  assert.deepEqual(b(1), { valid: true });
  assert.deepEqual(errorsOf(b('x')), ['(root): must be number']);
});

test('a schema invalid under its dialect is reported, not thrown (SCHEMA-4)', () => {
  const validate = createAjvValidator().compile({ type: 'object', properties: { a: { type: 'strin' } } });
  assert.match(
    errorsOf(validate({}))[0] ?? '',
    /^\(root\): invalid JSON Schema .*must be equal to one of the allowed values/,
  );
});

test('non-schemas and $async schemas are reported, not thrown', () => {
  const validator = createAjvValidator();
  assert.match(
    errorsOf(validator.compile(null as never)(1))[0] ?? '',
    /expected an object or a boolean, received null/,
  );
  assert.match(errorsOf(validator.compile(['x'] as never)(1))[0] ?? '', /received an array/);
  assert.match(errorsOf(validator.compile({ $async: true, type: 'string' })('x'))[0] ?? '', /\$async/);
});

test('boolean schemas accept everything or nothing', () => {
  const validator = createAjvValidator();
  assert.deepEqual(validator.compile(true)({ any: 1 }), { valid: true });
  assert.deepEqual(errorsOf(validator.compile(false)(1)), ['(root): boolean schema is false']);
});

test('all errors are reported, with the offending names and allowed values', () => {
  const validate = createAjvValidator().compile({
    type: 'object',
    properties: { n: { type: 'number' }, color: { enum: ['red', 'green'] } },
    required: ['id'],
    additionalProperties: false,
  });
  assert.deepEqual(errorsOf(validate({ n: 'x', color: 'blue', extra: 1 })), [
    "(root): must have required property 'id'",
    '(root): must NOT have additional properties ("extra")',
    '/n: must be number',
    '/color: must be equal to one of the allowed values ["red","green"]',
  ]);
});

test('formats are checked in both dialects', () => {
  const validator = createAjvValidator();
  for (const schema of [
    { type: 'string', format: 'email' },
    { $schema: 'http://json-schema.org/draft-07/schema#', type: 'string', format: 'email' },
  ]) {
    const validate = validator.compile(schema);
    assert.deepEqual(validate('a@example.com'), { valid: true });
    assert.deepEqual(errorsOf(validate('not an email')), ['(root): must match format "email"']);
  }
  const dateTime = validator.compile({ type: 'string', format: 'date-time' });
  assert.deepEqual(dateTime('2025-11-25T10:00:00Z'), { valid: true });
  assert.equal(dateTime('yesterday').valid, false);
});

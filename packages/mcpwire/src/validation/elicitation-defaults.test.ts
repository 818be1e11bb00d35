import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyElicitationDefaults } from './elicitation-defaults.ts';

const requestedSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'Ada' },
    age: { type: 'integer', default: 36 },
    ratio: { type: 'number', default: 0.5 },
    subscribe: { type: 'boolean', default: false },
    size: { type: 'string', enum: ['s', 'm', 'l'], default: 'm' },
    plan: {
      type: 'string',
      oneOf: [
        { const: 'free', title: 'Free' },
        { const: 'pro', title: 'Pro' },
      ],
      default: 'pro',
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, default: ['a', 'c'] },
    email: { type: 'string', format: 'email' },
  },
  required: ['name'],
};

test('fills every absent property that has a default, of each SEP-1034 kind', () => {
  assert.deepEqual(applyElicitationDefaults(requestedSchema, {}), {
    name: 'Ada',
    age: 36,
    ratio: 0.5,
    subscribe: false,
    size: 'm',
    plan: 'pro',
    tags: ['a', 'c'],
  });
});

test('never overrides provided values, including falsy ones', () => {
  const content = { name: '', subscribe: true, age: 0, tags: [] as string[] };
  const filled = applyElicitationDefaults(requestedSchema, content);
  assert.equal(filled['name'], '');
  assert.equal(filled['subscribe'], true);
  assert.equal(filled['age'], 0);
  assert.deepEqual(filled['tags'], []);
  assert.equal(filled['size'], 'm');
});

test('returns a new object and leaves both inputs untouched', () => {
  const content = { name: 'Bob' };
  const schemaBefore = structuredClone(requestedSchema);
  const filled = applyElicitationDefaults(requestedSchema, content);
  assert.notEqual(filled, content);
  assert.deepEqual(content, { name: 'Bob' });
  (filled['tags'] as string[]).push('b');
  assert.deepEqual(requestedSchema, schemaBefore, 'the list default was copied, not shared');
});

test('an undefined value counts as absent; undefined content is an empty form', () => {
  assert.equal(applyElicitationDefaults(requestedSchema, { name: undefined })['name'], 'Ada');
  assert.equal(applyElicitationDefaults(requestedSchema, undefined)['age'], 36);
});

test('defaults that do not match the property type are ignored', () => {
  const schema = {
    properties: {
      n: { type: 'number', default: '3' },
      i: { type: 'integer', default: 1.5 },
      b: { type: 'boolean', default: 'yes' },
      s: { type: 'string', default: 1 },
      l: { type: 'array', default: ['a', 1] },
      untyped: { default: 'x' },
    },
  };
  assert.deepEqual(applyElicitationDefaults(schema, {}), {});
});

test('property names like "constructor" and "__proto__" are filled as plain data', () => {
  const schema: unknown = JSON.parse(
    '{"properties":{"constructor":{"type":"string","default":"c"},"__proto__":{"type":"string","default":"p"}}}',
  );
  const filled = applyElicitationDefaults(schema as { properties: Record<string, unknown> }, {});
  assert.equal(filled['constructor'], 'c');
  assert.equal(Object.getPrototypeOf(filled), Object.prototype);
  assert.deepEqual(Object.keys(filled).sort(), ['__proto__', 'constructor']);
});

test('a schema without properties returns a copy of the content', () => {
  assert.deepEqual(applyElicitationDefaults({}, { a: 1 }), { a: 1 });
});

// The default validator loads Ajv on first use and then behaves exactly like it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDefaultValidator } from './default-validator.ts';

test('validates before and after Ajv has loaded, with the same answers', async () => {
  const validator = createDefaultValidator();
  const schema = { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] };
  const first = validator.compile(schema);
  assert.deepEqual(await first({ a: 1 }), { valid: true });
  const invalid = await first({ a: 'x' });
  assert.equal(invalid.valid, false);
  // Once loaded, answers are synchronous.
  const later = validator.compile({ type: 'string' });
  const outcome = later(5);
  assert.ok(!(outcome instanceof Promise));
  assert.equal(outcome.valid, false);
});

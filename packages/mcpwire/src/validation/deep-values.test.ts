// Both validators on schemas and values nested 100,000 levels deep (issue 21): a schema that deep is
// refused with a failure naming the cap, a value too deep for a recursive schema fails validation
// saying so, and neither throws.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createAjvValidator } from './ajv-validator.ts';
import { createCfWorkerValidator } from './cfworker-validator.ts';
import type { SyncJsonSchemaValidator, ValidateResult } from './json-schema-validator.ts';

const DEPTH = 100_000;

function deepSchema(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { type: 'string' };
  for (let level = 0; level < depth; level += 1) node = { type: 'object', properties: { a: node } };
  return node;
}

function deepArray(depth: number): unknown {
  let node: unknown = [];
  for (let level = 1; level < depth; level += 1) node = [node];
  return node;
}

/** A tree of arrays: every item is again such a tree (recursion through `$ref`). */
const TREE = { $ref: '#/$defs/node', $defs: { node: { type: 'array', items: { $ref: '#/$defs/node' } } } };

function errorsOf(result: ValidateResult | Promise<ValidateResult>): string[] {
  assert.ok(!(result instanceof Promise), 'synchronous');
  assert.equal(result.valid, false, 'expected a failure');
  return result.valid ? [] : result.errors;
}

const validators: Array<[string, () => SyncJsonSchemaValidator]> = [
  ['ajv', () => createAjvValidator()],
  ['cfworker', () => createCfWorkerValidator()],
];

for (const [name, create] of validators) {
  describe(`${name}: deep JSON`, () => {
    it('refuses a schema nested 100,000 deep with a failure naming the cap', () => {
      const errors = errorsOf(create().compile(deepSchema(DEPTH))({}));
      assert.equal(errors.length, 1);
      assert.match(errors[0]!, /^\(root\): invalid JSON Schema: nested deeper than 256 levels/);
    });

    it('still compiles a schema 120 properties levels (241 JSON levels) deep', () => {
      const validate = create().compile(deepSchema(120));
      assert.deepEqual(validate({}), { valid: true });
    });

    it('fails a value too deep for a recursive schema, saying so, without throwing', () => {
      const validate = create().compile(TREE);
      assert.deepEqual(validate([[[]]]), { valid: true });
      const errors = errorsOf(validate(deepArray(DEPTH)));
      assert.equal(errors.length, 1);
      assert.match(errors[0]!, /^\(root\): nested too deeply to validate/);
    });
  });
}

// The iterative `x-mcp-header` walks of the server and of the client agree with a plain recursive walk
// on shallow schemas, where recursion is safe (issue 21).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../../test/support/property.ts';
import { findHeaderParams, type HeaderParam } from './param-headers.ts';
import { readHeaderAnnotations } from './tool-header-annotations.ts';

/** The recursive reference of findHeaderParams (without a depth cap: the schemas here are shallow). */
function headerParamsOf(schema: unknown, path: readonly string[] = []): HeaderParam[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found: HeaderParam[] = [];
  const header = node['x-mcp-header'];
  if (path.length > 0 && typeof header === 'string' && header !== '')
    found.push({ path, header, type: typeof node.type === 'string' ? node.type : undefined });
  const properties = node.properties;
  if (typeof properties === 'object' && properties !== null && !Array.isArray(properties))
    for (const [key, child] of Object.entries(properties))
      found.push(...headerParamsOf(child, [...path, key]));
  return found;
}

/** Schemas of `properties` chains with annotations (valid and not) and other keywords around them. */
const schema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.record(
    {
      type: fc.constantFrom('object', 'string', 'integer', 'array'),
      'x-mcp-header': fc.constantFrom('A', 'B', 'bad header', ''),
      properties: fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'c'), tie('node'), { maxKeys: 3 }),
      items: tie('node'),
      anyOf: fc.array(tie('node'), { maxLength: 2 }),
    },
    { requiredKeys: [] },
  ),
})).node;

test('findHeaderParams agrees with the recursive walk on shallow schemas', async (t) => {
  await checkProperty(
    t,
    fc.property(schema, (value) => {
      assert.deepEqual(findHeaderParams(value), headerParamsOf(value));
    }),
  );
});

test('readHeaderAnnotations finds, on shallow schemas, what the recursive walk finds through properties', async (t) => {
  await checkProperty(
    t,
    fc.property(schema, (value) => {
      const check = readHeaderAnnotations(value);
      if (!check.ok) return;
      const expected = headerParamsOf(value).map(({ path, header }) => ({ path, header }));
      assert.deepEqual(check.annotations, expected);
    }),
  );
});

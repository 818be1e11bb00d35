// The iterative walkers over peer JSON agree with plain recursive references on shallow values, where
// recursion is safe (issue 21): canonical JSON, isDeeperThan, and the two `x-mcp-header` walks.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../test/support/property.ts';
import { isDeeperThan } from '../jsonrpc/json-depth.ts';
import { findHeaderParams, type HeaderParam } from '../transports/http/param-headers.ts';
import { readHeaderAnnotations } from '../transports/http/tool-header-annotations.ts';
import { toCanonicalJson } from './canonical-json.ts';

/** The recursive reference: a copy with sorted keys, then JSON.stringify. */
function sortedCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(sortedCopy);
  const source = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(source)
      .sort()
      .map((key) => [key, sortedCopy(source[key])]),
  );
}

/** Nesting levels of objects and arrays, recursively (a scalar is 0, `[]` is 1). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

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

// JSON as JSON.parse makes it (a `__proto__` key is an own member), with hostile keys and strings.
const json = fc
  .jsonValue({ maxDepth: 6 })
  .chain((value) =>
    fc
      .constantFrom('__proto__', 'constructor', '\ud800', 'x')
      .map((key) => JSON.parse(`{${JSON.stringify(key)}:${JSON.stringify(value)}}`) as unknown),
  );

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

test('toCanonicalJson is JSON.stringify of a recursively sorted copy', async (t) => {
  await checkProperty(
    t,
    fc.property(json, (value) => {
      assert.equal(toCanonicalJson(value), JSON.stringify(sortedCopy(value)));
    }),
  );
});

test('isDeeperThan agrees with the recursive depth at every cap', async (t) => {
  await checkProperty(
    t,
    fc.property(json, fc.integer({ min: 0, max: 9 }), (value, cap) => {
      assert.equal(isDeeperThan(value, cap), depthOf(value) > cap);
    }),
  );
});

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

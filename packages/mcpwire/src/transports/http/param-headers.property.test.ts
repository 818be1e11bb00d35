// Differential properties of `Mcp-Param-*` (S26-HDR-1..5, S26-HTTP-14): whatever a tool's annotations
// and a call's arguments, the headers our client mirrors pass our server's check, and any header
// changed or removed after the fact is refused.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../../test/support/property.ts';
import type { JsonObject } from '../../jsonrpc/message.ts';
import { encodeHeaderValue } from './mcp-headers.ts';
import { checkParamHeaders, findHeaderParams } from './param-headers.ts';
import { readHeaderAnnotations, ToolHeaderRegistry } from './tool-header-annotations.ts';

const key = fc.constantFrom('region', 'a', 'b', 'count', 'flag', 'constructor', '__proto__');
const headerName = fc.stringMatching(/^[A-Za-z0-9!#$&'*+.^_`|~-]{1,8}$/);
const type = fc.constantFrom('string', 'integer', 'boolean');

/** An input schema with `x-mcp-header` on properties reached through `properties` chains, valid per S26-HDR-2. */
const annotatedSchema = fc
  .uniqueArray(fc.tuple(fc.array(key, { minLength: 1, maxLength: 2 }), headerName, type), {
    minLength: 1,
    maxLength: 4,
    selector: ([, header]) => header.toLowerCase(),
  })
  .map((annotations) => {
    const root: JsonObject = { type: 'object', properties: {} };
    for (const [path, header, leafType] of annotations) {
      let node = root;
      for (const step of path) {
        const properties = (node.properties ??= {}) as JsonObject;
        if (!Object.hasOwn(properties, step)) properties[step] = { type: 'object' };
        node = properties[step] as JsonObject;
      }
      Object.assign(node, { type: leafType, 'x-mcp-header': header });
    }
    return root;
  })
  .filter((schema) => readHeaderAnnotations(schema).ok);

/** Argument values of every kind, lone surrogates and numbers that print oddly included. */
const leaf = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 4 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0.1 + 0.2, 1e21, -0, 42, 2 ** 60),
  fc.boolean(),
  fc.constant(null),
);
const argumentsTree: fc.Arbitrary<unknown> = fc.letrec<{ tree: unknown }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.dictionary(key, tie('tree'), { maxKeys: 4, noNullPrototype: true }),
    fc.array(tie('tree'), { maxLength: 2 }),
  ),
})).tree;

/** The headers our client sends for a `tools/call` of a tool with `schema`, as a Headers object. */
function clientHeaders(schema: JsonObject, args: unknown): Headers {
  const registry = new ToolHeaderRegistry(() => assert.fail('the schema is valid'));
  registry.filterToolsList({ tools: [{ name: 'tool', inputSchema: schema }] });
  return new Headers(registry.paramHeaders('tool', args));
}

/** Arguments that set, at each annotated path, a value of any kind (or leave it out), over random others. */
function argumentsFor(schema: JsonObject): fc.Arbitrary<unknown> {
  const paths = findHeaderParams(schema).map((param) => param.path);
  return fc
    .tuple(
      argumentsTree,
      fc.array(fc.option(leaf, { nil: undefined }), { minLength: paths.length, maxLength: paths.length }),
    )
    .map(([base, values]) => {
      const root: Record<string, unknown> =
        typeof base === 'object' && base !== null && !Array.isArray(base) ? { ...base } : {};
      paths.forEach((path, i) => {
        let node = root;
        for (const step of path.slice(0, -1)) {
          const child = Object.hasOwn(node, step) ? node[step] : undefined;
          const next =
            typeof child === 'object' && child !== null && !Array.isArray(child) ? { ...child } : {};
          Object.defineProperty(node, step, {
            value: next,
            enumerable: true,
            writable: true,
            configurable: true,
          });
          node = next as Record<string, unknown>;
        }
        const value = values[i];
        if (value !== undefined)
          Object.defineProperty(node, path.at(-1)!, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      });
      return root;
    });
}

const callCase = annotatedSchema.chain((schema) =>
  argumentsFor(schema).map((args) => [schema, args] as const),
);

describe('Mcp-Param-* properties', () => {
  test("the headers our client mirrors always pass our server's check, for any annotations and arguments (S26-HDR-4, S26-HDR-5)", async (t) => {
    await checkProperty(
      t,
      fc.property(callCase, ([schema, args]) => {
        const headers = clientHeaders(schema, args);
        assert.equal(checkParamHeaders(findHeaderParams(schema), args, headers), undefined);
      }),
      {
        examples: [
          // Found by this property: a lone surrogate travels as U+FFFD (UTF-8 has no encoding for
          // it), and the server compared the header with the raw argument: -32020 for a valid call.
          [
            [
              { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A' } } },
              { a: 'x\ud800' },
            ],
          ],
        ],
      },
    );
  });

  test('a mirrored header changed to another value is refused with a message naming it (S26-HTTP-14)', async (t) => {
    await checkProperty(
      t,
      fc.property(callCase, fc.nat(), leaf, ([schema, args], pick, replacement) => {
        const headers = clientHeaders(schema, args);
        const names = [...headers.keys()];
        fc.pre(names.length > 0);
        const name = names[pick % names.length]!;
        const before = checkParamHeaders(findHeaderParams(schema), args, headers);
        const text = typeof replacement === 'string' ? replacement : String(replacement);
        headers.set(name, encodeHeaderValue(text));
        const after = checkParamHeaders(findHeaderParams(schema), args, headers);
        // The same value in another spelling (`42.0` for 42, U+FFFD for a lone surrogate) still agrees.
        fc.pre(after !== undefined || before !== undefined);
        assert.equal(before, undefined);
        assert.match(
          after!,
          new RegExp(`^Header mismatch: ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is `, 'i'),
        );
      }),
      { runs: 200 },
    );
  });

  test('a mirrored header that is removed is refused as required (S26-HTTP-14)', async (t) => {
    await checkProperty(
      t,
      fc.property(callCase, fc.nat(), ([schema, args], pick) => {
        const headers = clientHeaders(schema, args);
        const names = [...headers.keys()];
        fc.pre(names.length > 0);
        const name = names[pick % names.length]!;
        headers.delete(name);
        const message = checkParamHeaders(findHeaderParams(schema), args, headers);
        assert.match(message ?? '', /^Header mismatch: the Mcp-Param-\S+ header is required/);
      }),
    );
  });
});

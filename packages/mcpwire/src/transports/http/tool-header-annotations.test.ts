// Validity of `x-mcp-header` annotations (S26-HDR-2) and what a client learns from tools/list (S26-HDR-3).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../jsonrpc/message.ts';
import type { InvalidToolHeaderError } from './http-errors.ts';
import { readHeaderAnnotations, ToolHeaderRegistry } from './tool-header-annotations.ts';

function schema(properties: JsonObject, extra: JsonObject = {}): JsonObject {
  return { type: 'object', properties, ...extra };
}

function reasonOf(inputSchema: unknown): string | undefined {
  const check = readHeaderAnnotations(inputSchema);
  return check.ok ? undefined : check.reason;
}

describe('readHeaderAnnotations', () => {
  it('accepts tokens on string, integer and boolean properties reached through properties only', () => {
    const check = readHeaderAnnotations(
      schema({
        region: { type: 'string', 'x-mcp-header': 'Region' },
        count: { type: 'integer', 'x-mcp-header': "A!#$%&'*+-.^_`|~9" },
        flag: { type: 'boolean', 'x-mcp-header': 'Flag' },
        config: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
        plain: { type: 'number' },
        'x-mcp-header': { type: 'string' },
      }),
    );
    assert.deepEqual(check, {
      ok: true,
      annotations: [
        { path: ['region'], header: 'Region' },
        { path: ['count'], header: "A!#$%&'*+-.^_`|~9" },
        { path: ['flag'], header: 'Flag' },
        { path: ['config', 'zone'], header: 'Zone' },
      ],
    });
    assert.deepEqual(readHeaderAnnotations(undefined), { ok: true, annotations: [] });
    assert.deepEqual(
      readHeaderAnnotations(schema({ v: { type: 'string', default: { 'x-mcp-header': 'X' } } })),
      {
        ok: true,
        annotations: [],
      },
    );
  });

  it('refuses empty, non-token, duplicate, wrongly typed and unreachable annotations', () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ['empty', schema({ v: { type: 'string', 'x-mcp-header': '' } }), /non-empty string/],
      ['not a string', schema({ v: { type: 'string', 'x-mcp-header': 5 } }), /non-empty string/],
      ['space', schema({ v: { type: 'string', 'x-mcp-header': 'A B' } }), /HTTP token/],
      ['colon', schema({ v: { type: 'string', 'x-mcp-header': 'A:B' } }), /HTTP token/],
      ['non-ASCII', schema({ v: { type: 'string', 'x-mcp-header': 'Région' } }), /HTTP token/],
      ['control', schema({ v: { type: 'string', 'x-mcp-header': 'A\tB' } }), /HTTP token/],
      [
        'duplicate',
        schema({ a: { type: 'string', 'x-mcp-header': 'Id' }, b: { type: 'string', 'x-mcp-header': 'ID' } }),
        /repeats/,
      ],
      ['number', schema({ v: { type: 'number', 'x-mcp-header': 'V' } }), /not "number"/],
      ['object', schema({ v: { type: 'object', 'x-mcp-header': 'V' } }), /not "object"/],
      ['array', schema({ v: { type: 'array', 'x-mcp-header': 'V' } }), /not "array"/],
      ['null', schema({ v: { type: 'null', 'x-mcp-header': 'V' } }), /not "null"/],
      [
        'union type',
        schema({ v: { type: ['string', 'null'], 'x-mcp-header': 'V' } }),
        /not \["string","null"\]/,
      ],
      ['untyped', schema({ v: { 'x-mcp-header': 'V' } }), /not "untyped"/],
      ['root', { type: 'string', 'x-mcp-header': 'Root' }, /not reached/],
      [
        'items',
        schema({ v: { type: 'array', items: { type: 'string', 'x-mcp-header': 'V' } } }),
        /under items/,
      ],
      ['anyOf', schema({ v: { anyOf: [{ type: 'string', 'x-mcp-header': 'V' }] } }), /under anyOf\/0/],
      ['$defs', schema({}, { $defs: { d: { type: 'string', 'x-mcp-header': 'V' } } }), /under \$defs\/d/],
      [
        'then',
        schema({}, { then: { properties: { v: { type: 'string', 'x-mcp-header': 'V' } } } }),
        /not reached/,
      ],
    ];
    for (const [name, inputSchema, pattern] of cases) {
      const reason = reasonOf(inputSchema);
      assert.ok(reason !== undefined, `${name}: accepted`);
      assert.match(reason, pattern, name);
    }
  });
});

describe('ToolHeaderRegistry', () => {
  it('drops invalid tools, learns the valid ones, and forgets a tool that turns invalid', () => {
    const dropped: InvalidToolHeaderError[] = [];
    const registry = new ToolHeaderRegistry((error) => dropped.push(error));
    const good = { name: 'good', inputSchema: schema({ r: { type: 'string', 'x-mcp-header': 'R' } }) };
    const bad = { name: 'bad', inputSchema: schema({ r: { type: 'number', 'x-mcp-header': 'R' } }) };
    const plain = { name: 'plain', inputSchema: schema({}) };
    const result = { tools: [good, bad, plain], nextCursor: 'n' };
    assert.deepEqual(registry.filterToolsList(result), { tools: [good, plain], nextCursor: 'n' });
    assert.deepEqual(
      dropped.map((e) => [e.code, e.tool]),
      [['INVALID_TOOL_HEADER', 'bad']],
    );
    assert.deepEqual(registry.paramHeaders('good', { r: 'x' }), [['Mcp-Param-R', 'x']]);
    assert.deepEqual(registry.paramHeaders('good', { r: null }), []);
    assert.deepEqual(registry.paramHeaders('unknown', { r: 'x' }), []);

    const unchanged = { tools: [good, plain] };
    assert.equal(registry.filterToolsList(unchanged), unchanged, 'nothing dropped: the same object');
    const turned = { name: 'good', inputSchema: schema({ r: { type: 'object', 'x-mcp-header': 'R' } }) };
    assert.deepEqual(registry.filterToolsList({ tools: [turned] }), { tools: [] });
    assert.deepEqual(registry.paramHeaders('good', { r: 'x' }), []);
    assert.deepEqual(registry.filterToolsList({ other: 1 }), { other: 1 });
  });
});

describe('deep input schemas (issue 21)', () => {
  /** `depth` levels of `properties`, then `leaf`. */
  function chain(depth: number, leaf: JsonObject): JsonObject {
    let node = leaf;
    for (let level = 0; level < depth; level += 1) node = schema({ a: node });
    return node;
  }

  it('walks a 100,000-deep schema to the cap without recursion and treats the rest as opaque', () => {
    const deep = chain(100_000, { type: 'object', 'x-mcp-header': 'Invalid' });
    assert.deepEqual(readHeaderAnnotations(schema({ deep, r: { type: 'string', 'x-mcp-header': 'R' } })), {
      ok: true,
      annotations: [{ path: ['r'], header: 'R' }],
    });
    const nearTop = chain(3, { type: 'object', 'x-mcp-header': 'Invalid' });
    assert.match(reasonOf(schema({ deep, nearTop })) ?? '', /must be on a string/);
  });

  it('walks 100,000 nested subschemas of other keywords (items, anyOf) without recursion', () => {
    let node: JsonObject = { type: 'string' };
    for (let level = 0; level < 100_000; level += 1)
      node = level % 2 === 0 ? { items: node } : { anyOf: [node, { type: 'null' }] };
    assert.deepEqual(readHeaderAnnotations(node), { ok: true, annotations: [] });
  });
});

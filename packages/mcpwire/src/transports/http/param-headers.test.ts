// `x-mcp-header` annotations: found through `properties` chains, and the `Mcp-Param-*` mirror
// compared with each argument (strings, integers numerically, booleans, nested properties).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkParamHeaders, findHeaderParams } from './param-headers.ts';

const SCHEMA = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    count: { type: 'integer', 'x-mcp-header': 'Count' },
    dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
    target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Ignored' } },
  },
};

test('annotations are found only through properties chains', () => {
  assert.deepEqual(
    findHeaderParams(SCHEMA).map((param) => [param.path.join('.'), param.header]),
    [
      ['region', 'Region'],
      ['count', 'Count'],
      ['dry', 'Dry'],
      ['target.zone', 'Zone'],
    ],
  );
  assert.deepEqual(findHeaderParams({ 'x-mcp-header': 'Root' }), [], 'the root itself is not a property');
});

test('each argument present must be mirrored exactly; absent or null ones expect nothing', () => {
  const params = findHeaderParams(SCHEMA);
  const args = { region: 'eu west', count: 42, dry: false, target: { zone: 'b' } };
  const good = new Headers({
    'Mcp-Param-Region': 'eu west',
    'Mcp-Param-Count': '42.0',
    'Mcp-Param-Dry': 'false',
    'Mcp-Param-Zone': 'b',
  });
  assert.equal(checkParamHeaders(params, args, good), undefined);
  assert.equal(checkParamHeaders(params, { region: null }, new Headers()), undefined);
  assert.match(
    checkParamHeaders(params, { count: 42 }, new Headers({ 'Mcp-Param-Count': '43' })) ?? '',
    /Mcp-Param-Count/,
  );
  assert.match(
    checkParamHeaders(params, { dry: true }, new Headers({ 'Mcp-Param-Dry': 'TRUE' })) ?? '',
    /Mcp-Param-Dry/,
  );
  assert.match(checkParamHeaders(params, { target: { zone: 'b' } }, new Headers()) ?? '', /required/);
  assert.equal(
    checkParamHeaders(params, { region: '' }, new Headers({ 'Mcp-Param-Region': '' })),
    undefined,
    'empty string, empty header',
  );
});

test('a properties chain 100,000 deep is searched to the depth cap, not recursed (issue 21)', () => {
  let schema: Record<string, unknown> = { type: 'string', 'x-mcp-header': 'TooDeep' };
  for (let level = 0; level < 100_000; level += 1) schema = { type: 'object', properties: { a: schema } };
  schema = { type: 'object', properties: { top: { type: 'string', 'x-mcp-header': 'Top' }, deep: schema } };
  assert.deepEqual(
    findHeaderParams(schema).map((param) => [param.path.join('.'), param.header]),
    [['top', 'Top']],
  );
});

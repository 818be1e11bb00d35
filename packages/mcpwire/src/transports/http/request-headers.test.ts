// Header values of the stateless era: the base64 sentinel decoded strictly (checklist section 5
// item 14) and the standard headers compared with the body.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkStandardHeaders, decodeHeaderValue } from './request-headers.ts';

test('the =?base64?...?= sentinel: canonical base64 of UTF-8 only; anything else unwrapped is a literal', () => {
  assert.equal(decodeHeaderValue('=?base64?SGVsbG8=?='), 'Hello');
  assert.equal(decodeHeaderValue('=?base64?Y2Fmw6k=?='), 'café');
  assert.equal(decodeHeaderValue('=?base64??='), '');
  assert.equal(decodeHeaderValue('=?base64?SGVsbG8?='), undefined, 'missing padding');
  assert.equal(decodeHeaderValue('=?base64?SGVs!!!bG8=?='), undefined, 'bad characters');
  assert.equal(decodeHeaderValue('=?base64?/w==?='), undefined, 'not UTF-8');
  for (const literal of [
    'Hello',
    '=?BASE64?SGVsbG8=?=',
    '=?base64?SGVsbG8=',
    'SGVsbG8=?=',
    '=?base64?=',
    'a b',
    '',
  ]) {
    assert.equal(decodeHeaderValue(literal), literal, literal);
  }
  assert.equal(decodeHeaderValue('caf\u00e9'), undefined, 'non-ASCII must be sent encoded');
  assert.equal(decodeHeaderValue('tab\there'), undefined, 'control characters must be sent encoded');
});

test('checkStandardHeaders names the first header that is missing or differs', () => {
  const message = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'echo' } };
  const headers = (entries: Record<string, string>) => new Headers(entries);
  const full = { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo' };
  assert.equal(checkStandardHeaders(message, '2026-07-28', headers(full)), undefined);
  assert.match(checkStandardHeaders(message, '2026-07-29', headers(full)) ?? '', /MCP-Protocol-Version/);
  assert.match(
    checkStandardHeaders(message, '2026-07-28', headers({ ...full, 'Mcp-Name': 'ECHO' })) ?? '',
    /Mcp-Name/,
  );
  assert.equal(
    checkStandardHeaders(message, '2026-07-28', headers({ ...full, 'Mcp-Name': '=?base64?ZWNobw==?=' })),
    undefined,
  );
  const list = { ...message, method: 'tools/list', params: {} };
  assert.equal(
    checkStandardHeaders(
      list,
      '2026-07-28',
      headers({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/list' }),
    ),
    undefined,
    'no Mcp-Name where the method has none',
  );
});

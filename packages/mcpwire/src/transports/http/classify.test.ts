// Body-first classification of POSTs (S26 section 3.5): one row per rule.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFrame } from '../../jsonrpc/codec.ts';
import { classifyPost } from './classify.ts';

const CLAIM = {
  _meta: {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  },
};

function kindOf(body: unknown, protocolVersion: string | null = null, method: string | null = null): string {
  const route = classifyPost(decodeFrame(JSON.stringify(body)), { protocolVersion, method });
  return route.kind === 'reject' ? `reject ${route.error.status} ${route.error.code}` : route.kind;
}

test('each kind of body goes to its era', () => {
  const rows: Array<[string, unknown, string | null, string]> = [
    [
      'initialize without a claim',
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      null,
      'handshake',
    ],
    [
      'initialize with a stateless-era header',
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      '2026-07-28',
      'reject 400 -32020',
    ],
    [
      'initialize with a claim',
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: CLAIM },
      '2026-07-28',
      'stateless-request',
    ],
    [
      'a claimed request',
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: CLAIM },
      null,
      'stateless-request',
    ],
    [
      'no claim, stateless-era header',
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      '2026-07-28',
      'reject 400 -32602',
    ],
    [
      'no claim, handshake-era header',
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      '2025-11-25',
      'handshake',
    ],
    ['a response', { jsonrpc: '2.0', id: 1, result: {} }, '2026-07-28', 'handshake'],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], null, 'handshake'],
    [
      'a batch with a claim',
      [{ jsonrpc: '2.0', id: 1, method: 'ping', params: CLAIM }],
      null,
      'reject 400 -32600',
    ],
    [
      'a notification, stateless-era header',
      { jsonrpc: '2.0', method: 'notifications/x' },
      '2026-07-28',
      'stateless-notification',
    ],
    ['a notification, no header', { jsonrpc: '2.0', method: 'notifications/initialized' }, null, 'handshake'],
    ['not JSON-RPC', { jsonrpc: '2.0' }, null, 'reject 400 -32600'],
  ];
  for (const [label, body, header, expected] of rows) assert.equal(kindOf(body, header), expected, label);
  assert.equal(
    kindOf({ jsonrpc: '2.0', method: 'a' }, '2026-07-28', 'b'),
    'reject 400 -32020',
    'Mcp-Method checked on notifications',
  );
});

test('a -32602 for a missing envelope names the missing keys and echoes the id', () => {
  const route = classifyPost(
    decodeFrame('{"jsonrpc":"2.0","id":"x","method":"server/discover","params":{"_meta":{}}}'),
    {
      protocolVersion: '2026-07-28',
      method: null,
    },
  );
  assert.equal(route.kind, 'reject');
  if (route.kind !== 'reject') return;
  assert.equal(route.error.id, 'x');
  assert.deepEqual(route.error.data, {
    missing: ['io.modelcontextprotocol/protocolVersion', 'io.modelcontextprotocol/clientCapabilities'],
  });
});

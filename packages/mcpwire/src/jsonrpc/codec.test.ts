// The codec names the exact JSON-RPC error for each malformed input (BASE-2..BASE-7).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFrame, encodeMessage, type Frame } from './codec.ts';

function errorOf(frame: Frame): { id: unknown; code: number; message: string } {
  assert.equal(frame.type, 'invalid');
  if (frame.type !== 'invalid') throw new Error('unreachable');
  return { id: frame.response.id, code: frame.response.error.code, message: frame.response.error.message };
}

test('valid requests, notifications and responses decode unchanged', () => {
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'x' } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, result: {} },
    { jsonrpc: '2.0', id: 3, error: { code: -32601, message: 'nope', data: { x: 1 } } },
    { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
  ];
  for (const message of messages) {
    const frame = decodeFrame(JSON.stringify(message));
    assert.deepEqual(frame, { type: 'message', message });
    assert.deepEqual(JSON.parse(encodeMessage(message as never)), message);
  }
});

test('malformed JSON is -32700 without an id', () => {
  const error = errorOf(decodeFrame('{"jsonrpc":"2.0","id":1,'));
  assert.equal(error.code, -32700);
  assert.equal(error.id, undefined);
});

test('envelope errors are -32600, with the id when it is readable', () => {
  const cases: Array<[unknown, unknown]> = [
    [{ jsonrpc: '1.0', id: 7, method: 'ping' }, 7],
    [{ id: 7, method: 'ping' }, 7],
    [{ jsonrpc: '2.0', id: null, method: 'ping' }, undefined],
    [{ jsonrpc: '2.0', id: { a: 1 }, method: 'ping' }, undefined],
    [{ jsonrpc: '2.0', id: true, method: 'ping' }, undefined],
    [{ jsonrpc: '2.0', id: 1.5, method: 'ping' }, undefined],
    [{ jsonrpc: '2.0', id: 8, method: 5 }, 8],
    [{ jsonrpc: '2.0', id: 9, method: 'x', params: [1, 2] }, 9],
    [{ jsonrpc: '2.0', id: 10, result: {}, error: { code: 1, message: 'm' } }, 10],
    [{ jsonrpc: '2.0', id: 11 }, 11],
    [{ jsonrpc: '2.0', id: 12, result: 'text' }, 12],
    [{ jsonrpc: '2.0', id: 13, error: { code: 'x', message: 'm' } }, 13],
    [42, undefined],
    ['text', undefined],
    [null, undefined],
  ];
  for (const [input, id] of cases) {
    const error = errorOf(decodeFrame(JSON.stringify(input)));
    assert.equal(error.code, -32600, JSON.stringify(input));
    assert.equal(error.id, id, JSON.stringify(input));
  }
});

test('a batch decodes item by item; an empty batch is -32600', () => {
  const frame = decodeFrame('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2}]');
  assert.equal(frame.type, 'batch');
  if (frame.type !== 'batch') return;
  assert.equal(frame.items[0]?.type, 'message');
  assert.equal(frame.items[1]?.type, 'invalid');
  assert.equal(errorOf(decodeFrame('[]')).code, -32600);
});

test('encoded messages never contain a raw newline', () => {
  const text = encodeMessage({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb\r\nc\u2028' } });
  assert.ok(!text.includes('\n') && !text.includes('\r'));
});

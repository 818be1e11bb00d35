// A result's pre-encoded last property: the encoder's text is byte for byte JSON.stringify's, and
// anything that breaks the splice's preconditions falls back to serialising the message.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeMessage } from './codec.ts';
import { createEncodedTail, encodedTail } from './encoded-tail.ts';
import type { Message } from './message.ts';

const info = { name: 'server', title: 'A "quoted" server', version: '1.0.0', icons: [{ src: 'x.png' }] };
const tail = createEncodedTail('_meta', { 'io.modelcontextprotocol/serverInfo': info });

function response(result: object, id: string | number = 7): Message {
  return { jsonrpc: '2.0', id, result } as unknown as Message;
}

test('a result ending with its tail encodes to the same bytes as JSON.stringify', () => {
  const results = [
    { resultType: 'complete', content: [{ type: 'text', text: 'hi\n"there"' }], _meta: tail.value },
    { _meta: tail.value },
  ];
  for (const each of results) {
    const message = response({ ...each, [encodedTail]: tail }, 'id-1');
    assert.equal(encodeMessage(message), JSON.stringify(message));
    // The value is back in place afterwards.
    assert.equal((message as unknown as { result: { _meta: unknown } }).result._meta, tail.value);
  }
});

test('the tail holds a frozen copy: later changes to the original do not reach the text', () => {
  const original = { name: 'before' };
  const copied = createEncodedTail('_meta', original);
  original.name = 'after';
  assert.equal(copied.text, '"_meta":{"name":"before"}');
  assert.ok(Object.isFrozen(copied.value));
  const message = response({ a: 1, _meta: copied.value, [encodedTail]: copied });
  assert.equal(encodeMessage(message), '{"jsonrpc":"2.0","id":7,"result":{"a":1,"_meta":{"name":"before"}}}');
});

test('without the splice preconditions the message is serialised as it is', () => {
  const other = { 'io.modelcontextprotocol/serverInfo': { name: 'other' } };
  const cases: Message[] = [
    // The tail's key now holds another value.
    response({ a: 1, _meta: other, [encodedTail]: tail }),
    // `result` is not the response's last key.
    { jsonrpc: '2.0', result: { a: 1, _meta: tail.value, [encodedTail]: tail }, id: 3 } as unknown as Message,
    // A key after `result` whose value is an object: its text also ends with `}}`.
    { ...response({ a: 1, _meta: tail.value, [encodedTail]: tail }), extra: { b: 2 } } as unknown as Message,
    // A key before `jsonrpc`: not the envelope the encoder writes itself.
    { extra: 1, ...response({ a: 1, _meta: tail.value, [encodedTail]: tail }) } as unknown as Message,
    // A frozen result cannot lend its property for the splice.
    response(Object.freeze({ a: 1, _meta: tail.value, [encodedTail]: tail })),
    // Nor a result whose tail property is read-only (it is not frozen: the assignment itself refuses).
    response(
      Object.defineProperty({ a: 1, [encodedTail]: tail }, '_meta', { value: tail.value, enumerable: true }),
    ),
    // Not a response at all.
    { jsonrpc: '2.0', id: 1, method: 'x', params: { _meta: tail.value } } as Message,
  ];
  for (const message of cases) assert.equal(encodeMessage(message), JSON.stringify(message));
});

test('a numeric id is written as JSON.stringify writes it, whatever the number', () => {
  for (const id of [0, -0, 7, -3, 1.5, 1e21, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY]) {
    const message = response({ a: 1, _meta: tail.value, [encodedTail]: tail }, id);
    assert.equal(encodeMessage(message), JSON.stringify(message));
  }
});

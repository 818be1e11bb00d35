// The wire engine's SSE reader: the same events whatever the split of the bytes (every offset, one
// byte at a time, inside a multi-byte character), with LF, CRLF and CR line ends.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SseReader } from './sse-reader.ts';

function read(parts: readonly Buffer[]): string[] {
  const events: string[] = [];
  const reader = new SseReader((data) => events.push(data));
  for (const part of parts) reader.push(part);
  return events;
}

test('events whatever the split and the line ends; comments, other fields and empty events ignored', () => {
  const text =
    ': a comment\n\nevent: message\nid: 7\ndata: {"a":"caf\u00e9 \u2615"}\n\n' +
    'data: one\r\ndata:two\r\ndata\r\n\r\nretry: 5\rdata: cr\r\rdataX: no\n\n';
  const bytes = Buffer.from(text, 'utf8');
  const expected = ['{"a":"caf\u00e9 \u2615"}', 'one\ntwo\n', 'cr'];
  assert.deepEqual(read([bytes]), expected);
  for (let at = 1; at < bytes.length; at++)
    assert.deepEqual(read([bytes.subarray(0, at), bytes.subarray(at)]), expected, `split at ${at}`);
  assert.deepEqual(read([...bytes].map((byte) => Buffer.from([byte]))), expected, 'byte by byte');
});

test('an event not ended by a blank line is not delivered', () => {
  assert.deepEqual(read([Buffer.from('data: half\n')]), []);
});

// SSE writing: the exact wire text of each kind of event, and a connection that notices the client leave.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeSseEvent, SseConnection } from './sse-writer.ts';

test('events encode field by field, multi-line data as several data lines', () => {
  assert.equal(
    encodeSseEvent({ event: 'message', id: '7', data: '{"a":1}' }),
    'event: message\nid: 7\ndata: {"a":1}\n\n',
  );
  assert.equal(
    encodeSseEvent({ id: 's:0', retry: 1000, data: '' }),
    'id: s:0\nretry: 1000\ndata: \n\n',
    'priming event',
  );
  assert.equal(encodeSseEvent({ data: 'one\ntwo\r\nthree' }), 'data: one\ndata: two\ndata: three\n\n');
  assert.equal(encodeSseEvent({ comment: 'keep-alive' }), ': keep-alive\n\n');
  assert.equal(encodeSseEvent({ comment: 'a\nb' }), ': a b\n\n', 'a comment cannot break out of its line');
});

test('a connection streams what is written and ends on close', async () => {
  const connection = new SseConnection();
  connection.write({ data: 'x' });
  connection.close();
  connection.write({ data: 'dropped' });
  assert.equal(await new Response(connection.body).text(), 'data: x\n\n');
  assert.equal(connection.isOpen, false);
});

test('the client cancelling the body fires onGone once; our own close never does', async () => {
  const leaving = new SseConnection();
  let gone = 0;
  leaving.onGone(() => gone++);
  await leaving.body.cancel();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(gone, 1);
  assert.equal(leaving.isOpen, false);
  leaving.onGone(() => gone++);
  assert.equal(gone, 2, 'a late listener runs at once');

  const closing = new SseConnection();
  let closedGone = 0;
  closing.onGone(() => closedGone++);
  closing.close();
  await closing.body.cancel();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(closedGone, 0);
});

// A resumable stream whose event store fails for a moment (Redis down, issue 24's multi-node soak):
// the events sent meanwhile still reach the live connection, in order, and the failure is reported.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryEventStore, type EventStore } from './event-store.ts';
import { ResumableStream } from './sse-stream.ts';
import { SseConnection } from './sse-writer.ts';

/** An in-memory store whose `append` rejects while `isDown` is true. */
function flakyStore(): { store: EventStore; setDown: (isDown: boolean) => void } {
  const inner = new InMemoryEventStore();
  let isDown = false;
  const store: EventStore = {
    append: (streamId, data) =>
      isDown ? Promise.reject(new Error('the store is unavailable')) : inner.append(streamId, data),
    replayAfter: (lastEventId) => inner.replayAfter(lastEventId),
    drop: async (streamId) => {
      await inner.drop(streamId);
    },
  };
  return { store, setDown: (value) => (isDown = value) };
}

test('HTTP-22: an event the store could not keep is still written to the live connection, in order', async () => {
  const { store, setDown } = flakyStore();
  const errors: Error[] = [];
  const stream = new ResumableStream('s1', store, (error) => errors.push(error));
  const connection = new SseConnection();
  stream.open(connection, undefined);
  void stream.send({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 1, progress: 100 },
  });
  await stream.drained();
  setDown(true);
  void stream.send({
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 1, progress: 200 },
  });
  await stream.drained();
  setDown(false);
  void stream.send({ jsonrpc: '2.0', id: 1, result: { content: [] } });
  stream.finish();
  await stream.drained();
  const text = await new Response(connection.body).text();
  const progress = [...text.matchAll(/"progress":(\d+)/g)].map((match) => Number(match[1]));
  assert.deepEqual(progress, [100, 200], `the live client saw:\n${text}`);
  assert.match(text, /"result"/);
  assert.equal(errors.length, 1, 'the store failure is reported');
});

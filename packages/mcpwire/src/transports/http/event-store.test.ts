// The in-memory event store: ids that name their stream, replay after an id, eviction per stream
// and across streams, and dropping a stream.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryEventStore } from './event-store.ts';

test('replayAfter returns the events after an id, of that stream only', async () => {
  const store = new InMemoryEventStore();
  const a0 = await store.append('a', '');
  await store.append('b', 'b-1');
  const a1 = await store.append('a', 'a-1');
  await store.append('a', 'a-2');
  assert.deepEqual(await store.replayAfter(a0), {
    streamId: 'a',
    events: [
      { id: a1, data: 'a-1' },
      { id: 'a:2', data: 'a-2' },
    ],
  });
  assert.deepEqual(await store.replayAfter('a:2'), { streamId: 'a', events: [] });
  for (const unknown of ['a:3', 'c:0', 'nonsense', 'a:x'])
    assert.equal(await store.replayAfter(unknown), undefined, unknown);
});

test('a stream keeps its newest events; an id before the kept window cannot be replayed', async () => {
  const store = new InMemoryEventStore({ maxEventsPerStream: 2 });
  for (const data of ['0', '1', '2', '3']) await store.append('s', data);
  assert.equal(await store.replayAfter('s:0'), undefined, 'event 1 was evicted: a replay would have a gap');
  assert.deepEqual((await store.replayAfter('s:1'))?.events, [
    { id: 's:2', data: '2' },
    { id: 's:3', data: '3' },
  ]);
});

test('the least recently written stream is dropped beyond maxStreams; drop forgets a stream', async () => {
  const store = new InMemoryEventStore({ maxStreams: 2 });
  await store.append('old', 'x');
  await store.append('mid', 'x');
  await store.append('old', 'y');
  await store.append('new', 'x');
  assert.equal(await store.replayAfter('mid:0'), undefined);
  assert.ok(await store.replayAfter('old:0'));
  await store.drop('old');
  assert.equal(await store.replayAfter('old:0'), undefined);
});

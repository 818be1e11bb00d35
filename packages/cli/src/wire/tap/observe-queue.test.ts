// The stdio tap's deferred observation: tasks run later, in the order added, a few KiB per turn of
// the event loop, chunks cut after a newline; each task reads the time it was added on the clock;
// flush runs what is left; a queue past its cap catches up in the reading callback.

import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { test } from 'node:test';
import { LineSplitter } from '../recorder.ts';
import { ObserveQueue } from './observe-queue.ts';

test('chunks are observed later, in order, cut after newlines into slices, with the time each was read', async () => {
  const queue = new ObserveQueue();
  const lines: string[] = [];
  const slices: number[] = [];
  const stamps: Array<[number, number, number]> = [];
  const splitter = new LineSplitter((line) => lines.push(line));
  const sent = Array.from({ length: 400 }, (_, index) => `{"jsonrpc":"2.0","id":${index},"result":{}}`);
  const chunk = Buffer.from(`${sent.join('\n')}\n`);
  const before = performance.now();
  queue.addChunk(chunk, (slice) => {
    slices.push(slice.length);
    // Every slice but the last ends with a line's newline: the splitter never holds a part.
    assert.equal(slice.at(-1), 10);
    stamps.push([before, queue.clock(), after]);
    splitter.push(slice);
  });
  const after = performance.now();
  let ran = false;
  queue.add(0, () => (ran = true));
  // Nothing runs in the reading callback itself.
  assert.deepEqual([lines.length, ran], [0, false]);
  while (!ran) await nextTurn();
  assert.deepEqual(lines, sent);
  assert.ok(slices.length > 1, 'a chunk of 16 KiB is observed over several turns');
  assert.ok(slices.every((length) => length <= 4096 + 64));
  for (const [low, at, high] of stamps) assert.ok(low <= at && at <= high, 'stamped when read');
  // Outside a task, the clock is now.
  const now = performance.now();
  assert.ok(queue.clock() >= now);
});

test('a line longer than a slice is one slice; flush runs everything left, in order, at once', () => {
  const queue = new ObserveQueue();
  const seen: string[] = [];
  const long = 'x'.repeat(10_000);
  queue.addChunk(Buffer.from(`${long}\nshort\n`), (slice) => seen.push(slice.toString()));
  queue.add(0, () => seen.push('exit'));
  queue.flush();
  assert.deepEqual(seen, [`${long}\n`, 'short\n', 'exit']);
});

test('past its cap the queue catches up in the reading callback, oldest first, and stays under the cap', () => {
  const queue = new ObserveQueue();
  let observed = 0;
  const chunk = Buffer.alloc(64 * 1024, 'a\n');
  for (let index = 0; index < 64; index++) queue.addChunk(chunk, (slice) => (observed += slice.length));
  const queued = 64 * chunk.length - observed;
  // 4 MiB added with no turn of the event loop: all but about the cap was observed already.
  assert.ok(observed > 0);
  assert.ok(queued <= 1024 * 1024, `${queued} bytes still queued`);
  queue.flush();
  assert.equal(observed, 64 * chunk.length);
});

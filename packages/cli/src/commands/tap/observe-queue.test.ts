// The stdio tap's deferred observation: tasks run later, in the order added, a few KiB per turn of
// the event loop, chunks cut after a newline; each task reads the time it was added on the clock;
// flush runs what is left; a queue past its cap catches up in the reading callback; less than a
// slice is gathered a while first (under a fake clock).

import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { mock, test } from 'node:test';
import { LineSplitter } from '../../wire/recorder.ts';
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

test('less than a slice waits to be gathered, then is observed with no more input; a slice waiting goes on the next turn', () => {
  mock.timers.enable({ apis: ['setTimeout', 'setImmediate'] });
  try {
    const queue = new ObserveQueue();
    const seen: string[] = [];
    const observe = (slice: Buffer): void => void seen.push(slice.toString());
    queue.addChunk(Buffer.from('{"id":1}\n'), observe);
    queue.addChunk(Buffer.from('{"id":2}\n'), observe);
    queue.add(0, () => seen.push('end'));
    mock.timers.tick(0);
    assert.deepEqual(seen, [], 'a message or two is not observed on the next turn');
    mock.timers.tick(1000);
    assert.deepEqual(seen, ['{"id":1}\n', '{"id":2}\n', 'end']);
    // A slice's worth waiting runs on the next turn, with what was gathered before it, in order.
    queue.addChunk(Buffer.from('{"id":3}\n'), observe);
    const lines = Array.from({ length: 500 }, (_, index) => `{"id":${index + 4}}\n`).join('');
    queue.addChunk(Buffer.from(lines), observe);
    mock.timers.tick(0);
    assert.equal(seen[3], '{"id":3}\n');
    assert.ok(seen.length > 4, 'the first slice ran on the next turn');
    // flush runs the rest at once; nothing runs twice when the timer or the next turn comes.
    queue.addChunk(Buffer.from('{"id":"last"}\n'), observe);
    queue.flush();
    const count = seen.length;
    assert.equal(seen.at(-1), '{"id":"last"}\n');
    mock.timers.tick(1000);
    assert.equal(seen.length, count);
    assert.equal(seen.join('').split('\n').length - 1, 504);
  } finally {
    mock.timers.reset();
  }
});

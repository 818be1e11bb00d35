// The latency histogram keeps one hidden class (V8 map) while it records, in a process of its own
// (this file): a test that had recorded before would have moved V8's class tree on already.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { LatencyHistogram } from './histogram.ts';

test('recording fractions keeps a histogram in the hidden class it was made with', () => {
  // load makes the measured window's histogram after the warm-up's has counted. Had recording moved
  // the warm-up's histogram to another hidden class (a field from small integer to double), V8
  // would throw away its compiled answer path as the measured one is made (--trace-deopt: "code
  // dependencies" in `record` and `recordOk` at the start of every measured window).
  setFlagsFromString('--allow-natives-syntax');
  // V8's natives syntax is reachable only from code compiled after the flag is set: hence Function.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
    a: unknown,
    b: unknown,
  ) => boolean;
  const untouched = new LatencyHistogram();
  const used = new LatencyHistogram();
  for (const ms of [0.125, 3, 0.0371, 12.5]) used.record(ms);
  assert.ok(haveSameMap(used, untouched), 'recording changed the hidden class');
});

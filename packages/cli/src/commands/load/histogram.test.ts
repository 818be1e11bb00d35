// The latency histogram: percentiles within 1% of the exact ones on random data of several shapes,
// bounded memory whatever is recorded, and buckets that add up to the count.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LatencyHistogram } from './histogram.ts';

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The nearest-rank percentile of sorted values: the smallest value with at least p% at or below it. */
function exactPercentile(sorted: Float64Array, p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

const SHAPES: Record<string, (next: () => number) => number> = {
  'uniform 0.05..500 ms': (next) => 0.05 + next() * 500,
  'log-normal around 2 ms': (next) => Math.exp(Math.log(2) + 1.2 * gaussian(next)),
  'bimodal 0.2 ms and 80 ms': (next) => (next() < 0.9 ? 0.2 + next() * 0.05 : 80 + next() * 40),
  'heavy tail (Pareto) from 1 ms': (next) => 1 / Math.pow(1 - next(), 1 / 1.5),
};

function gaussian(next: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
}

for (const [name, draw] of Object.entries(SHAPES)) {
  test(`percentiles within 1% of exact: ${name}`, () => {
    const next = random(name.length * 7919);
    const histogram = new LatencyHistogram();
    const values = new Float64Array(50_000);
    for (let i = 0; i < values.length; i++) {
      values[i] = draw(next);
      histogram.record(values[i]!);
    }
    const sorted = values.slice().sort();
    for (const p of [1, 10, 50, 90, 99, 99.9]) {
      const exact = exactPercentile(sorted, p);
      const estimate = histogram.percentile(p);
      assert.ok(
        Math.abs(estimate - exact) <= exact * 0.01,
        `p${p}: histogram ${estimate} ms, exact ${exact} ms (${(((estimate - exact) / exact) * 100).toFixed(2)}%)`,
      );
    }
    assert.equal(histogram.count, values.length);
    assert.equal(histogram.max, sorted[sorted.length - 1]);
    assert.equal(histogram.min, sorted[0]);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    assert.ok(Math.abs(histogram.mean - mean) <= mean * 1e-9, `mean ${histogram.mean}, exact ${mean}`);
  });
}

test('buckets: non-empty ones only, in order, adding up to the count; each about 1% wide', () => {
  const histogram = new LatencyHistogram();
  const next = random(42);
  for (let i = 0; i < 10_000; i++) histogram.record(next() * 100);
  const buckets = histogram.buckets();
  assert.equal(
    buckets.reduce((sum, bucket) => sum + bucket.count, 0),
    10_000,
  );
  for (let i = 0; i < buckets.length; i++) {
    const bucket = buckets[i]!;
    assert.ok(bucket.count > 0);
    assert.ok(bucket.toMs > bucket.fromMs);
    if (bucket.fromMs > 0.001) assert.ok((bucket.toMs - bucket.fromMs) / bucket.fromMs <= 1 / 128 + 1e-12);
    if (i > 0) assert.ok(bucket.fromMs >= buckets[i - 1]!.toMs);
  }
});

test('memory is bounded: a day-long latency and a zero land in the fixed bucket array', () => {
  const histogram = new LatencyHistogram();
  const before = histogram.bucketCount;
  histogram.record(0);
  histogram.record(86_400_000);
  histogram.record(1e15);
  assert.equal(histogram.bucketCount, before);
  assert.equal(histogram.count, 3);
  assert.equal(histogram.max, 1e15);
  assert.equal(histogram.percentile(0), 0);
  assert.equal(histogram.percentile(100), 1e15);
});

test('an empty histogram reports zeros, not NaN', () => {
  const histogram = new LatencyHistogram();
  assert.deepEqual(
    [histogram.count, histogram.percentile(50), histogram.mean, histogram.min, histogram.max],
    [0, 0, 0, 0, 0],
  );
  assert.deepEqual(histogram.buckets(), []);
});

test('each latency lands in the bucket that holds it, on both sides of every power of two', () => {
  // The bucket is found with integer arithmetic below 2^31 ns and with floating point above: both
  // must agree with the bucket bounds everywhere, the edges of each power of two most of all.
  for (let exponent = 8; exponent <= 52; exponent++) {
    for (const ns of [2 ** exponent - 1, 2 ** exponent, 2 ** exponent + 1, 3 * 2 ** (exponent - 1)]) {
      const histogram = new LatencyHistogram();
      histogram.record(ns / 1e6);
      const [bucket] = histogram.buckets();
      // The bounds are whole nanoseconds, read back from milliseconds.
      const [from, to] = [Math.round(bucket!.fromMs * 1e6), Math.round(bucket!.toMs * 1e6)];
      const at = Math.round((ns / 1e6) * 1e6);
      assert.ok(from <= at && at < to, `${ns} ns in [${from}, ${to})`);
    }
  }
});

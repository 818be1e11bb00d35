// The hand-written stdio driver `bench/load.ts` compares `mcpwire load` with (bench/load-hand-stdio.ts):
// it buckets latencies exactly as `load`'s histogram does, and it judges every answer although it
// parses only lines of an unexpected shape, against real server processes and a real `mcpwire load`.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LatencyCounts } from '../bench/latency-counts.ts';
import { runHandWrittenStdio } from '../bench/load-hand-written.ts';
import { ROOT_DIR, runMcpwire } from './support/cli-child.ts';

/** A bucket of `mcpwire load --json`'s histogram. */
interface HistogramBucket {
  fromMs: number;
  toMs: number;
}

const config = { sliceMs: 300, warmupMs: 100, concurrency: 8 };

describe('the hand-written stdio load driver', { timeout: 60_000 }, () => {
  it("buckets latencies as a real `mcpwire load` run does, each bucket read as the bench reads load's", async () => {
    const server = [process.execPath, join(ROOT_DIR, 'bench/servers/raw-mcp.mjs'), 'stdio'];
    const run = await runMcpwire(
      [
        'load',
        '--era',
        'handshake',
        '--call',
        'echo',
        'message=hello',
        '--requests',
        '2000',
        '--warmup',
        '0',
        '--json',
        '--',
        ...server,
      ],
      { cwd: ROOT_DIR },
    );
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { totals: unknown; histogram: { buckets: HistogramBucket[] } };
    const buckets = report.histogram.buckets;
    assert.ok(buckets.length > 5, `only ${buckets.length} buckets of ${JSON.stringify(report.totals)}`);
    for (const { fromMs, toMs } of buckets) {
      const counts = new LatencyCounts();
      // Both edges of load's bucket (its last nanosecond) must land in one bucket of ours, read as load's.
      counts.record(fromMs);
      counts.record(toMs - 1e-6);
      const [first, ...others] = counts.buckets();
      const [value, count] = first!;
      assert.deepEqual(others, [], `[${fromMs}, ${toMs}) is one bucket of load's but not of ours`);
      assert.equal(count, 2);
      const loadReads = toMs - fromMs < 1.5e-6 ? fromMs : (fromMs + toMs) / 2;
      assert.ok(Math.abs(value! - loadReads) < 1e-12, `${value} read where load reads ${loadReads}`);
    }
  });

  it('drives bench/servers/raw-mcp.mjs with no error, every request of the window bucketed', async () => {
    const slice = await runHandWrittenStdio(config);
    assert.equal(slice.errors, 0);
    assert.ok(slice.requests > 100, `only ${slice.requests} requests`);
    assert.equal(
      slice.buckets.reduce((sum, [, count]) => sum + count, 0),
      slice.requests,
    );
  });

  it('counts wrong texts and error answers as errors, and goes on past notifications and split lines', async () => {
    const server = [process.execPath, join(import.meta.dirname, 'support/wrong-echo-server.mjs')];
    const slice = await runHandWrittenStdio({ sliceMs: 1000, warmupMs: 0, concurrency: 8 }, server);
    assert.ok(slice.requests + slice.errors > 100, `only ${slice.requests + slice.errors} answers`);
    // Of the first 100 calls, the 20 multiples of 5 and the 14 of 7 fail, 35 and 70 counted once.
    assert.equal(slice.errors, 32);
  });

  it("runs the open model on load's schedule: rate x window measured requests, no more", async () => {
    // 200/s for 0.5 s after 0.2 s of warm-up: 100 measured sends; a wake past the window's end may
    // drop the last few, as load's own schedule does.
    const slice = await runHandWrittenStdio({ sliceMs: 500, warmupMs: 200, concurrency: 8, rate: 200 });
    assert.equal(slice.errors, 0);
    assert.ok(slice.requests >= 90 && slice.requests <= 100, `${slice.requests} measured requests`);
    assert.equal(
      slice.buckets.reduce((sum, [, count]) => sum + count, 0),
      slice.requests,
    );
  });
});

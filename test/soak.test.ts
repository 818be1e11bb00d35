// The short soak (issue 13): ~25 s of both eras over stdio and Streamable HTTP with connections cut
// and servers killed, run as `npm run soak` runs it; then its ledger, faults and heap are checked.
// Also the soak's own judges (progress sequences, flatness) on hand-made inputs.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeFlatness, type MemorySample } from '../bench/soak-memory.ts';
import { judgeSequence } from '../bench/soak-operations.ts';
import type { SoakVerdict } from '../bench/soak-verdict.ts';
import { runSoak } from './support/soak-run.ts';

const SOAK_SECONDS = 25;

describe('the short soak with faults', { timeout: 240_000 }, () => {
  it('gives every request exactly one outcome, loses no event, injects every kind of fault, and the heap returns near its baseline after GC', async () => {
    const { code, stderr, verdict, svg } = await runSoak<SoakVerdict>([
      '--seconds',
      String(SOAK_SECONDS),
      '--seed',
      '13',
    ]);
    const { figures, memory } = verdict;
    assert.equal(code, 0, `the soak failed:\n${stderr}`);
    assert.deepEqual(verdict.reasons, []);
    assert.equal(figures.violations, 0);
    const settled = Object.values(figures.outcomes).reduce((sum, n) => sum + n, 0);
    assert.equal(settled, figures.requests, 'every request in the ledger has an outcome');
    assert.ok(figures.requests > 100, `only ${figures.requests} requests`);
    assert.ok(figures.outcomes.result > 0 && figures.outcomes.cancelled > 0);
    assert.ok(figures.progressSequencesChecked > 0, 'progress sequences were checked');
    assert.ok(figures.elicitationsAnswered > 0, 'handshake-era elicitation requests reached the handler');
    assert.ok(figures.faults['stdio-server-killed'] > 0, 'stdio servers were killed');
    assert.ok(
      figures.faultsInjected - figures.faults['stdio-server-killed'] > 0,
      'HTTP connections were cut',
    );
    assert.ok(figures.outcomes['connection-failure'] > 0, 'some faults reached a caller as a failure');
    for (const driver of ['2025-11-25/stdio', '2026-07-28/stdio', '2025-11-25/http', '2026-07-28/http'])
      assert.ok((figures.resultsByDriver[driver] ?? 0) > 0, `${driver} got results`);
    // A generous bound, not a timing threshold: warm-up heap + max(50 %, 8 MiB).
    assert.ok(memory.clientAfterReleaseHeapMiB <= memory.clientReturnBoundMiB);
    assert.match(svg ?? 'no chart', /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    assert.equal(
      svg?.match(/<polyline /g)?.length,
      6,
      'heap and RSS lines for client, HTTP server, stdio servers',
    );
  });
});

describe('the soak judges', () => {
  const expected = [100, 200, 300];
  it('PROG-3: a sequence must arrive exactly once, in order, even across a resumed stream', () => {
    assert.equal(judgeSequence([100, 200, 300], expected), 'exact');
    assert.equal(judgeSequence([100, 300], expected), 'broken', 'a lost event');
    assert.equal(judgeSequence([100, 200, 200, 300], expected), 'broken', 'a replayed event');
  });

  it('S26-HTTP-8: a stateless-era tools/call is never re-issued behind the caller: a prefix, then the whole sequence, is broken', () => {
    assert.equal(judgeSequence([100, 100, 200, 300], expected), 'broken');
    assert.equal(
      judgeSequence([100, 200, 300, 100, 200, 300], expected),
      'broken',
      'cut after the last event',
    );
  });

  it('flatness: a heap growing over the second half fails, a level one passes', () => {
    const MiB = 1024 * 1024;
    const samples = (heap: (i: number) => number): MemorySample[] =>
      Array.from({ length: 20 }, (_, i) => ({ t: i * 60_000, pid: 1, heapUsed: heap(i), rss: 0 }));
    assert.equal(
      judgeFlatness(
        'client',
        samples((i) => 20 * MiB + (i % 2) * MiB),
      )?.isFlat,
      true,
    );
    assert.equal(
      judgeFlatness(
        'client',
        samples((i) => 20 * MiB + i * MiB),
      )?.isFlat,
      false,
    );
  });
});

// The short multi-node soak (issue 24, point 4): `npm run soak -- --nodes 3 --redis` for ~18 s, three
// `serve everything --redis` nodes behind a round-robin HAProxy on one persisted redis-server, both
// eras, nodes SIGKILLed and restarted, Redis restarted once; then its verdict is checked. The
// restart is what found an answer to a server-to-client request lost while the holder's bus
// subscriber reconnected (docs/design.md, "Multi-node soak"); the bus's replay log keeps it now.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MultiNodeVerdict } from '../bench/soak-nodes-verdict.ts';
import { haproxySkipReason } from './support/redis-nodes.ts';
import { redisSkipReason } from './support/redis-server.ts';
import { runSoak } from './support/soak-run.ts';

const SOAK_SECONDS = 18;

test(
  'the multi-node soak: every request has exactly one outcome across node kills and a Redis restart',
  { timeout: 300_000 },
  async (t) => {
    const skip = (await redisSkipReason()) ?? (await haproxySkipReason());
    if (skip !== undefined) return t.skip(skip);
    const { code, stderr, verdict } = await runSoak<MultiNodeVerdict>([
      '--nodes',
      '3',
      '--redis',
      '--seconds',
      String(SOAK_SECONDS),
      '--seed',
      '24',
    ]);
    const { figures } = verdict;
    assert.deepEqual(verdict.reasons, [], stderr);
    assert.equal(code, 0, `the soak failed:\n${stderr}`);
    const settled = Object.values(figures.outcomes).reduce((sum, n) => sum + n, 0);
    assert.equal(settled, figures.requests, 'every request in the ledger has exactly one outcome');
    assert.ok(figures.nodeKills >= 1, 'a node was killed and restarted');
    assert.equal(figures.nodeRestarts, figures.nodeKills, 'every killed node came back on its port');
    assert.equal(figures.redisRestarts, 1, 'Redis was restarted once');
    assert.ok(figures.requests > 50, `only ${figures.requests} requests`);
    for (const driver of ['2025-11-25/http', '2026-07-28/http'])
      assert.ok((figures.resultsByDriver[driver] ?? 0) > 0, `${driver} got results`);
    assert.ok(figures.elicitationsAnswered > 0, 'handshake-era elicitation requests crossed nodes');
    // Each node life has its own memory series, with a sample at its start and its end.
    assert.ok(Object.keys(verdict.memory.nodes).length >= 4, 'three nodes plus at least one restarted life');
  },
);

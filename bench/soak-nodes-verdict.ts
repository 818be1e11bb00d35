// The multi-node soak's verdict (issue 24, point 4): every request exactly one outcome (none lost,
// none doubled, none hanging past its bound), the chaos really happened (node kills, each restarted,
// one Redis restart), and each node life's heap flat after warm-up when it lived long enough.

import type { LedgerFigures } from './soak-ledger.ts';
import { judgeFlatness, mib, type FlatnessVerdict, type MemorySample } from './soak-memory.ts';
import { FLATNESS_MIN_DURATION_MS, ledgerReasons } from './soak-verdict.ts';

/** What a multi-node run produced. */
export interface MultiNodeFacts {
  startedAt: string;
  durationMs: number;
  stoppedAt: number;
  seed: number;
  nodes: number;
  /** Redis restarts the run was to make (1; 0 with --no-redis-restart). */
  redisRestartsPlanned: number;
  loadAverage: { atStart: number[]; atEnd: number[] };
  isDrained: boolean;
  ledger: LedgerFigures;
  chaos: {
    nodeKills: number;
    nodeRestarts: number;
    redisRestarts: number;
    events: string[];
    failures: string[];
  };
  counters: {
    lives: number;
    elicitationsAnswered: number;
    progressEvents: number;
    sequencesChecked: number;
    clientErrors: Record<string, number>;
  };
  /** Memory per node life (`node2#1`) and of the soak's own client process (`client`). */
  series: Record<string, MemorySample[]>;
}

function memoryFigures(samples: readonly MemorySample[]) {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) return undefined;
  return {
    pid: first.pid,
    samples: samples.length,
    minutes: Math.round(((last.t - first.t) / 60_000) * 10) / 10,
    start: { heapMiB: mib(first.heapUsed), rssMiB: mib(first.rss) },
    end: { heapMiB: mib(last.heapUsed), rssMiB: mib(last.rss) },
    peak: {
      heapMiB: mib(Math.max(...samples.map((s) => s.heapUsed))),
      rssMiB: mib(Math.max(...samples.map((s) => s.rss))),
    },
  };
}

/** Judges a multi-node run: the figures for the report and the reasons it failed (empty: passed). */
export function judgeMultiNodeRun(facts: MultiNodeFacts) {
  const { ledger, chaos } = facts;
  const reasons: string[] = [];
  if (!facts.isDrained) reasons.push('operations were still open 60 s after the run stopped');
  reasons.push(...ledgerReasons(ledger));
  // Every request has a bound (the client's request timeout): reaching it means it hung.
  for (const [key, count] of Object.entries(ledger.timeouts))
    reasons.push(`${count} ${key} requests hung until the client's timeout`);
  if (chaos.nodeKills === 0) reasons.push('no node was killed');
  if (chaos.nodeRestarts !== chaos.nodeKills)
    reasons.push(`${chaos.nodeKills} nodes killed but ${chaos.nodeRestarts} restarted`);
  if (chaos.redisRestarts !== facts.redisRestartsPlanned)
    reasons.push(`Redis restarted ${chaos.redisRestarts} times, not ${facts.redisRestartsPlanned}`);
  for (const failure of chaos.failures) reasons.push(`chaos: ${failure}`);
  const stopped = (samples: readonly MemorySample[]) =>
    samples.filter((sample) => sample.t <= facts.stoppedAt);
  const flatness: FlatnessVerdict[] = [];
  for (const [name, samples] of Object.entries(facts.series)) {
    const kept = stopped(samples);
    const span = (kept.at(-1)?.t ?? 0) - (kept[0]?.t ?? 0);
    // A node life (or the client) is judged when it lived as long as a soak whose flatness is judged.
    if (span < FLATNESS_MIN_DURATION_MS) continue;
    const verdict = judgeFlatness(name, kept);
    if (!verdict) continue;
    flatness.push(verdict);
    if (!verdict.isFlat)
      reasons.push(
        `${name} heap not flat after warm-up: ${mib(verdict.projectedGrowthBytes)} MiB projected growth over the second half of its ${Math.round(span / 60_000)} min, bound ${mib(verdict.boundBytes)} MiB`,
      );
  }
  const memory = {
    client: memoryFigures(stopped(facts.series.client ?? [])),
    nodes: Object.fromEntries(
      Object.entries(facts.series)
        .filter(([name]) => name !== 'client')
        // Whole lives, drain included: a node restarted late in a short run has no sample before the stop.
        .map(([name, samples]) => [name, memoryFigures(samples)]),
    ),
  };
  const figures = {
    startedAt: facts.startedAt,
    minutes: Math.round((facts.durationMs / 60_000) * 100) / 100,
    seed: facts.seed,
    nodes: facts.nodes,
    loadAverage: facts.loadAverage,
    requests: ledger.requests,
    outcomes: ledger.outcomes,
    errorKinds: ledger.errorKinds,
    nodeKills: chaos.nodeKills,
    nodeRestarts: chaos.nodeRestarts,
    redisRestarts: chaos.redisRestarts,
    chaosEvents: chaos.events,
    clientLives: facts.counters.lives,
    elicitationsAnswered: facts.counters.elicitationsAnswered,
    progressSequencesChecked: facts.counters.sequencesChecked,
    timeouts: ledger.timeouts,
    timeoutDiagnostics: ledger.timeoutDiagnostics,
    byKind: ledger.byKind,
    resultsByDriver: ledger.resultsByDriver,
    connectionFailuresBy: ledger.failureNames,
    violations: ledger.violations.length,
  };
  const nodeLines = Object.entries(memory.nodes).map(
    ([name, m]) =>
      `  ${name}: heap ${m?.start.heapMiB} -> ${m?.end.heapMiB} MiB, RSS ${m?.start.rssMiB} -> ${m?.end.rssMiB} MiB over ${m?.minutes} min`,
  );
  const summary = [
    `multi-node soak ${reasons.length === 0 ? 'passed' : 'FAILED'}: ${figures.requests} requests over ${facts.nodes} nodes, ${chaos.nodeKills} node kills, ${chaos.redisRestarts} Redis restart`,
    `outcomes ${JSON.stringify(ledger.outcomes)}; not a result, by kind ${JSON.stringify(ledger.errorKinds)}`,
    `client heap ${memory.client?.start.heapMiB} -> ${memory.client?.end.heapMiB} MiB`,
    ...nodeLines,
  ].join('\n');
  const topErrors = Object.entries(facts.counters.clientErrors)
    .sort(([, a], [, b]) => b - a)
    .slice(0, 10);
  return {
    passed: reasons.length === 0,
    reasons,
    figures,
    memory,
    flatness,
    clientErrors: Object.fromEntries(topErrors),
    summary,
  };
}

/** What {@link judgeMultiNodeRun} returns; also the figures JSON the run writes. */
export type MultiNodeVerdict = ReturnType<typeof judgeMultiNodeRun>;

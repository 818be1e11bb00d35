// The soak's verdict: the figures of a run (requests, faults, outcomes, memory at start and end)
// and the reasons it failed, if any: a broken ledger, heap not flat after warm-up, heap not back
// near its warm-up level once everything was released.

import type { LedgerFigures } from './soak-ledger.ts';
import {
  judgeFlatness,
  mib,
  type FlatnessVerdict,
  type MemorySample,
  type MemorySeries,
} from './soak-memory.ts';
import type { ProxyCounters } from './soak-proxy.ts';

/** What a run produced, as the verdict needs it. */
export interface RunFacts {
  startedAt: string;
  durationMs: number;
  stoppedAt: number;
  seed: number;
  /** False when in-flight operations had not settled within the drain time. */
  isDrained: boolean;
  ledger: LedgerFigures;
  proxy: ProxyCounters;
  counters: {
    lives: number;
    serverKills: number;
    elicitationsAnswered: number;
    progressEvents: number;
    sequencesChecked: number;
    clientErrors: Record<string, number>;
  };
  series: MemorySeries;
  /** The soak process's sample after every client closed and a forced GC. */
  afterDrain: MemorySample;
}

/** Flatness is judged on runs this long or longer; a shorter second half is mostly GC noise. */
export const FLATNESS_MIN_DURATION_MS = 5 * 60_000;
/** Once released, the client's heap must be within this share of its warm-up level... */
export const RETURN_SHARE = 0.5;
/** ...or within this many bytes of it, whichever is larger. */
export const RETURN_FLOOR_BYTES = 8 * 1024 * 1024;

function memoryFigures(samples: readonly MemorySample[]) {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last) return undefined;
  return {
    samples: samples.length,
    start: { heapMiB: mib(first.heapUsed), rssMiB: mib(first.rss) },
    end: { heapMiB: mib(last.heapUsed), rssMiB: mib(last.rss) },
    peak: {
      heapMiB: mib(Math.max(...samples.map((s) => s.heapUsed))),
      rssMiB: mib(Math.max(...samples.map((s) => s.rss))),
    },
  };
}

/** The client's warm-up level: its first sample after min(60 s, a quarter of the run). */
function warmUpSample(facts: RunFacts): MemorySample | undefined {
  const start = Date.parse(facts.startedAt);
  const warmUpMs = Math.min(60_000, facts.durationMs / 4);
  return facts.series.client.find((sample) => sample.t >= start + warmUpMs);
}

/**
 * The reason a ledger fails "exactly one outcome per request", or undefined: the outcomes counted must
 * add up to the requests opened (fewer: an outcome was lost; more: one was counted twice).
 */
export function judgeOutcomeCount(ledger: LedgerFigures): string | undefined {
  const settled = Object.values(ledger.outcomes).reduce((sum, n) => sum + n, 0);
  if (settled === ledger.requests) return undefined;
  const what = settled < ledger.requests ? 'lost' : 'doubled';
  return `${ledger.requests} requests but ${settled} outcomes: ${Math.abs(ledger.requests - settled)} ${what}`;
}

/** The ledger's broken promises as reasons: its violations (the first ten) and a lost or doubled outcome. */
export function ledgerReasons(ledger: LedgerFigures): string[] {
  const reasons = ledger.violations
    .slice(0, 10)
    .map(
      (violation) => `ledger #${violation.id} (${violation.kind}, ${violation.driver}): ${violation.what}`,
    );
  if (ledger.violations.length > 10)
    reasons.push(`... and ${ledger.violations.length - 10} more ledger violations`);
  const count = judgeOutcomeCount(ledger);
  if (count !== undefined) reasons.push(count);
  return reasons;
}

/** Judges a run: the figures for the report and the list of reasons it failed (empty: passed). */
export function judgeRun(facts: RunFacts) {
  const { ledger, proxy, counters } = facts;
  const reasons: string[] = [];
  if (!facts.isDrained) reasons.push(`operations were still open ${60} s after the run stopped`);
  reasons.push(...ledgerReasons(ledger));
  // Every request mix operation ends long before the client's timeout: a timeout is a response lost
  // without a reported failure (an unanswerable elicitation now fails its call, issue 13).
  for (const [key, count] of Object.entries(ledger.timeouts))
    reasons.push(`${count} ${key} requests timed out: a response was lost without a reported failure`);
  const stopped = (samples: MemorySample[]) => samples.filter((sample) => sample.t <= facts.stoppedAt);
  const flatness: FlatnessVerdict[] = [];
  if (facts.durationMs >= FLATNESS_MIN_DURATION_MS) {
    for (const role of ['client', 'http-server'] as const) {
      const verdict = judgeFlatness(role, stopped(facts.series[role]));
      if (!verdict) reasons.push(`too few memory samples of the ${role} to judge flatness`);
      else {
        flatness.push(verdict);
        if (!verdict.isFlat)
          reasons.push(
            `${role} heap not flat after warm-up: ${mib(verdict.projectedGrowthBytes)} MiB projected growth over the second half, bound ${mib(verdict.boundBytes)} MiB`,
          );
      }
    }
  }
  const warmUp = warmUpSample(facts);
  const returnBound = warmUp
    ? warmUp.heapUsed + Math.max(RETURN_SHARE * warmUp.heapUsed, RETURN_FLOOR_BYTES)
    : 0;
  if (!warmUp) reasons.push('no client memory sample after warm-up');
  else if (facts.afterDrain.heapUsed > returnBound)
    reasons.push(
      `client heap after release ${mib(facts.afterDrain.heapUsed)} MiB, above ${mib(returnBound)} MiB (warm-up ${mib(warmUp.heapUsed)} MiB)`,
    );
  const cuts = Object.values(proxy.cuts).reduce((sum, n) => sum + n, 0);
  const figures = {
    startedAt: facts.startedAt,
    minutes: Math.round((facts.durationMs / 60_000) * 100) / 100,
    seed: facts.seed,
    requests: ledger.requests,
    outcomes: ledger.outcomes,
    faultsInjected: cuts + counters.serverKills,
    faults: { ...proxy.cuts, 'stdio-server-killed': counters.serverKills },
    proxyConnections: proxy.connections,
    resumptions: proxy.resumptions,
    clientLives: counters.lives,
    elicitationsAnswered: counters.elicitationsAnswered,
    progressSequencesChecked: counters.sequencesChecked,
    progressEvents: counters.progressEvents,
    timeouts: ledger.timeouts,
    timeoutDiagnostics: ledger.timeoutDiagnostics,
    byKind: ledger.byKind,
    resultsByDriver: ledger.resultsByDriver,
    connectionFailuresBy: ledger.failureNames,
    violations: ledger.violations.length,
  };
  const memory = {
    client: memoryFigures(stopped(facts.series.client)),
    httpServer: memoryFigures(stopped(facts.series['http-server'])),
    stdioServers: memoryFigures(stopped(facts.series['stdio-server'])),
    clientWarmUpHeapMiB: warmUp ? mib(warmUp.heapUsed) : null,
    clientAfterReleaseHeapMiB: mib(facts.afterDrain.heapUsed),
    clientReturnBoundMiB: mib(returnBound),
  };
  const topErrors = Object.entries(counters.clientErrors)
    .sort(([, a], [, b]) => b - a)
    .slice(0, 10);
  const summary = [
    `soak ${reasons.length === 0 ? 'passed' : 'FAILED'}: ${figures.requests} requests, ${figures.faultsInjected} faults injected ${JSON.stringify(figures.faults)}, ${figures.resumptions} resumptions`,
    `outcomes ${JSON.stringify(ledger.outcomes)}; ${figures.progressSequencesChecked} progress sequences complete; ${figures.elicitationsAnswered} elicitations answered`,
    `client heap ${memory.client?.start.heapMiB} -> ${memory.client?.end.heapMiB} MiB (after release ${memory.clientAfterReleaseHeapMiB}), RSS ${memory.client?.start.rssMiB} -> ${memory.client?.end.rssMiB} MiB`,
    `HTTP server heap ${memory.httpServer?.start.heapMiB} -> ${memory.httpServer?.end.heapMiB} MiB, RSS ${memory.httpServer?.start.rssMiB} -> ${memory.httpServer?.end.rssMiB} MiB`,
  ].join('\n');
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

/** What {@link judgeRun} returns; also the shape of the figures JSON beside the chart. */
export type SoakVerdict = ReturnType<typeof judgeRun>;

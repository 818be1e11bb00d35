// The multi-node mode of the soak (issue 24, point 4): clients of both eras through a round-robin
// HAProxy over `count` `serve everything --redis` nodes, while a chaos loop SIGKILLs a random node at
// random intervals (restarting it on its port) and restarts Redis once; then the ledger, memory per
// node life and the verdict. Started by `npm run soak -- --nodes 3 --redis` (bench/soak.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { loadAverageNow } from './machine.ts';
import { Fleet } from './soak-fleet.ts';
import { SoakDriver, type DriverContext, type DriverSpec } from './soak-driver.ts';
import { Ledger } from './soak-ledger.ts';
import { mib, sampleSelf, type MemorySample } from './soak-memory.ts';
import { judgeMultiNodeRun, type MultiNodeFacts } from './soak-nodes-verdict.ts';

/** Options of {@link runMultiNodeSoak}, read by bench/soak.ts. */
export interface MultiNodeOptions {
  nodes: number;
  durationMs: number;
  seed: number;
  random: () => number;
  outDir: string;
  sampleMs: number;
  /** How many times Redis is restarted: 1 (the default), or 0 for node kills only. */
  redisRestarts: number;
}

const SPECS: readonly DriverSpec[] = [
  { era: 'handshake', transport: 'http' },
  { era: 'handshake', transport: 'http' },
  { era: 'stateless', transport: 'http' },
  { era: 'stateless', transport: 'http' },
];
const DRAIN_MS = 60_000;
/** A soak this long or longer is "long": kills minutes apart rather than seconds. */
const LONG_MS = 300_000;

/** The chaos plan: gaps between node kills, how long a killed node stays down, when and how long Redis is down. */
function chaosPlan(options: MultiNodeOptions) {
  const { durationMs, random } = options;
  const isLong = durationMs >= LONG_MS;
  return {
    killGapMs: (isLong ? [60_000, 180_000] : [0.3 * durationMs, 0.45 * durationMs]) as [number, number],
    nodeDownMs: [200, isLong ? 3000 : 1000] as [number, number],
    // Redis goes down once: somewhere in the middle of a long run; early in a short one, before its
    // first kill, as a node restarted from source takes seconds on a loaded machine.
    redisAtMs: durationMs * (isLong ? 0.4 + 0.2 * random() : 0.15 + 0.1 * random()),
    redisDownMs: isLong ? 5000 : 2000,
  };
}

type ChaosCounts = MultiNodeFacts['chaos'];

/** Kills and restarts nodes, and Redis once, until `stop` aborts; events run one at a time. */
async function runChaos(
  fleet: Fleet,
  options: MultiNodeOptions,
  chaos: ChaosCounts,
  stop: AbortSignal,
): Promise<void> {
  const { random } = options;
  const plan = chaosPlan(options);
  const start = Date.now();
  const between = ([low, high]: [number, number]): number => low + random() * (high - low);
  const note = (what: string): void => {
    const line = `${Math.round((Date.now() - start) / 1000)} s ${what}`;
    chaos.events.push(line);
    process.stderr.write(`soak: ${line}\n`);
  };
  let nextKill = start + between(plan.killGapMs);
  const redisAt = start + plan.redisAtMs;
  while (!stop.aborted) {
    const isRedisNext = chaos.redisRestarts < options.redisRestarts && redisAt < nextKill;
    const at = isRedisNext ? redisAt : nextKill;
    await delay(Math.max(0, at - Date.now()), undefined, { signal: stop }).catch(() => {});
    if (stop.aborted) return;
    try {
      if (isRedisNext) {
        note(`Redis stopped for ${plan.redisDownMs} ms`);
        await fleet.restartRedis(plan.redisDownMs);
        chaos.redisRestarts++;
        note('Redis back (append-only file replayed)');
      } else {
        const index = Math.floor(random() * fleet.nodeNames.length);
        const downMs = Math.round(between(plan.nodeDownMs));
        note(`SIGKILL ${fleet.nodeNames[index]}, down ${downMs} ms`);
        chaos.nodeKills++;
        await fleet.killAndRestart(index, downMs);
        chaos.nodeRestarts++;
        note(`${fleet.nodeNames[index]} restarted on its port`);
        nextKill = Date.now() + between(plan.killGapMs);
      }
    } catch (error) {
      chaos.failures.push(String(error).slice(0, 2000));
      note(`chaos step failed: ${String(error).slice(0, 300)}`);
      return;
    }
  }
}

/** Runs the multi-node soak and writes its figures; resolves with the exit code (1 when the verdict failed). */
export async function runMultiNodeSoak(options: MultiNodeOptions): Promise<number> {
  const startedAt = new Date();
  const loadAtStart = loadAverageNow();
  const series: Record<string, MemorySample[]> = { client: [] };
  const fleet = await Fleet.start({
    count: options.nodes,
    sampleMs: options.sampleMs,
    onSample: (name, sample) => (series[name] ??= []).push(sample),
  });
  // A request that hung is placed against the chaos events (which carry seconds into the run too).
  const ledger = new Ledger({
    explain: (entry) => ({
      secondsIntoRun: Math.round((entry.startedAt - startedAt.getTime()) / 100) / 10,
      needles: entry.needles ?? [],
    }),
  });
  const context: DriverContext = {
    ledger,
    random: options.random,
    counters: {
      elicitationsAnswered: 0,
      progressEvents: 0,
      sequencesChecked: 0,
      lives: 0,
      serverKills: 0,
      clientErrors: {},
    },
    httpUrl: fleet.url,
    // No stdio driver runs in this mode.
    stdioServer: { command: process.execPath, args: [], cwd: process.cwd() },
    onStdioSample: () => {},
    lifeMs: options.durationMs >= LONG_MS ? [10_000, 40_000] : [3_000, 8_000],
    lanes: 3,
    pauseMs: 100,
  };
  const chaos: ChaosCounts = { nodeKills: 0, nodeRestarts: 0, redisRestarts: 0, events: [], failures: [] };
  series.client!.push(sampleSelf());
  const sampler = setInterval(() => series.client!.push(sampleSelf()), options.sampleMs);
  const stop = new AbortController();
  const drivers = SPECS.map((spec) => new SoakDriver(spec, context));
  process.stderr.write(
    `soak: multi-node, ${options.nodes} nodes behind HAProxy at ${fleet.url}, Redis ${fleet.redisUrl}, ${options.durationMs / 1000} s, seed ${options.seed}, load ${loadAtStart.join(' ')}\n`,
  );
  const running = Promise.all(drivers.map((driver) => driver.run(stop.signal)));
  const chaosDone = runChaos(fleet, options, chaos, stop.signal);
  await delay(options.durationMs);
  const stoppedAt = Date.now();
  stop.abort();
  // A chaos step under way (a node or Redis restarting) finishes before the drain is judged.
  await chaosDone;
  const isDrained = await Promise.race([running.then(() => true), delay(DRAIN_MS).then(() => false)]);
  clearInterval(sampler);
  await fleet.close();
  const facts: MultiNodeFacts = {
    startedAt: startedAt.toISOString(),
    durationMs: options.durationMs,
    stoppedAt,
    seed: options.seed,
    nodes: options.nodes,
    redisRestartsPlanned: options.redisRestarts,
    loadAverage: { atStart: loadAtStart, atEnd: loadAverageNow() },
    isDrained,
    ledger: ledger.figures(),
    chaos,
    counters: context.counters,
    series,
  };
  const verdict = judgeMultiNodeRun(facts);
  mkdirSync(options.outDir, { recursive: true });
  const stem = join(options.outDir, `soak-nodes-${startedAt.toISOString().slice(0, 16).replace(':', '')}`);
  // The series beside the figures, compact: [seconds since start, heap MiB, RSS MiB].
  const start = startedAt.getTime();
  const compact = Object.fromEntries(
    Object.entries(series).map(([name, samples]) => [
      name,
      samples.map((s) => [Math.round((s.t - start) / 1000), mib(s.heapUsed), mib(s.rss)]),
    ]),
  );
  writeFileSync(`${stem}.json`, `${JSON.stringify({ ...verdict, series: compact }, null, 2)}\n`);
  process.stdout.write(`${verdict.summary}\nfigures: ${stem}.json\n`);
  if (verdict.reasons.length > 0) process.stderr.write(`soak FAILED:\n  ${verdict.reasons.join('\n  ')}\n`);
  return verdict.reasons.length > 0 ? 1 : 0;
}

// `mcpwire load` against a hand-written load driver, for `npm run bench`: the same hand-written
// JSON-RPC server (bench/servers/raw-mcp.mjs), the same request (tools/call echo, 2025 lifecycle),
// the same closed-loop concurrency, over stdio (one process, pipelined) and Streamable HTTP (one
// connection per worker). `load` runs as a user runs it: the built CLI as a child process with --json.
// The machine's speed drifts (by a fifth within minutes here), so the drivers are compared in short
// interleaved slices: each round runs A B A B ... (which driver opens alternates between rounds), each
// slice with its own warm-up and the same measured window, and each driver's slices are merged
// (requests summed, latency histograms added), so drift lands on both alike. Both drivers time a
// request from the write that carried it to the read of its answer and bucket it in the same histogram
// (`load`'s log-linear buckets, bench/stats.ts latencyBucketMs); a request counts when it started
// inside the window. Both run each slice in a new process (the hand-written drivers:
// bench/load-hand-written.ts), so both are measured as cold, after the same warm-up (2 s: after 1 s
// V8 was still compiling `load`'s answer path inside the window, `--trace-opt`). Over HTTP the
// slices of a round share one server; over stdio each slice starts its own (load starts it, as a
// user's run does). Prints the ratios of the merged slices (the goal's figures) over the run, and
// beside them the median of the paired slices' ratios (each `load` slice over the hand-written slice
// next to it in time) with their interquartile range: a drift between slices moves the merged
// figure, where the paired median shows what each pair agrees on, and the range how far one pair
// can be trusted. Per round too; writes bench/results/load-latest.json.
// Env: BENCH_ROUNDS=<n> (default 5), BENCH_LOAD_SLICES=<n> per driver per round (default 3),
// BENCH_LOAD_SLICE_MS=<ms> measured per slice (default 1000), BENCH_LOAD_WARMUP_MS=<ms> per slice
// (default 2000), BENCH_LOAD_CONCURRENCY=<n> (default 8), BENCH_LOAD_TRANSPORTS=stdio|http|stdio,http
// (default both), BENCH_LOAD_CLI=<path of another build's main.js> (an A/B of two builds: its slices
// interleaved with the others', its rows 'load (other)'), BENCH_LOAD_RATE=<requests/s> (stdio only:
// both drivers in the open model, `load --rate`, on the same schedule, latency from each send's due
// time; well below saturation both should read the same), BENCH_LOAD_HAND_IN_PROCESS=1 (the
// hand-written driver also run in this process, warm after its first slice, as this bench ran it
// before: its rows 'hand-written, in-process', its ratios to the hand-written driver in a process of
// its own).
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpServerProcess, killAllHttpChildren } from './http-driver.ts';
import {
  runHandWrittenHttp,
  runHandWrittenInChild,
  runHandWrittenStdio,
  type Slice,
} from './load-hand-written.ts';
import { runLoadCli } from './load-cli.ts';
import { positiveInt } from './machine.ts';
import { killAllChildren } from './server-process.ts';
import { formatNumber, formatTable, median, percentile } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const cli = join(root, 'packages/cli/dist/main.js');
const server = join(root, 'bench/servers/raw-mcp.mjs');

type Transport = 'stdio' | 'http';
type Driver = 'load' | 'hand-written' | 'other' | 'in-process';

const transports = (process.env.BENCH_LOAD_TRANSPORTS ?? 'stdio,http').split(',') as Transport[];
if (transports.some((transport) => transport !== 'stdio' && transport !== 'http'))
  throw new Error('BENCH_LOAD_TRANSPORTS must list stdio and/or http');
const otherCli = process.env.BENCH_LOAD_CLI;
const isInProcessToo = process.env.BENCH_LOAD_HAND_IN_PROCESS === '1';

const config = {
  rounds: positiveInt('BENCH_ROUNDS', 5),
  slices: positiveInt('BENCH_LOAD_SLICES', 3),
  sliceMs: positiveInt('BENCH_LOAD_SLICE_MS', 1000),
  warmupMs: positiveInt('BENCH_LOAD_WARMUP_MS', 2000),
  concurrency: positiveInt('BENCH_LOAD_CONCURRENCY', 8),
  // The open model (load --rate) for both drivers, at most `concurrency` in flight; closed loop if unset.
  rate: process.env.BENCH_LOAD_RATE === undefined ? undefined : positiveInt('BENCH_LOAD_RATE', 1),
};
if (config.rate !== undefined && transports.includes('http'))
  throw new Error(
    'BENCH_LOAD_RATE: the hand-written HTTP driver has no open model; set BENCH_LOAD_TRANSPORTS=stdio',
  );
const mode = config.rate === undefined ? 'closed loop' : `open model at ${config.rate} requests/s`;

/** The merged slices of a driver: requests/s over their windows and latency percentiles (ms). */
interface Measurement {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  requests: number;
  errors: number;
}

/** Merges `slices` (each `config.sliceMs` long): requests/s, and nearest-rank percentiles of their buckets. */
function merge(slices: readonly Slice[]): Measurement {
  const counts = new Map<number, number>();
  let requests = 0;
  let errors = 0;
  for (const slice of slices) {
    requests += slice.requests;
    errors += slice.errors;
    for (const [value, count] of slice.buckets) counts.set(value, (counts.get(value) ?? 0) + count);
  }
  const sorted = [...counts].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, count]) => sum + count, 0);
  const percentileOf = (p: number): number => {
    const rank = Math.max(1, Math.ceil((p / 100) * total));
    let seen = 0;
    for (const [value, count] of sorted) if ((seen += count) >= rank) return value;
    return NaN;
  };
  return {
    rps: requests / ((slices.length * config.sliceMs) / 1000),
    p50: percentileOf(50),
    p90: percentileOf(90),
    p99: percentileOf(99),
    requests,
    errors,
  };
}

function measureSlice(
  transport: Transport,
  driver: Driver,
  http: HttpServerProcess | undefined,
): Promise<Slice> {
  const build = driver === 'other' ? otherCli! : cli;
  if (driver === 'hand-written') return runHandWrittenInChild(transport, config, http?.url);
  if (transport === 'stdio')
    return driver === 'in-process'
      ? runHandWrittenStdio(config)
      : runLoadCli(build, { command: [node, server, 'stdio'] }, { config });
  // One connection per worker for both. As a user runs it: OAuth on (the default for a URL), which
  // this server never asks for.
  return driver === 'in-process'
    ? runHandWrittenHttp(http!, config)
    : runLoadCli(build, { url: http!.url }, { config, extra: ['--connections', String(config.concurrency)] });
}

/** One round of `transport`: `order` repeated `config.slices` times, over one HTTP server. */
async function runRound(
  transport: Transport,
  order: readonly Driver[],
  round: number,
): Promise<Record<Driver, Slice[]>> {
  const slices: Record<Driver, Slice[]> = { load: [], 'hand-written': [], other: [], 'in-process': [] };
  const http =
    transport === 'http'
      ? await HttpServerProcess.start({
          name: 'raw-mcp',
          command: node,
          args: [server, 'http', '0'],
          cwd: root,
        })
      : undefined;
  try {
    for (let index = 0; index < config.slices; index++)
      for (const driver of order) slices[driver].push(await measureSlice(transport, driver, http));
  } finally {
    await http?.close();
  }
  for (const driver of order) {
    const result = merge(slices[driver]);
    process.stderr.write(
      `round ${round + 1}/${config.rounds} ${transport} ${driver}: ${formatNumber(result.rps)} req/s, p50 ${result.p50.toFixed(3)} ms, p90 ${result.p90.toFixed(3)} ms, p99 ${result.p99.toFixed(3)} ms, ${result.errors} errors\n`,
    );
  }
  return slices;
}

/** `value` of a driver over the hand-written's: `1.02x`. */
function ratio(of: Measurement, to: Measurement, key: 'rps' | 'p50' | 'p90' | 'p99'): number {
  return of[key] / to[key];
}

const KEYS = ['rps', 'p50', 'p90', 'p99'] as const;
type Key = (typeof KEYS)[number];

/** The median of some ratios and their interquartile range. */
interface Spread {
  median: number;
  q1: number;
  q3: number;
  pairs: number;
}

/**
 * Each slice of `of` over the hand-written slice beside it in time (`rounds[r][k]` ran next to
 * `hand[r][k]`): per figure, the median of those ratios and their interquartile range.
 */
function pairedSpread(of: readonly Slice[][], hand: readonly Slice[][]): Record<Key, Spread> {
  const ratios = KEYS.map(() => [] as number[]);
  of.forEach((round, r) =>
    round.forEach((slice, k) => {
      const mine = merge([slice]);
      const theirs = merge([hand[r]![k]!]);
      KEYS.forEach((key, index) => ratios[index]!.push(ratio(mine, theirs, key)));
    }),
  );
  return Object.fromEntries(
    KEYS.map((key, index) => {
      const values = ratios[index]!;
      const spread: Spread = {
        median: median(values)!,
        q1: percentile(values, 25)!,
        q3: percentile(values, 75)!,
        pairs: values.length,
      };
      return [key, spread];
    }),
  ) as Record<Key, Spread>;
}

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const loadAverageAtStart = os.loadavg();
  const builds: Driver[] = [
    'load',
    ...(otherCli === undefined ? [] : ['other' as const]),
    ...(isInProcessToo ? ['in-process' as const] : []),
  ];
  const drivers: Driver[] = [...builds, 'hand-written'];
  const slices: Record<Transport, Record<Driver, Slice[][]>> = {
    stdio: { load: [], 'hand-written': [], other: [], 'in-process': [] },
    http: { load: [], 'hand-written': [], other: [], 'in-process': [] },
  };
  for (let round = 0; round < config.rounds; round++)
    for (const transport of transports) {
      // Which driver opens the round alternates, so neither always runs first after a server start.
      const order = round % 2 === 0 ? drivers : drivers.toReversed();
      const result = await runRound(transport, order, round);
      for (const driver of drivers) slices[transport][driver].push(result[driver]);
    }
  const loadAverageAtEnd = os.loadavg();
  const keys = KEYS;
  const rows = transports.flatMap((transport) => {
    const hand = merge(slices[transport]['hand-written'].flat());
    const handRounds = slices[transport]['hand-written'].map(merge);
    return builds.map((build) => {
      const merged = merge(slices[transport][build].flat());
      const rounds = slices[transport][build].map(merge);
      return {
        transport:
          build === 'load'
            ? `${transport}${config.rate === undefined ? '' : `, open ${config.rate}/s`}`
            : build === 'other'
              ? `${transport} (${otherCli})`
              : `${transport} (hand-written, in-process)`,
        load: merged,
        handWritten: hand,
        ratio: Object.fromEntries(keys.map((key) => [key, ratio(merged, hand, key)])) as Record<
          (typeof keys)[number],
          number
        >,
        rounds: rounds.map((measurement, round) =>
          Object.fromEntries(keys.map((key) => [key, ratio(measurement, handRounds[round]!, key)])),
        ) as Array<Record<(typeof keys)[number], number>>,
        paired: pairedSpread(slices[transport][build], slices[transport]['hand-written']),
      };
    });
  });
  console.log(
    `\nmcpwire load vs a hand-written driver: tools/call echo against bench/servers/raw-mcp.mjs, ${mode}, ` +
      `${config.concurrency} in flight${config.rate === undefined ? '' : ' at most'}; ${config.rounds} rounds of ${config.slices} interleaved slices per driver ` +
      `(${config.warmupMs} ms warm-up + ${config.sliceMs} ms measured each), each driver's slices merged` +
      `\nload average ${loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadAverageAtEnd.map((l) => l.toFixed(2)).join(' ')} at end (${os.cpus().length} cores)\n`,
  );
  const percent = (value: number): string => `${value >= 1 ? '+' : ''}${((value - 1) * 100).toFixed(0)} %`;
  console.log(
    formatTable(
      ['transport', 'load req/s', 'hand req/s', 'req/s', 'load p50', 'hand p50', 'p50', 'p90', 'p99'],
      rows.map((row) => [
        row.transport,
        formatNumber(row.load.rps),
        formatNumber(row.handWritten.rps),
        `${row.ratio.rps.toFixed(2)}x`,
        `${row.load.p50.toFixed(3)} ms`,
        `${row.handWritten.p50.toFixed(3)} ms`,
        percent(row.ratio.p50),
        percent(row.ratio.p90),
        percent(row.ratio.p99),
      ]),
    ),
  );
  const times = (value: number): string => `${value.toFixed(2)}x`;
  const spreadOf = (spread: Spread, show: (value: number) => string): string =>
    `${show(spread.median)} (${show(spread.q1)} to ${show(spread.q3)})`;
  console.log(
    '\npaired slices: each load slice / the hand-written slice beside it in time; median (interquartile range)\n' +
      formatTable(
        ['transport', 'pairs', 'req/s', 'p50', 'p90', 'p99'],
        rows.map((row) => [
          row.transport,
          String(row.paired.rps.pairs),
          spreadOf(row.paired.rps, times),
          ...(['p50', 'p90', 'p99'] as const).map((key) => spreadOf(row.paired[key], percent)),
        ]),
      ),
  );
  console.log(
    "\nper round (load / hand-written of the round's merged slices), and their median\n" +
      formatTable(
        ['transport', 'round', 'req/s', 'p50', 'p90', 'p99'],
        rows.flatMap((row) => [
          ...row.rounds.map((round, index) => [
            row.transport,
            String(index + 1),
            `${round.rps.toFixed(2)}x`,
            percent(round.p50),
            percent(round.p90),
            percent(round.p99),
          ]),
          [
            row.transport,
            'median',
            `${median(row.rounds.map((round) => round.rps))!.toFixed(2)}x`,
            ...(['p50', 'p90', 'p99'] as const).map((key) =>
              percent(median(row.rounds.map((round) => round[key]))!),
            ),
          ],
        ]),
      ),
  );
  const outFile = join(root, 'bench/results/load-latest.json');
  mkdirSync(dirname(outFile), { recursive: true });
  const json = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadAverageAtStart,
    loadAverageAtEnd,
    config,
    server: 'bench/servers/raw-mcp.mjs',
    merged: rows,
    slices: Object.fromEntries(
      transports.map((transport) => [
        transport,
        Object.fromEntries(
          drivers.map((driver) => [
            driver,
            slices[transport][driver].map((round) =>
              round.map(({ requests, errors }) => ({ requests, errors })),
            ),
          ]),
        ),
      ]),
    ),
  };
  await writeResultsFile(outFile, json);
  console.log(`\nwrote ${outFile}`);
}

try {
  await main();
} catch (error) {
  killAllChildren();
  killAllHttpChildren();
  throw error;
}

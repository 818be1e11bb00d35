// Entry point of `npm run bench`: runs every workload against every stdio server in interleaved rounds,
// prints medians and ratios as a plain table, and writes bench/results/stdio-latest.json.
// Env: BENCH_ROUNDS=<n> (default 5, quick 2), BENCH_QUICK=1 for a fast smoke run with small counts.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type DriverOptions,
  type ServerSpec,
  type Workload,
  killAllChildren,
  measurePipelined,
  measureSequential,
  measureSpawn,
} from './raw-driver.ts';
import { loadAverageNow, machineFacts } from './machine.ts';
import { formatNumber, formatRatio, formatTable } from './stats.ts';
import { type MetricKey, type ServerResult, medians, metrics, newResult, record } from './stdio-metrics.ts';
import { workloads } from './workloads.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;

/** How a server starts for one protocol era, or why it has no such era (then it is reported, not run). */
type EraEntry = { args: readonly string[] } | { notApplicable: string };

/** A server under test, with its entry point per era (an SDK may need a different construction per era). */
interface BenchServer extends Omit<ServerSpec, 'args'> {
  eras: Record<Workload['era'], EraEntry>;
}

const mcpwireArgs = ['packages/cli/dist/main.js', 'serve', 'everything'];

/**
 * BENCH_BEFORE=<folder>: a built checkout of older code (a git worktree of the commit before a change, after
 * `npm run build` there): served as `mcpwire-before` in the same interleaved rounds, with a ratio column, so
 * a change is measured against the code before it.
 */
const before = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined;
const beforeArgs =
  before === undefined ? undefined : [join(before, 'packages/cli/dist/main.js'), 'serve', 'everything'];

const servers: readonly BenchServer[] = [
  ...(beforeArgs === undefined
    ? []
    : [
        {
          name: 'mcpwire-before',
          command: node,
          cwd: root,
          eras: { handshake: { args: beforeArgs }, stateless: { args: beforeArgs } },
          unavailableReason: () =>
            existsSync(beforeArgs[0]!) ? undefined : `${beforeArgs[0]} is missing; run npm run build there`,
        },
      ]),
  {
    name: 'mcpwire',
    command: node,
    cwd: root,
    // One dual-era server: the first message on stdin decides the era.
    eras: { handshake: { args: mcpwireArgs }, stateless: { args: mcpwireArgs } },
    unavailableReason: () =>
      existsSync(join(root, 'packages/cli/dist/main.js')) ? undefined : 'not built yet',
  },
  {
    // The hand-written floor: a bare NDJSON JSON-RPC loop answering the same calls (no validation, no checks).
    name: 'hand-written',
    command: node,
    cwd: root,
    eras: {
      handshake: { args: ['bench/servers/raw-mcp.mjs', 'stdio'] },
      stateless: { args: ['bench/servers/raw-mcp.mjs', 'stdio'] },
    },
  },
  {
    name: 'official-v2',
    command: node,
    cwd: root,
    eras: {
      // Hand-wired McpServer + StdioServerTransport: serves 2025-era traffic only.
      handshake: { args: ['bench/servers/official-v2-echo.mjs'] },
      // serveStdio(factory), the SDK's dual-era stdio entry: needed for 2026-07-28.
      stateless: { args: ['bench/servers/official-v2-echo-stateless.mjs'] },
    },
  },
  {
    name: 'official-v1',
    command: node,
    cwd: root,
    eras: {
      handshake: { args: ['bench/servers/official-v1-echo.mjs'] },
      stateless: { notApplicable: 'the v1 SDK has no 2026-07-28 era' },
    },
  },
];

/** Ratios are printed as `subject / baseline`. */
const subject = 'mcpwire';
const baselines = [
  ...(before === undefined ? [] : ['mcpwire-before']),
  'hand-written',
  'official-v2',
  'official-v1',
];

const isQuick = process.env.BENCH_QUICK === '1';
const config = {
  rounds: parseRounds(process.env.BENCH_ROUNDS, isQuick ? 2 : 5),
  sequential: isQuick ? { warmup: 50, count: 300 } : { warmup: 200, count: 2_000 },
  pipelined: isQuick
    ? { warmup: 500, count: 3_000, window: 256 }
    : { warmup: 2_000, count: 20_000, window: 256 },
  // The row above times a server's first 22,000 calls, where V8 still compiles (a larger server
  // compiles longer: mcpwire's first 22,000 calls cost it 16-23 µs of CPU each, its later ones
  // 4-8; bench/NOTES.md, session 20). This one times the same calls after that warm-up.
  steady: isQuick
    ? { warmup: 5_000, count: 10_000, window: 256 }
    : { warmup: 50_000, count: 100_000, window: 256 },
};
const driverOptions: DriverOptions = { idleTimeoutMs: 10_000, graceMs: 1_000 };

function parseRounds(text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const rounds = Number(text);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`BENCH_ROUNDS: expected a positive integer, received ${text}`);
  return rounds;
}

/** Runs the three measurements for one server, each in a fresh process; a crash skips only that measurement. */
async function measureServer(server: ServerSpec, workload: Workload, result: ServerResult): Promise<void> {
  const attempt = async (label: string, run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (error) {
      result.failures.push(`${label}: ${(error as Error).message}`);
    }
  };
  await attempt('spawn', async () => {
    const { ms, errors } = await measureSpawn(server, workload, driverOptions);
    record(result, errors, { spawnMs: ms });
  });
  await attempt('sequential', async () => {
    const { p50Us, p99Us, errors } = await measureSequential(
      server,
      workload,
      config.sequential,
      driverOptions,
    );
    record(result, errors, { p50Us, p99Us });
  });
  // The same driver twice: the first calls of a fresh process, then calls after a long warm-up.
  const pipelinedRows = [
    ['pipelined', config.pipelined, 'callsPerSecond', 'serverCpuUs'],
    ['steady', config.steady, 'steadyCallsPerSecond', 'steadyServerCpuUs'],
  ] as const;
  for (const [label, counts, rateKey, cpuKey] of pipelinedRows)
    await attempt(label, async () => {
      const measured = await measurePipelined(server, workload, counts, driverOptions);
      record(result, measured.errors, {
        [rateKey]: measured.callsPerSecond,
        [cpuKey]: measured.serverCpuUsPerCall,
      });
    });
}

/** Runs `config.rounds` rounds; round r starts at server r (rotating order) so no server always goes first. */
async function runWorkload(workload: Workload): Promise<ServerResult[]> {
  const results = new Map(servers.map((server) => [server.name, newResult(server.name)]));
  const runnable: ServerSpec[] = [];
  for (const { eras, ...server } of servers) {
    const result = results.get(server.name)!;
    const entry = eras[workload.era];
    if ('notApplicable' in entry) {
      result.notApplicable = entry.notApplicable;
      continue;
    }
    result.entry = entry.args;
    const reason = server.unavailableReason?.();
    if (reason !== undefined) result.unavailable = reason;
    else runnable.push({ ...server, args: entry.args });
  }
  // One untimed start per server so the first timed spawn does not pay for a cold file cache.
  for (const server of runnable) await measureSpawn(server, workload, driverOptions).catch(() => undefined);
  for (let round = 0; round < config.rounds; round++) {
    const order = runnable.map((_, i) => runnable[(i + round) % runnable.length]!);
    process.stderr.write(`  round ${round + 1}/${config.rounds}: ${order.map((s) => s.name).join(' → ')}\n`);
    for (const server of order) await measureServer(server, workload, results.get(server.name)!);
  }
  return [...results.values()];
}

function renderResults(workload: Workload, results: readonly ServerResult[]): string {
  const header = ['server', ...metrics.map((m) => m.label), 'errors', 'failed'];
  const rows = results.map((result) => {
    if (result.notApplicable) return [result.name, ...metrics.map(() => 'n/a'), 'n/a', 'n/a'];
    if (result.unavailable) return [`${result.name}: ${result.unavailable}`];
    const values = medians(result);
    const cells = metrics.map((m) => formatNumber(values[m.key], m.digits));
    return [result.name, ...cells, formatNumber(result.errors), formatNumber(result.failures.length)];
  });
  const notes = results
    .filter((result) => result.notApplicable)
    .map((result) => `\n${result.name}: not applicable (${result.notApplicable}); not run`);
  const opening = workload.handshake
    ? 'initialize handshake'
    : workload.open
      ? `no handshake, opens with ${workload.open.request.method}`
      : 'no handshake';
  const title = `workload: ${workload.name}, ${opening}; medians over ${config.rounds} rounds`;
  return `${title}\n${formatTable(header, rows)}${notes.join('')}`;
}

/** The baselines that speak this workload's era (not-applicable ones get no ratio column). */
function baselinesFor(results: readonly ServerResult[]): string[] {
  return baselines.filter((name) => results.some((result) => result.name === name && !result.notApplicable));
}

function ratiosOf(results: readonly ServerResult[]): Record<string, Record<MetricKey, number | undefined>> {
  const byName = new Map(results.map((result) => [result.name, medians(result)]));
  const mine = byName.get(subject);
  const ratios: Record<string, Record<MetricKey, number | undefined>> = {};
  for (const baseline of baselinesFor(results)) {
    const theirs = byName.get(baseline);
    const entries = metrics.map(({ key }) => {
      const ratio = mine?.[key] !== undefined && theirs?.[key] ? mine[key] / theirs[key] : undefined;
      return [key, ratio] as const;
    });
    ratios[baseline] = Object.fromEntries(entries) as Record<MetricKey, number | undefined>;
  }
  return ratios;
}

function renderRatios(results: readonly ServerResult[]): string {
  const byName = new Map(results.map((result) => [result.name, medians(result)]));
  const columns = baselinesFor(results);
  const header = ['metric', 'better', ...columns.map((b) => `${subject} / ${b}`)];
  const rows = metrics.map((m) => [
    m.label,
    m.better,
    ...columns.map((b) => formatRatio(byName.get(subject)?.[m.key], byName.get(b)?.[m.key])),
  ]);
  const notes: string[] = [];
  const mine = results.find((r) => r.name === subject);
  const unusable = mine?.notApplicable ?? mine?.unavailable;
  if (unusable) notes.push(`(${subject}: ${unusable}; no ratios)`);
  for (const result of results) {
    if (result.name !== subject && result.notApplicable)
      notes.push(`(${result.name}: not applicable; no ratio)`);
  }
  const suffix = notes.length ? `\n${notes.join('\n')}` : '';
  return `ratios (for "lower" metrics a ratio below 1.00x favours ${subject}; for "higher", above 1.00x)\n${formatTable(header, rows)}${suffix}`;
}

function renderProblems(results: readonly ServerResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    for (const sample of result.errorSamples) lines.push(`  ${result.name} wrong output: ${sample}`);
    for (const failure of result.failures.slice(0, 5)) lines.push(`  ${result.name} failed: ${failure}`);
  }
  return lines.length
    ? `problems (measurements with errors are excluded from the medians):\n${lines.join('\n')}`
    : '';
}

const round3 = (value: number | undefined): number | null =>
  value === undefined ? null : Math.round(value * 1000) / 1000;

function toJson(workload: Workload, results: readonly ServerResult[]) {
  const roundAll = (record: Record<string, number | undefined>) =>
    Object.fromEntries(Object.entries(record).map(([key, value]) => [key, round3(value)]));
  return {
    name: workload.name,
    era: workload.era,
    protocolVersion: workload.protocolVersion,
    handshake: workload.handshake === true,
    opening: workload.handshake ? 'initialize' : (workload.open?.request.method ?? null),
    servers: results.map((result) => ({
      name: result.name,
      status: result.notApplicable
        ? 'not-applicable'
        : result.unavailable
          ? 'unavailable'
          : result.errors || result.failures.length
            ? 'problems'
            : 'ok',
      ...(result.notApplicable || result.unavailable
        ? { reason: result.notApplicable ?? result.unavailable }
        : {}),
      ...(result.entry ? { entry: ['node', ...result.entry].join(' ') } : {}),
      median: roundAll(medians(result)),
      rounds: Object.fromEntries(metrics.map(({ key }) => [key, result.samples[key].map(round3)])),
      errors: result.errors,
      errorSamples: result.errorSamples,
      failures: result.failures.slice(0, 5),
    })),
    ratios: Object.fromEntries(
      Object.entries(ratiosOf(results)).map(([name, r]) => [`${subject}/${name}`, roundAll(r)]),
    ),
  };
}

async function main(): Promise<void> {
  const env = machineFacts();
  console.log(`mcpwire stdio benchmark${isQuick ? ' (BENCH_QUICK: small counts, smoke run only)' : ''}`);
  console.log(
    `node ${env.node} on ${env.platform}; ${env.cpus} CPUs, ${env.cpuModel}; load average ${env.loadAverageAtStart.join(' ')}`,
  );
  console.log(
    `${config.rounds} interleaved rounds, fresh process per measurement; sequential ${formatNumber(config.sequential.count)} calls ` +
      `(+${formatNumber(config.sequential.warmup)} warm-up); pipelined ${formatNumber(config.pipelined.count)} calls, ` +
      `window ${config.pipelined.window} (+${formatNumber(config.pipelined.warmup)} warm-up); steady ` +
      `${formatNumber(config.steady.count)} calls (+${formatNumber(config.steady.warmup)} warm-up)\n`,
  );
  const report = [];
  for (const [index, workload] of workloads.entries()) {
    process.stderr.write(`running ${workload.name}\n`);
    const results = await runWorkload(workload);
    if (index > 0) console.log('');
    console.log(
      [renderResults(workload, results), renderRatios(results), renderProblems(results)]
        .filter(Boolean)
        .join('\n\n'),
    );
    report.push(toJson(workload, results));
  }
  const loadAverageAtEnd = loadAverageNow();
  console.log(`\nload average at end ${loadAverageAtEnd.join(' ')}`);
  const outFile = join(root, 'bench/results/stdio-latest.json');
  mkdirSync(dirname(outFile), { recursive: true });
  const json = {
    benchmark: 'stdio',
    generatedAt: new Date().toISOString(),
    quick: isQuick,
    environment: { ...env, loadAverageAtEnd },
    config,
    workloads: report,
  };
  // Formatted the way `npm run format:check` expects, since the file may be committed.
  await writeResultsFile(outFile, json);
  console.log(`\nwrote ${outFile.slice(root.length + 1)}`);
}

process.once('SIGINT', () => {
  killAllChildren();
  process.exit(130);
});

try {
  await main();
} catch (error) {
  killAllChildren();
  console.error(error);
  process.exitCode = 1;
}

// The `mcpwire bridge` benchmark of `npm run bench` (issue 25, point 5): what the bridge adds per call,
// against calling the same server directly, in interleaved rounds with fresh processes per measurement:
//   http-front   `bridge --http 0 [--shared] -- serve everything` (a stdio child per session, or one
//                for all) against `serve everything --http` itself; one raw-socket HTTP client, 2025 sessions;
//                and the hand-written relay bench/servers/raw-bridge.mjs (no checks): the floor of the hop
//   stdio-front  `bridge <url>` (the host on its stdio) against the host talking HTTP to the same
//                `serve everything --http` itself
// Each runs sequential (one client, one call at a time: p50/p99) and pipelined (16 calls in flight:
// calls/s), with the CPU per call of the bridge process and of the server process(es) from /proc.
// The goal: bridged p50 at most 1.3x direct p50 for the stdio server over HTTP; the bridge never the
// bottleneck of a pipelined run (its CPU per call under the server's). Writes bench/results/bridge-latest.json.
// Env: BENCH_ROUNDS=<n> (default 3), BENCH_BRIDGE_SECONDS=<s> timed window (default 6), BENCH_QUICK=1,
// BENCH_BRIDGE_PROFILE=<dir>: run every bridge with --cpu-prof into <dir> (one .cpuprofile per process),
// BENCH_BRIDGE_BEFORE=<built checkout>: also run every bridged setup with that checkout's build, named
// "... (before)", for an A/B in one run (the direct setups and the bridged children stay this checkout's).
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { HttpServerProcess, killAllHttpChildren, readCpuUs } from './http-driver.ts';
import { loadAverageNow, machineFacts, positiveInt } from './machine.ts';
import { callEcho, openSession, runHttpLoad, runStdioLoad, type Load } from './bridge-drivers.ts';
import { ErrorLog, killAllChildren, ServerProcess } from './server-process.ts';
import { formatNumber, formatRatio, formatTable, median } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(import.meta.dirname, '..');
const node = process.execPath;
const cli = 'packages/cli/dist/main.js';
const isQuick = process.env.BENCH_QUICK === '1';
const profileDir = process.env.BENCH_BRIDGE_PROFILE ? resolve(process.env.BENCH_BRIDGE_PROFILE) : undefined;
const beforeCli = process.env.BENCH_BRIDGE_BEFORE
  ? join(resolve(process.env.BENCH_BRIDGE_BEFORE), 'packages/cli/dist/main.js')
  : undefined;
const config = {
  rounds: positiveInt('BENCH_ROUNDS', isQuick ? 1 : 3),
  warmupMs: isQuick ? 500 : 1_500,
  durationMs: positiveInt('BENCH_BRIDGE_SECONDS', isQuick ? 2 : 6) * 1000,
  inFlight: { sequential: 1, pipelined: 16 },
};

type Mode = keyof typeof config.inFlight;
const modes: readonly Mode[] = ['sequential', 'pipelined'];

/** The builds of the bridge under test: this checkout's, and BENCH_BRIDGE_BEFORE's when given. */
const builds = [
  { suffix: '', cli },
  ...(beforeCli === undefined ? [] : [{ suffix: ' (before)', cli: beforeCli }]),
];

/** `node [--cpu-prof ...] main.js ...args`: a bridge's command line, profiled with BENCH_BRIDGE_PROFILE. */
const bridgeArgs = (bridgeCli: string, ...args: string[]): string[] => [
  ...(profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir]),
  bridgeCli,
  'bridge',
  ...args,
];
const serveHttp = [cli, 'serve', 'everything', '--http', '{port}'];

/** One setup of a shape: what is measured, and how one measurement runs. */
interface Setup {
  name: string;
  note: string;
  /** Runs one measurement with `inFlight` calls in flight. */
  measure(inFlight: number): Promise<Load>;
}

/** Sum of the CPU time (µs) of the children of `pid` now (the bridge's server processes). */
function childrenCpuUs(pid: number): number {
  let total = 0;
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    for (const child of text === '' ? [] : text.split(' ')) total += readCpuUs(Number(child)) ?? 0;
  } catch {
    return Number.NaN;
  }
  return total;
}

const window = () => ({ warmupMs: config.warmupMs, durationMs: config.durationMs });

async function withHttpServer<T>(args: readonly string[], use: (server: HttpServerProcess) => Promise<T>) {
  const server = await HttpServerProcess.start({ name: args.join(' '), command: node, args, cwd: root });
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

/** (a) a stdio server bridged to HTTP, against the same server over HTTP by itself. */
const httpFront: readonly Setup[] = [
  {
    name: 'direct',
    note: 'serve everything --http: the same server over HTTP by itself',
    measure: (inFlight) =>
      withHttpServer(serveHttp, (server) =>
        runHttpLoad(server.url, inFlight, window(), openSession, callEcho, () => ({
          bridge: 0,
          server: readCpuUs(server.pid) ?? Number.NaN,
        })),
      ),
  },
  ...builds.map(({ suffix, cli: bridgeCli }) => ({
    name: `bridge --http${suffix}`,
    note: 'bridge --http 0 -- serve everything: a stdio child per session (16 in pipelined)',
    measure: (inFlight: number) =>
      withHttpServer(bridgeArgs(bridgeCli, '--http', '0', '--', node, cli, 'serve', 'everything'), (bridge) =>
        runHttpLoad(bridge.url, inFlight, window(), openSession, callEcho, () => ({
          bridge: readCpuUs(bridge.pid) ?? Number.NaN,
          server: childrenCpuUs(bridge.pid),
        })),
      ),
  })),
  {
    name: 'hand-written relay',
    note: 'bench/servers/raw-bridge.mjs -- serve everything: node:http to a child per session, no checks (the floor)',
    measure: (inFlight: number) =>
      withHttpServer(
        ['bench/servers/raw-bridge.mjs', '0', '--', node, cli, 'serve', 'everything'],
        (bridge) =>
          runHttpLoad(bridge.url, inFlight, window(), openSession, callEcho, () => ({
            bridge: readCpuUs(bridge.pid) ?? Number.NaN,
            server: childrenCpuUs(bridge.pid),
          })),
      ),
  },
  ...builds.map(({ suffix, cli: bridgeCli }) => ({
    name: `bridge --http --shared${suffix}`,
    note: 'bridge --http 0 --shared -- serve everything: one stdio child for every session, ids remapped',
    measure: (inFlight: number) =>
      withHttpServer(
        bridgeArgs(bridgeCli, '--http', '0', '--shared', '--', node, cli, 'serve', 'everything'),
        (bridge) =>
          runHttpLoad(bridge.url, inFlight, window(), openSession, callEcho, () => ({
            bridge: readCpuUs(bridge.pid) ?? Number.NaN,
            server: childrenCpuUs(bridge.pid),
          })),
      ),
  })),
];

/** (b) an HTTP server offered on stdio by `bridge <url>`, against the host talking HTTP itself. */
const stdioFront: readonly Setup[] = [
  {
    name: 'direct',
    note: 'the host talks HTTP to serve everything --http itself (a session per client)',
    measure: (inFlight) =>
      withHttpServer(serveHttp, (server) =>
        runHttpLoad(server.url, inFlight, window(), openSession, callEcho, () => ({
          bridge: 0,
          server: readCpuUs(server.pid) ?? Number.NaN,
        })),
      ),
  },
  ...builds.map(({ suffix, cli: bridgeCli }) => ({
    name: `bridge <url>${suffix}`,
    note: 'the host on the stdio of bridge <url>, one session, in front of serve everything --http',
    measure: (inFlight: number) =>
      withHttpServer(serveHttp, async (server) => {
        const errors = new ErrorLog();
        const args = bridgeArgs(bridgeCli, server.url);
        const spec = { name: `bridge <url>${suffix}`, command: node, args, cwd: root };
        const bridge = new ServerProcess(spec, errors);
        try {
          const load = await runStdioLoad(bridge, inFlight, window(), errors, () => ({
            bridge: readCpuUs(bridge.pid!) ?? Number.NaN,
            server: readCpuUs(server.pid) ?? Number.NaN,
          }));
          return load;
        } finally {
          await bridge.close(2_000);
        }
      }),
  })),
];

const shapes = [
  {
    key: 'http-front',
    title: 'a stdio server bridged to HTTP (bridge --http -- <cmd>) vs the same server over HTTP by itself',
    setups: httpFront,
  },
  {
    key: 'stdio-front',
    title: 'an HTTP server on stdio (bridge <url>) vs the host talking HTTP to it directly',
    setups: stdioFront,
  },
] as const;

const metrics = [
  { key: 'p50Us', label: 'p50 µs', digits: 0 },
  { key: 'p99Us', label: 'p99 µs', digits: 0 },
  { key: 'callsPerSecond', label: 'calls/s', digits: 0 },
  { key: 'bridgeCpuUsPerCall', label: 'bridge CPU µs/call', digits: 1 },
  { key: 'serverCpuUsPerCall', label: 'server CPU µs/call', digits: 1 },
] as const;
type MetricKey = (typeof metrics)[number]['key'];
type Samples = Record<MetricKey, number[]>;

const round3 = (value: number | undefined): number | null =>
  value === undefined || !Number.isFinite(value) ? null : Math.round(value * 1000) / 1000;

async function main(): Promise<void> {
  if (profileDir !== undefined) mkdirSync(profileDir, { recursive: true });
  const env = machineFacts();
  console.log(`mcpwire bridge benchmark${isQuick ? ' (BENCH_QUICK: smoke run only)' : ''}`);
  console.log(
    `node ${env.node} on ${env.platform}; ${env.cpus} CPUs, ${env.cpuModel}; load average ${env.loadAverageAtStart.join(' ')}`,
  );
  console.log(
    `${config.rounds} interleaved rounds, fresh processes per measurement, 127.0.0.1; tools/call echo in ` +
      `2025-11-25 sessions; ${formatNumber(config.warmupMs)} ms warm-up + ${formatNumber(config.durationMs)} ms timed; ` +
      `sequential: 1 call at a time; pipelined: ${config.inFlight.pipelined} in flight\n`,
  );
  const samples = new Map<string, Samples>();
  const problems: string[] = [];
  const key = (shape: string, setup: string, mode: Mode) => `${shape}\u0000${setup}\u0000${mode}`;
  for (let round = 0; round < config.rounds; round++) {
    for (const shape of shapes) {
      const order = shape.setups.map((_, i) => shape.setups[(i + round) % shape.setups.length]!);
      process.stderr.write(
        `  round ${round + 1}/${config.rounds} ${shape.key}: ${order.map((s) => s.name).join(' → ')}\n`,
      );
      for (const setup of order)
        for (const mode of modes) {
          try {
            const load = await setup.measure(config.inFlight[mode]);
            if (load.errors.count > 0) {
              problems.push(`${shape.key} ${setup.name} ${mode}: ${load.errors.samples.join('; ')}`);
              continue;
            }
            const kept = samples.get(key(shape.key, setup.name, mode)) ?? {
              p50Us: [],
              p99Us: [],
              callsPerSecond: [],
              bridgeCpuUsPerCall: [],
              serverCpuUsPerCall: [],
            };
            for (const { key: metric } of metrics) kept[metric].push(load[metric]);
            samples.set(key(shape.key, setup.name, mode), kept);
          } catch (error) {
            problems.push(`${shape.key} ${setup.name} ${mode}: ${(error as Error).message}`);
          }
        }
    }
  }
  const medianOf = (shape: string, setup: string, mode: Mode, metric: MetricKey) =>
    median((samples.get(key(shape, setup, mode))?.[metric] ?? []).filter(Number.isFinite));
  const report: Record<string, unknown> = {};
  for (const shape of shapes) {
    const [direct, ...bridged] = shape.setups;
    const entry: Record<string, unknown> = {};
    for (const mode of modes) {
      const header = ['setup', ...metrics.map((m) => m.label), 'p50 vs direct', 'calls/s vs direct'];
      const rows = shape.setups.map(({ name }) => [
        name,
        ...metrics.map((m) => formatNumber(medianOf(shape.key, name, mode, m.key), m.digits)),
        formatRatio(
          medianOf(shape.key, name, mode, 'p50Us'),
          medianOf(shape.key, direct!.name, mode, 'p50Us'),
        ),
        formatRatio(
          medianOf(shape.key, name, mode, 'callsPerSecond'),
          medianOf(shape.key, direct!.name, mode, 'callsPerSecond'),
        ),
      ]);
      console.log(
        `${shape.key} ${mode} (${config.inFlight[mode]} in flight): ${shape.title}; medians of ${config.rounds} rounds\n${formatTable(header, rows)}\n`,
      );
      entry[mode] = Object.fromEntries(
        shape.setups.map(({ name }) => [
          name,
          {
            median: Object.fromEntries(
              metrics.map((m) => [m.key, round3(medianOf(shape.key, name, mode, m.key))]),
            ),
            rounds: Object.fromEntries(
              metrics.map((m) => [
                m.key,
                (samples.get(key(shape.key, name, mode))?.[m.key] ?? []).map(round3),
              ]),
            ),
          },
        ]),
      );
      entry[`${mode}Ratios`] = Object.fromEntries(
        bridged.map(({ name }) => [
          `${name}/${direct!.name}`,
          Object.fromEntries(
            (['p50Us', 'p99Us', 'callsPerSecond'] as const).map((metric) => {
              const mine = medianOf(shape.key, name, mode, metric);
              const theirs = medianOf(shape.key, direct!.name, mode, metric);
              return [metric, mine === undefined || !theirs ? null : round3(mine / theirs)];
            }),
          ),
        ]),
      );
    }
    for (const setup of shape.setups) console.log(`  ${setup.name}: ${setup.note}`);
    console.log('');
    report[shape.key] = { title: shape.title, ...entry };
  }
  if (problems.length > 0)
    console.log(`problems (excluded from the medians):\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  const loadAverageAtEnd = loadAverageNow();
  console.log(`load average at end ${loadAverageAtEnd.join(' ')}`);
  const outFile = join(root, 'bench/results/bridge-latest.json');
  mkdirSync(dirname(outFile), { recursive: true });
  const json = {
    benchmark: 'bridge',
    generatedAt: new Date().toISOString(),
    quick: isQuick,
    environment: { ...env, loadAverageAtEnd },
    config,
    target:
      'bridge --http -- <stdio server>: sequential p50 at most 1.3x the same server over HTTP by itself; the bridge never the bottleneck of a pipelined run',
    method:
      'raw-socket HTTP/1.1 keep-alive clients (bench/raw-http.ts), one per call in flight, each its own 2025-11-25 session; stdio: NDJSON on the bridge process pipes, the window refilled per answer; every answer verified; CPU from /proc/<pid>/stat over the timed window (10 ms ticks), the server column of bridge --http sums its children',
    shapes: report,
    problems,
  };
  await writeResultsFile(outFile, json);
  console.log(`wrote ${outFile.slice(root.length + 1)}`);
}

process.once('SIGINT', () => {
  killAllHttpChildren();
  killAllChildren();
  process.exit(130);
});

try {
  await main();
} catch (error) {
  killAllHttpChildren();
  killAllChildren();
  console.error(error);
  process.exitCode = 1;
}

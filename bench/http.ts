// The HTTP half of `npm run bench`: mcpwire's Streamable HTTP server against the official v2 and v1 SDKs on
// 127.0.0.1, in interleaved rounds with a fresh server process per measurement. Four scenarios:
//   stateless  2026-07-28 `tools/call echo` (per-request `_meta` envelope + MCP headers), 16 keep-alive connections
//   sessionless 2025-11-25 `tools/call echo` with no initialize and no session (mcpwire --no-sessions, v1 stateless)
//   stateful   2025-11-25 sessions: initialize once per connection, then `tools/call echo` with Mcp-Session-Id
//   memory     RSS and heap+external per idle handshake-era session: W warm-up sessions first (one-time
//              costs: JIT, heap growth), then N more; post-GC delta / N, the marginal cost of a session
// Prints medians and ratios and writes bench/results/http-latest.json.
// Env: BENCH_ROUNDS=<n> (default 3), BENCH_HTTP_SECONDS=<s> timed window (default 8), BENCH_SESSIONS=<n>
// (default 1000), BENCH_WARMUP_SESSIONS=<w> (default 300), BENCH_QUICK=1 for a smoke run with short windows, BENCH_ONLY=<names> (comma-separated
// scenario keys and/or server names: run only those, for development; the report then holds only them),
// BENCH_SERVER_NODE_ARGS=<flags> (node flags for every server process, e.g. `--single-threaded` to keep V8's
// background threads out of the CPU per request; the "main thread" column splits them out without it).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type HttpServerSpec,
  type HttpWorkload,
  type LoadConfig,
  HttpServerProcess,
  killAllHttpChildren,
  measureLoad,
  measureSessionMemory,
} from './http-driver.ts';
import { HANDSHAKE, openSession, sessionless, stateful, stateless, STATELESS } from './http-workloads.ts';
import type { ErrorLog } from './server-process.ts';
import { loadAverageNow, machineFacts, positiveInt } from './machine.ts';
import { formatNumber, formatRatio, formatTable, median } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const serverNodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const node = process.execPath;

const isQuick = process.env.BENCH_QUICK === '1';
const config = {
  rounds: positiveInt('BENCH_ROUNDS', isQuick ? 1 : 3),
  load: {
    connections: 16,
    warmupMs: isQuick ? 500 : 1_500,
    durationMs: positiveInt('BENCH_HTTP_SECONDS', isQuick ? 2 : 8) * 1000,
    maxCalls: 2_000_000,
  } satisfies LoadConfig,
  memory: {
    warmup: positiveInt('BENCH_WARMUP_SESSIONS', isQuick ? 50 : 300),
    count: positiveInt('BENCH_SESSIONS', isQuick ? 100 : 1000),
    parallel: 8,
    settleMs: 500,
  },
};

// ---------------------------------------------------------------------------------------------------------
// Servers and scenarios

const mcpwireArgs = ['packages/cli/dist/main.js', 'serve', 'everything', '--http', '{port}'];
const v2 = (mode: string) => ['bench/servers/official-v2-http.mjs', mode, '{port}'];
const v1 = (mode: string) => ['bench/servers/official-v1-http.mjs', mode, '{port}'];
/** Preload for the memory scenario only: SIGUSR2 → two full GCs → `MEMPROBE {memoryUsage}` on stderr. */
const probeArgs = ['--expose-gc', '--import', pathToFileURL(join(root, 'bench/servers/mem-probe.mjs')).href];

interface Entry {
  name: string;
  args: readonly string[];
  /** Prints no URL off a terminal (mcpwire serve): ready once its port accepts. */
  isQuiet?: boolean;
  /** Shown under the table: what differs about this row. */
  note?: string;
  /** Excluded from ratios (different traffic). */
  noRatio?: boolean;
  workload?: HttpWorkload;
}

type ScenarioKind = 'load' | 'memory';

interface Scenario {
  key: string;
  title: string;
  kind: ScenarioKind;
  workload: HttpWorkload;
  entries: readonly Entry[];
  /** Servers that have no such mode; reported, not run. */
  notApplicable?: Record<string, string>;
}

const scenarios: readonly Scenario[] = [
  {
    key: 'stateless',
    title: `stateless ${STATELESS}: POST tools/call echo with _meta envelope, Mcp-Method/Mcp-Name headers`,
    kind: 'load',
    workload: stateless,
    entries: [
      { name: 'mcpwire', args: mcpwireArgs, isQuiet: true },
      { name: 'official-v2', args: v2('stateless'), note: 'createMcpHandler(factory), dual-era entry' },
      {
        name: 'raw node:http',
        args: ['bench/servers/raw-node-http.mjs', '{port}'],
        noRatio: true,
        note: 'the ceiling, not MCP: bare node:http JSON-RPC echo, no checks; what the load generator leaves',
      },
    ],
  },
  {
    key: 'sessionless',
    title: `sessionless ${HANDSHAKE}: tools/call echo with no initialize and no session (replicas behind a balancer)`,
    kind: 'load',
    workload: sessionless,
    entries: [
      {
        name: 'mcpwire',
        args: [...mcpwireArgs, '--no-sessions'],
        isQuiet: true,
        note: 'createSessionlessHandler(server): each request through serveRequest, no session',
      },
      {
        name: 'official-v1',
        args: v1('stateless'),
        note: 'sessionIdGenerator: undefined: a fresh McpServer + transport per POST',
      },
      {
        name: 'raw node:http',
        args: ['bench/servers/raw-node-http.mjs', '{port}'],
        noRatio: true,
        note: 'the ceiling, not MCP: bare node:http JSON-RPC echo, no checks',
      },
    ],
  },
  {
    key: 'stateful',
    title: `stateful ${HANDSHAKE}: initialize once per connection, then tools/call echo with Mcp-Session-Id`,
    kind: 'load',
    workload: stateful,
    entries: [
      { name: 'mcpwire', args: mcpwireArgs, isQuiet: true },
      {
        name: 'official-v2',
        args: v2('sessions'),
        note: 'WebStandardStreamableHTTPServerTransport per session',
      },
      {
        name: 'official-v1',
        args: v1('sessions'),
        note: 'StreamableHTTPServerTransport per session, node:http',
      },
      {
        name: 'raw-mcp',
        args: ['bench/servers/raw-mcp.mjs', 'http', '{port}'],
        noRatio: true,
        note: 'the hand-written floor: bench/servers/raw-mcp.mjs, a session id at initialize and no checks',
      },
    ],
  },
  {
    key: 'memory',
    title: `memory per idle ${HANDSHAKE} session (initialize + notifications/initialized, then idle)`,
    kind: 'memory',
    workload: stateful,
    entries: [
      // Every session comes from one address: lift the per-client cap (100) so none is evicted.
      {
        name: 'mcpwire',
        args: [...probeArgs, ...mcpwireArgs, '--max-sessions-per-client', '1000000'],
        isQuiet: true,
      },
      { name: 'official-v2', args: [...probeArgs, ...v2('sessions')] },
      { name: 'official-v1', args: [...probeArgs, ...v1('sessions')] },
    ],
  },
];

/**
 * BENCH_BEFORE=<folder>: a built checkout of older code (a git worktree of the commit before a change, after
 * `npm run build` there). Every mcpwire row gets a twin, `mcpwire-before`, served from that folder in the
 * same interleaved rounds, and a ratio column against it: a change measured against the code before it.
 */
const before = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined;
if (before !== undefined && !existsSync(join(before, 'packages/cli/dist/main.js')))
  throw new Error(`BENCH_BEFORE: ${before}/packages/cli/dist/main.js is missing; run npm run build there`);

/**
 * Options newer than some older code, with their values: left out for `mcpwire-before` only when its
 * `serve` command does not know them (dropping `--max-sessions-per-client` from code that has the cap
 * evicted all but 100 of the memory scenario's sessions, and its heap per session read 0.2 KiB).
 */
const NEWER_OPTIONS = ['--max-sessions-per-client'].filter((option) => !isKnownBefore(option));

function isKnownBefore(option: string): boolean {
  if (before === undefined) return false;
  // The serve command's file: commands/serve/command.ts (commands/serve.ts in older checkouts).
  const serveCommand = ['packages/cli/src/commands/serve/command.ts', 'packages/cli/src/commands/serve.ts']
    .map((path) => join(before, path))
    .find((path) => existsSync(path));
  return serveCommand !== undefined && readFileSync(serveCommand, 'utf8').includes(option);
}

function olderArgs(args: readonly string[]): string[] {
  return args.filter(
    (arg, index) => !NEWER_OPTIONS.includes(arg) && !NEWER_OPTIONS.includes(args[index - 1]!),
  );
}

function withBefore(scenario: Scenario): Scenario {
  if (before === undefined) return scenario;
  const entries = scenario.entries.flatMap((entry) =>
    entry.name === 'mcpwire'
      ? [
          entry,
          {
            ...entry,
            name: 'mcpwire-before',
            note: `the same, served from ${before}`,
            args: olderArgs(entry.args).map((arg) =>
              arg === 'packages/cli/dist/main.js' ? join(before, 'packages/cli/dist/main.js') : arg,
            ),
          },
        ]
      : [entry],
  );
  return { ...scenario, entries };
}

const only = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((name) => name.trim())
  .filter(Boolean);
const selected: readonly Scenario[] = only.length
  ? scenarios
      .filter((s) => only.includes(s.key) || s.entries.some((e) => only.includes(e.name)))
      .map((s) =>
        only.includes(s.key) ? s : { ...s, entries: s.entries.filter((e) => only.includes(e.name)) },
      )
  : scenarios;
const benched = selected.map(withBefore);

const subject = 'mcpwire';
const baselines = [...(before === undefined ? [] : ['mcpwire-before']), 'official-v2', 'official-v1'];

const metricsOf = {
  load: [
    { key: 'requestsPerSecond', label: 'req/s', digits: 0, better: 'higher' },
    { key: 'p50Us', label: 'p50 µs', digits: 0, better: 'lower' },
    { key: 'p99Us', label: 'p99 µs', digits: 0, better: 'lower' },
    { key: 'serverCpuUs', label: 'server CPU µs/call', digits: 0, better: 'lower' },
    { key: 'serverMainCpuUs', label: 'main thread µs/call', digits: 0, better: 'lower' },
    { key: 'driverCpuUs', label: 'driver CPU µs/call', digits: 0, better: 'lower' },
  ],
  memory: [
    { key: 'rssKbPerSession', label: 'RSS KiB/session', digits: 1, better: 'lower' },
    { key: 'heapKbPerSession', label: 'heap+ext KiB/session', digits: 1, better: 'lower' },
    { key: 'procRssKbPerSession', label: '/proc VmRSS KiB/session', digits: 1, better: 'lower' },
    { key: 'baselineRssMb', label: 'baseline RSS MiB', digits: 1, better: 'lower' },
  ],
} as const;

interface Result {
  name: string;
  entry: string;
  note?: string;
  noRatio: boolean;
  samples: Record<string, number[]>;
  calls: number[];
  errors: number;
  errorSamples: string[];
  failures: string[];
}

function recordErrors(result: Result, errors: ErrorLog): boolean {
  result.errors += errors.count;
  for (const sample of errors.samples) if (result.errorSamples.length < 5) result.errorSamples.push(sample);
  return errors.count === 0;
}

async function measure(scenario: Scenario, entry: Entry, result: Result): Promise<void> {
  const spec: HttpServerSpec = {
    name: entry.name,
    command: node,
    args: [...serverNodeArgs, ...entry.args],
    cwd: root,
    ...(entry.isQuiet === true ? { isQuiet: true } : {}),
  };
  let server: HttpServerProcess | undefined;
  try {
    server = await HttpServerProcess.start(spec);
    if (scenario.kind === 'load') {
      const run = await measureLoad(server, entry.workload ?? scenario.workload, config.load);
      if (!recordErrors(result, run.errors)) return;
      result.samples.requestsPerSecond!.push(run.requestsPerSecond);
      result.samples.p50Us!.push(run.p50Us);
      result.samples.p99Us!.push(run.p99Us);
      result.samples.serverCpuUs!.push(run.serverCpuUsPerCall);
      result.samples.serverMainCpuUs!.push(run.serverMainCpuUsPerCall);
      result.samples.driverCpuUs!.push(run.driverCpuUsPerCall);
      result.calls.push(run.calls);
    } else {
      const run = await measureSessionMemory(server, openSession, config.memory);
      if (!recordErrors(result, run.errors)) return;
      result.samples.rssKbPerSession!.push(run.rssBytesPerSession / 1024);
      result.samples.heapKbPerSession!.push(run.heapBytesPerSession / 1024);
      if (run.procRssBytesPerSession !== undefined)
        result.samples.procRssKbPerSession!.push(run.procRssBytesPerSession / 1024);
      result.samples.baselineRssMb!.push(run.baselineRssBytes / 1024 / 1024);
      result.calls.push(run.sessions);
    }
  } catch (error) {
    result.failures.push((error as Error).message);
  } finally {
    await server?.close();
  }
}

function newResult(scenario: Scenario, entry: Entry): Result {
  return {
    name: entry.name,
    entry: ['node', ...entry.args].join(' ').replace(root, '.'),
    ...(entry.note === undefined ? {} : { note: entry.note }),
    noRatio: entry.noRatio === true,
    samples: Object.fromEntries(metricsOf[scenario.kind].map((m) => [m.key, [] as number[]])),
    calls: [],
    errors: 0,
    errorSamples: [],
    failures: [],
  };
}

function medianOf(result: Result, key: string): number | undefined {
  return median(result.samples[key] ?? []);
}

function render(scenario: Scenario, results: readonly Result[]): string {
  const metrics = metricsOf[scenario.kind];
  const countLabel = scenario.kind === 'load' ? 'timed calls (med)' : 'sessions';
  const header = ['server', ...metrics.map((m) => m.label), countLabel, 'errors', 'failed'];
  const rows = results.map((r) => [
    r.name,
    ...metrics.map((m) => formatNumber(medianOf(r, m.key), m.digits)),
    formatNumber(median(r.calls)),
    formatNumber(r.errors),
    formatNumber(r.failures.length),
  ]);
  const notes = results.filter((r) => r.note).map((r) => `  ${r.name}: ${r.note}`);
  const mine = results.find((r) => r.name === subject);
  const columns = baselines.filter((b) => results.some((r) => r.name === b && !r.noRatio));
  const ratioRows = metrics.map((m) => [
    m.label,
    m.better,
    ...columns.map((b) =>
      formatRatio(
        mine && medianOf(mine, m.key),
        medianOf(
          results.find((r) => r.name === b)!,
          m.key,
        ),
      ),
    ),
  ]);
  const floor = results.find((r) => r.noRatio && r.samples.serverCpuUs?.length);
  const floorRows = floor
    ? results
        .filter((r) => r !== floor && !r.noRatio)
        .map((r) => [
          r.name,
          ...(['serverCpuUs', 'serverMainCpuUs', 'requestsPerSecond'] as const).map((key) =>
            formatRatio(medianOf(r, key), medianOf(floor, key)),
          ),
        ])
    : [];
  const problems: string[] = [];
  for (const r of results) {
    for (const sample of r.errorSamples) problems.push(`  ${r.name} wrong answer: ${sample}`);
    for (const failure of r.failures.slice(0, 5)) problems.push(`  ${r.name} failed: ${failure}`);
  }
  const parts = [
    `${scenario.title}; medians over ${config.rounds} rounds\n${formatTable(header, rows)}`,
    notes.length ? notes.join('\n') : '',
    columns.length
      ? `ratios (${subject} / baseline; "higher": above 1.00x favours ${subject}, "lower": below 1.00x)\n` +
        formatTable(['metric', 'better', ...columns.map((b) => `${subject} / ${b}`)], ratioRows)
      : '',
    floorRows.length
      ? `against the hand-written ${floor!.name} (row / ${floor!.name})\n` +
        formatTable(['server', 'server CPU µs/call', 'main thread µs/call', 'req/s'], floorRows)
      : '',
    problems.length ? `problems (measurements with errors are excluded):\n${problems.join('\n')}` : '',
  ];
  return parts.filter(Boolean).join('\n');
}

const round3 = (value: number | undefined): number | null =>
  value === undefined || !Number.isFinite(value) ? null : Math.round(value * 1000) / 1000;

function toJson(scenario: Scenario, results: readonly Result[]) {
  const metrics = metricsOf[scenario.kind];
  const mine = results.find((r) => r.name === subject);
  const ratios: Record<string, Record<string, number | null>> = {};
  for (const b of baselines) {
    const theirs = results.find((r) => r.name === b && !r.noRatio);
    if (!theirs || !mine) continue;
    ratios[`${subject}/${b}`] = Object.fromEntries(
      metrics.map((m) => {
        const a = medianOf(mine, m.key);
        const d = medianOf(theirs, m.key);
        return [m.key, a !== undefined && d ? round3(a / d) : null];
      }),
    );
  }
  const floor = results.find((r) => r.noRatio && r.samples.serverCpuUs?.length);
  const handWritten = floor
    ? Object.fromEntries(
        results
          .filter((r) => r !== floor && !r.noRatio)
          .map((r) => [
            `${r.name}/${floor.name}`,
            Object.fromEntries(
              (['serverCpuUs', 'serverMainCpuUs', 'requestsPerSecond'] as const).map((key) => {
                const a = medianOf(r, key);
                const d = medianOf(floor, key);
                return [key, a !== undefined && d ? round3(a / d) : null];
              }),
            ),
          ]),
      )
    : undefined;
  return {
    scenario: scenario.key,
    title: scenario.title,
    servers: results.map((r) => ({
      name: r.name,
      entry: r.entry,
      ...(r.note === undefined ? {} : { note: r.note }),
      status: r.errors || r.failures.length ? 'problems' : 'ok',
      median: Object.fromEntries(metrics.map((m) => [m.key, round3(medianOf(r, m.key))])),
      rounds: Object.fromEntries(metrics.map((m) => [m.key, (r.samples[m.key] ?? []).map(round3)])),
      counts: r.calls,
      errors: r.errors,
      errorSamples: r.errorSamples,
      failures: r.failures.slice(0, 5),
    })),
    ratios,
    ...(handWritten === undefined ? {} : { handWritten }),
  };
}

async function main(): Promise<void> {
  if (!existsSync(join(root, 'packages/cli/dist/main.js')))
    throw new Error('packages/cli/dist/main.js missing: run npm run build');
  const env = machineFacts();
  console.log(`mcpwire HTTP benchmark${isQuick ? ' (BENCH_QUICK: smoke run only)' : ''}`);
  console.log(
    `node ${env.node}${serverNodeArgs.length ? ` (servers: ${serverNodeArgs.join(' ')})` : ''} on ${env.platform}; ${env.cpus} CPUs, ${env.cpuModel}; load average ${env.loadAverageAtStart.join(' ')}`,
  );
  console.log(
    `${config.rounds} interleaved rounds, fresh server process per measurement, all on 127.0.0.1; load: ` +
      `${config.load.connections} keep-alive connections (raw sockets, closed loop), ${formatNumber(config.load.warmupMs)} ms warm-up + ` +
      `${formatNumber(config.load.durationMs)} ms timed; memory: ${config.memory.warmup} warm-up sessions, then ` +
      `${config.memory.count} idle sessions, post-GC delta / N\n`,
  );
  const results = new Map(
    benched.map((s) => [s.key, new Map(s.entries.map((e) => [e.name, newResult(s, e)]))]),
  );
  for (let round = 0; round < config.rounds; round++) {
    for (const scenario of benched) {
      const order = scenario.entries.map((_, i) => scenario.entries[(i + round) % scenario.entries.length]!);
      process.stderr.write(
        `  round ${round + 1}/${config.rounds} ${scenario.key}: ${order.map((e) => e.name).join(' → ')}\n`,
      );
      for (const entry of order) await measure(scenario, entry, results.get(scenario.key)!.get(entry.name)!);
    }
  }
  const report = [];
  for (const scenario of benched) {
    const list = [...results.get(scenario.key)!.values()];
    console.log(`${render(scenario, list)}\n`);
    report.push(toJson(scenario, list));
  }
  const loadAverageAtEnd = loadAverageNow();
  console.log(`load average at end ${loadAverageAtEnd.join(' ')}`);
  const outFile = join(root, 'bench/results/http-latest.json');
  mkdirSync(dirname(outFile), { recursive: true });
  const json = {
    benchmark: 'http',
    generatedAt: new Date().toISOString(),
    quick: isQuick,
    environment: { ...env, loadAverageAtEnd },
    config,
    method: {
      driver:
        'one lean keep-alive HTTP/1.1 connection per client (net.Socket, bench/raw-http.ts), closed loop; every answer verified ' +
        '(HTTP 200, JSON or SSE body, JSON-RPC id, echoed text, resultType for 2026-07-28); failed calls are not timed',
      memory:
        'server started with --expose-gc --import bench/servers/mem-probe.mjs (SIGUSR2 → two gc() → ' +
        'process.memoryUsage() on stderr); N sessions opened after warm-up; (after − before) / N. ' +
        'procRss is /proc/<pid>/status VmRSS read by the bench right after each probe',
    },
    scenarios: report,
  };
  await writeResultsFile(outFile, json);
  console.log(`wrote ${outFile.slice(root.length + 1)}`);
}

process.once('SIGINT', () => {
  killAllHttpChildren();
  process.exit(130);
});

try {
  await main();
} catch (error) {
  killAllHttpChildren();
  console.error(error);
  process.exitCode = 1;
}

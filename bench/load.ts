// `mcpwire load` against a hand-written load driver, for `npm run bench`: the same hand-written
// JSON-RPC server (bench/servers/raw-mcp.mjs), the same request (tools/call echo, 2025 lifecycle),
// the same closed-loop concurrency, over stdio (one process, pipelined) and Streamable HTTP (one
// connection per worker). `load` runs as a user runs it: the built CLI as a child process with --json.
// The machine's speed drifts (by a fifth within minutes here), so the drivers are compared in short
// interleaved slices: each round runs A B A B ... (which driver opens alternates between rounds), each
// slice with its own warm-up and the same measured window, and each driver's slices are merged
// (requests summed, latency histograms added), so drift lands on both alike. Both drivers time a
// request from the write that carried it to the read of its answer and bucket it in the same histogram
// (`load`'s log-linear buckets, bench/stats.ts latencyBucketMs); a request counts when it started inside the window. Over HTTP the
// slices of a round share one server; over stdio each slice starts its own (load starts it, as a
// user's run does). Prints the ratios of the merged slices (the goal's figures) over the run and per
// round; writes bench/results/load-latest.json.
// Env: BENCH_ROUNDS=<n> (default 3), BENCH_LOAD_SLICES=<n> per driver per round (default 5),
// BENCH_LOAD_SLICE_MS=<ms> measured per slice (default 1000), BENCH_LOAD_WARMUP_MS=<ms> per slice
// (default 1000), BENCH_LOAD_CONCURRENCY=<n> (default 8), BENCH_LOAD_TRANSPORTS=stdio|http|stdio,http
// (default both), BENCH_LOAD_CLI=<path of another build's main.js> (an A/B of two builds: its slices
// interleaved with the others', its rows 'load (other)').
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractResponse, HttpServerProcess, killAllHttpChildren, type HttpWorkload } from './http-driver.ts';
import { positiveInt } from './machine.ts';
import { RawHttpConnection } from './raw-http.ts';
import { ErrorLog, killAllChildren, ServerProcess, type RawResponse } from './server-process.ts';
import { formatNumber, formatTable, latencyBucketMs, median } from './stats.ts';
import { echo2025 } from './workloads.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const cli = join(root, 'packages/cli/dist/main.js');
const server = join(root, 'bench/servers/raw-mcp.mjs');

type Transport = 'stdio' | 'http';
type Driver = 'load' | 'hand-written' | 'other';

const transports = (process.env.BENCH_LOAD_TRANSPORTS ?? 'stdio,http').split(',') as Transport[];
if (transports.some((transport) => transport !== 'stdio' && transport !== 'http'))
  throw new Error('BENCH_LOAD_TRANSPORTS must list stdio and/or http');
const otherCli = process.env.BENCH_LOAD_CLI;

const config = {
  rounds: positiveInt('BENCH_ROUNDS', 3),
  slices: positiveInt('BENCH_LOAD_SLICES', 5),
  sliceMs: positiveInt('BENCH_LOAD_SLICE_MS', 1000),
  warmupMs: positiveInt('BENCH_LOAD_WARMUP_MS', 1000),
  concurrency: positiveInt('BENCH_LOAD_CONCURRENCY', 8),
};

/** One slice of a driver: requests started in its window, errors, latencies (ms) as histogram buckets. */
interface Slice {
  requests: number;
  errors: number;
  /** [value ms, count]: each bucket read as load's histogram reads it (its start if 1 ns wide, else its midpoint). */
  buckets: Array<[number, number]>;
}

/** The merged slices of a driver: requests/s over their windows and latency percentiles (ms). */
interface Measurement {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  requests: number;
  errors: number;
}

/** A hand-written driver's latencies, bucketed as `load` buckets its own. */
class Buckets {
  readonly #counts = new Map<number, number>();
  count = 0;

  record(ms: number): void {
    const value = latencyBucketMs(ms);
    this.#counts.set(value, (this.#counts.get(value) ?? 0) + 1);
    this.count++;
  }

  slice(errors: ErrorLog): Slice {
    return { requests: this.count, errors: errors.count, buckets: [...this.#counts] };
  }
}

/** The buckets of `load`'s --json report, each with the value it reads as. */
function bucketsOf(
  buckets: ReadonlyArray<{ fromMs: number; toMs: number; count: number }>,
): Slice['buckets'] {
  return buckets.map((bucket) => [
    bucket.toMs - bucket.fromMs < 1.5e-6 ? bucket.fromMs : (bucket.fromMs + bucket.toMs) / 2,
    bucket.count,
  ]);
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

/** `mcpwire load --json` as a child process: one slice. */
async function runLoadCli(
  target: { url: string } | { command: readonly string[] },
  extra: readonly string[],
  build: string,
): Promise<Slice> {
  const child = spawn(
    node,
    [
      build,
      'load',
      // The URL is the first operand; a stdio server is the command after `--`, last.
      ...('url' in target ? [target.url] : []),
      ...extra,
      '--era',
      'handshake',
      '--call',
      'echo',
      'message=hello',
      '--concurrency',
      String(config.concurrency),
      '--duration',
      `${config.sliceMs}ms`,
      '--warmup',
      `${config.warmupMs}ms`,
      '--json',
      ...('command' in target ? ['--', ...target.command] : []),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`mcpwire load exited ${code}: ${stderr.trim().slice(-500)}`);
  const report = JSON.parse(stdout) as {
    totals: { requests: number; errors: number };
    histogram: { buckets: Array<{ fromMs: number; toMs: number; count: number }> };
  };
  return {
    requests: report.totals.requests,
    errors: report.totals.errors,
    buckets: bucketsOf(report.histogram.buckets),
  };
}

/**
 * The hand-written stdio driver, one slice: one process, initialize, then a closed loop of
 * `concurrency` requests in flight (each answer sends the next; the writes of one stdout chunk go out
 * as one), every answer checked. A request is timed from that write to the read of its answer, and
 * counted when written inside the window.
 */
async function runHandWrittenStdio(): Promise<Slice> {
  const errors = new ErrorLog();
  const histogram = new Buckets();
  const process_ = new ServerProcess(
    { name: 'raw-mcp', command: node, args: [server, 'stdio'], cwd: root },
    errors,
  );
  try {
    await new Promise<void>((resolve, reject) => {
      process_.listen((response) => {
        if (response.id !== 0 || response.error !== undefined)
          errors.record(`initialize: ${JSON.stringify(response)}`);
        resolve();
      }, reject);
      const params = {
        protocolVersion: echo2025.protocolVersion,
        capabilities: {},
        clientInfo: { name: 'bench', version: '0' },
      };
      process_.write(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }) + '\n');
    });
    process_.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    const sentAt = new Map<number, number>();
    let nextId = 1;
    let pending = '';
    const encode = (id: number): string => {
      const { method, params } = echo2025.makeRequest(id);
      return JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';
    };
    const measureStart = performance.now() + config.warmupMs;
    const measureEnd = measureStart + config.sliceMs;
    await new Promise<void>((resolve, reject) => {
      const handle = (response: RawResponse): void => {
        const now = performance.now();
        const id = response.id as number;
        const at = sentAt.get(id);
        if (at === undefined) return errors.record(`unknown id ${JSON.stringify(response.id)}`);
        sentAt.delete(id);
        const problem = echo2025.check(response, id);
        if (problem !== undefined) errors.record(problem);
        else if (at >= measureStart && at < measureEnd) histogram.record(now - at);
        if (now < measureEnd) {
          sentAt.set(nextId, -1);
          pending += encode(nextId++);
        }
      };
      const afterChunk = (): void => {
        if (pending !== '') {
          const now = performance.now();
          for (const [id, at] of sentAt) if (at === -1) sentAt.set(id, now);
          process_.write(pending);
          pending = '';
        }
        if (sentAt.size === 0) resolve();
      };
      process_.listen(handle, reject, afterChunk);
      let batch = '';
      const now = performance.now();
      for (let index = 0; index < config.concurrency; index++) {
        sentAt.set(nextId, now);
        batch += encode(nextId++);
      }
      process_.write(batch);
    });
    return histogram.slice(errors);
  } finally {
    await process_.close(2000);
  }
}

/** initialize (answer must carry a session), notifications/initialized; the headers of the calls. */
const sessionWorkload: HttpWorkload = {
  name: 'stateful 2025-06-18',
  setup: async (connection) => {
    const accept = 'application/json, text/event-stream';
    const params = {
      protocolVersion: echo2025.protocolVersion,
      capabilities: {},
      clientInfo: { name: 'bench', version: '0' },
    };
    const answer = await connection.post(
      { accept },
      JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params }),
    );
    if (answer.status !== 200 || answer.sessionId === undefined)
      throw new Error(`initialize: HTTP ${answer.status}`);
    const headers = {
      accept,
      'mcp-session-id': answer.sessionId,
      'mcp-protocol-version': echo2025.protocolVersion,
    };
    await connection.post(headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    return headers;
  },
  call: async (connection, headers, i) => {
    const { method, params } = echo2025.makeRequest(i);
    const answer = await connection.post(headers, JSON.stringify({ jsonrpc: '2.0', id: i, method, params }));
    if (answer.status !== 200) return `HTTP ${answer.status}`;
    const message = extractResponse(answer, i);
    return typeof message === 'string' ? message : echo2025.check(message as RawResponse, i);
  },
};

/**
 * The hand-written HTTP driver, one slice: a session per connection (bench/raw-http.ts, one request
 * in flight each), a closed loop per connection, every answer checked. A request is timed from the
 * socket write to the read of its whole response (RawHttpConnection's sentAt and answeredAt, as load's
 * engine times it), and counted when it started inside the window.
 */
async function runHandWrittenHttp(http: HttpServerProcess): Promise<Slice> {
  const url = new URL(http.url);
  const errors = new ErrorLog();
  const histogram = new Buckets();
  const connections = Array.from({ length: config.concurrency }, () => new RawHttpConnection(url));
  try {
    const sessions = await Promise.all(connections.map((connection) => sessionWorkload.setup(connection)));
    let nextId = 1;
    const measureStart = performance.now() + config.warmupMs;
    const measureEnd = measureStart + config.sliceMs;
    const worker = async (connection: RawHttpConnection, headers: Record<string, string>): Promise<void> => {
      for (;;) {
        const start = performance.now();
        if (start >= measureEnd) return;
        const i = nextId++;
        let problem: string | undefined;
        try {
          problem = await sessionWorkload.call(connection, headers, i);
        } catch (error) {
          problem = `request failed: ${(error as Error).message}`;
        }
        if (problem !== undefined) {
          errors.record(problem);
          if (http.hasExited) throw new Error(`server exited; stderr: ${http.stderrTail()}`);
          if (errors.count > 1_000) throw new Error(`over 1,000 wrong answers; first: ${errors.samples[0]}`);
        } else if (start >= measureStart) histogram.record(connection.answeredAt - connection.sentAt);
      }
    };
    await Promise.all(connections.map((connection, index) => worker(connection, sessions[index]!)));
    return histogram.slice(errors);
  } finally {
    for (const connection of connections) connection.close();
  }
}

function measureSlice(
  transport: Transport,
  driver: Driver,
  http: HttpServerProcess | undefined,
): Promise<Slice> {
  const build = driver === 'other' ? otherCli! : cli;
  if (transport === 'stdio')
    return driver === 'hand-written'
      ? runHandWrittenStdio()
      : runLoadCli({ command: [node, server, 'stdio'] }, [], build);
  // One connection per worker for both. As a user runs it: OAuth on (the default for a URL), which
  // this server never asks for.
  return driver === 'hand-written'
    ? runHandWrittenHttp(http!)
    : runLoadCli({ url: http!.url }, ['--connections', String(config.concurrency)], build);
}

/** One round of `transport`: `order` repeated `config.slices` times, over one HTTP server. */
async function runRound(
  transport: Transport,
  order: readonly Driver[],
  round: number,
): Promise<Record<Driver, Slice[]>> {
  const slices: Record<Driver, Slice[]> = { load: [], 'hand-written': [], other: [] };
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

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const loadAverageAtStart = os.loadavg();
  const builds: Driver[] = otherCli === undefined ? ['load'] : ['load', 'other'];
  const drivers: Driver[] = [...builds, 'hand-written'];
  const slices: Record<Transport, Record<Driver, Slice[][]>> = {
    stdio: { load: [], 'hand-written': [], other: [] },
    http: { load: [], 'hand-written': [], other: [] },
  };
  for (let round = 0; round < config.rounds; round++)
    for (const transport of transports) {
      // Which driver opens the round alternates, so neither always runs first after a server start.
      const order = round % 2 === 0 ? drivers : drivers.toReversed();
      const result = await runRound(transport, order, round);
      for (const driver of drivers) slices[transport][driver].push(result[driver]);
    }
  const loadAverageAtEnd = os.loadavg();
  const keys = ['rps', 'p50', 'p90', 'p99'] as const;
  const rows = transports.flatMap((transport) => {
    const hand = merge(slices[transport]['hand-written'].flat());
    const handRounds = slices[transport]['hand-written'].map(merge);
    return builds.map((build) => {
      const merged = merge(slices[transport][build].flat());
      const rounds = slices[transport][build].map(merge);
      return {
        transport: build === 'load' ? transport : `${transport} (${otherCli})`,
        load: merged,
        handWritten: hand,
        ratio: Object.fromEntries(keys.map((key) => [key, ratio(merged, hand, key)])) as Record<
          (typeof keys)[number],
          number
        >,
        rounds: rounds.map((measurement, round) =>
          Object.fromEntries(keys.map((key) => [key, ratio(measurement, handRounds[round]!, key)])),
        ) as Array<Record<(typeof keys)[number], number>>,
      };
    });
  });
  console.log(
    `\nmcpwire load vs a hand-written driver: tools/call echo against bench/servers/raw-mcp.mjs, closed loop, ` +
      `${config.concurrency} in flight; ${config.rounds} rounds of ${config.slices} interleaved slices per driver ` +
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

// `mcpwire load` against a hand-written load driver, for `npm run bench`: the same hand-written
// JSON-RPC server (bench/servers/raw-mcp.mjs), the same request (tools/call echo, 2025 lifecycle),
// the same closed-loop concurrency and windows, interleaved rounds with a fresh server per
// measurement, over stdio (one process, pipelined) and Streamable HTTP (one connection per client).
// `load` runs as a user runs it: the built CLI as a child process with --json. The hand-written
// drivers are bench/server-process.ts over stdio and bench/http-driver.ts's measureLoad over HTTP.
// Prints load/hand-written requests/s and p50/p90/p99 of each; writes bench/results/load-latest.json.
// Env: BENCH_ROUNDS=<n> (default 3), BENCH_LOAD_SECONDS=<s> (default 4), BENCH_LOAD_CONCURRENCY=<n> (default 8),
// BENCH_LOAD_TRANSPORTS=stdio|http|stdio,http (default both), BENCH_LOAD_CLI=<path of another build's
// main.js> (an A/B of two builds: its rows are 'load (other)' beside this build's in the same run).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  extractResponse,
  HttpServerProcess,
  killAllHttpChildren,
  measureLoad,
  type HttpWorkload,
} from './http-driver.ts';
import { ErrorLog, killAllChildren, ServerProcess, type RawResponse } from './server-process.ts';
import { formatNumber, formatRatio, formatTable, median, percentile } from './stats.ts';
import { echo2025 } from './workloads.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const cli = join(root, 'packages/cli/dist/main.js');
const server = join(root, 'bench/servers/raw-mcp.mjs');

const transports = (process.env.BENCH_LOAD_TRANSPORTS ?? 'stdio,http').split(',') as Transport[];
if (transports.some((transport) => transport !== 'stdio' && transport !== 'http'))
  throw new Error('BENCH_LOAD_TRANSPORTS must list stdio and/or http');
const otherCli = process.env.BENCH_LOAD_CLI;

const config = {
  rounds: positiveInt('BENCH_ROUNDS', 3),
  seconds: positiveInt('BENCH_LOAD_SECONDS', 4),
  warmupMs: 1000,
  concurrency: positiveInt('BENCH_LOAD_CONCURRENCY', 8),
};

/** One measurement: requests/s and latency percentiles (ms). */
interface Measurement {
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  requests: number;
  errors: number;
}

type Transport = 'stdio' | 'http';
type Driver = 'load' | 'hand-written' | 'other';

function positiveInt(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number above 0`);
  return value;
}

/** `mcpwire load --json` as a child process; its report's figures. */
async function runLoadCli(
  target: { url: string } | { command: readonly string[] },
  extra: readonly string[] = [],
  build = cli,
): Promise<Measurement> {
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
      `${config.seconds}s`,
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
    rps: number;
    latencyMs: { p50: number; p90: number; p99: number };
    totals: { requests: number; errors: number };
  };
  return {
    rps: report.rps,
    p50: report.latencyMs.p50,
    p90: report.latencyMs.p90,
    p99: report.latencyMs.p99,
    requests: report.totals.requests,
    errors: report.totals.errors,
  };
}

/**
 * The hand-written stdio driver: one process, initialize, then a closed loop of `concurrency`
 * requests in flight (each answer sends the next; the writes of one stdout chunk go out as one),
 * every answer checked; the window counts calls sent and answered inside it.
 */
async function runHandWrittenStdio(): Promise<Measurement> {
  const errors = new ErrorLog();
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
    const latencies: number[] = [];
    let nextId = 1;
    let pending = '';
    let measureStart = Infinity;
    let measureEnd = Infinity;
    let isSending = true;
    const encode = (id: number): string => {
      const { method, params } = echo2025.makeRequest(id);
      return JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';
    };
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      const handle = (response: RawResponse): void => {
        const now = performance.now();
        const id = response.id as number;
        const at = sentAt.get(id);
        if (at === undefined) return errors.record(`unknown id ${JSON.stringify(response.id)}`);
        sentAt.delete(id);
        const problem = echo2025.check(response, id);
        if (problem !== undefined) errors.record(problem);
        else if (at >= measureStart && now <= measureEnd) latencies.push(now - at);
        if (now >= started + config.warmupMs && measureStart === Infinity) {
          measureStart = now;
          measureEnd = now + config.seconds * 1000;
        }
        if (now > measureEnd) isSending = false;
        if (isSending) {
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
        if (!isSending && sentAt.size === 0) resolve();
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
    return summarise(latencies, config.seconds * 1000, errors);
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

function startHttpServer(): Promise<HttpServerProcess> {
  return HttpServerProcess.start({ name: 'raw-mcp', command: node, args: [server, 'http', '0'], cwd: root });
}

async function measure(transport: Transport, driver: Driver): Promise<Measurement> {
  if (transport === 'stdio') {
    if (driver === 'hand-written') return runHandWrittenStdio();
    return runLoadCli({ command: [node, server, 'stdio'] }, [], driver === 'other' ? otherCli : cli);
  }
  const http = await startHttpServer();
  try {
    // One client per worker, as the hand-written driver has one connection per worker.
    if (driver !== 'hand-written')
      // As a user runs it: OAuth on (the default for a URL), which this server never asks for.
      return await runLoadCli(
        { url: http.url },
        ['--connections', String(config.concurrency)],
        driver === 'other' ? otherCli : cli,
      );
    const result = await measureLoad(http, sessionWorkload, {
      connections: config.concurrency,
      warmupMs: config.warmupMs,
      durationMs: config.seconds * 1000,
      maxCalls: Number.MAX_SAFE_INTEGER,
    });
    return {
      rps: result.requestsPerSecond,
      p50: result.p50Us / 1000,
      p90: result.p90Us / 1000,
      p99: result.p99Us / 1000,
      requests: result.calls,
      errors: result.errors.count,
    };
  } finally {
    await http.close();
  }
}

function summarise(latencies: number[], windowMs: number, errors: ErrorLog): Measurement {
  return {
    rps: latencies.length / (windowMs / 1000),
    p50: percentile(latencies, 50) ?? NaN,
    p90: percentile(latencies, 90) ?? NaN,
    p99: percentile(latencies, 99) ?? NaN,
    requests: latencies.length,
    errors: errors.count,
  };
}

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const loadAverageAtStart = os.loadavg();
  const results: Record<Transport, Record<Driver, Measurement[]>> = {
    stdio: { load: [], 'hand-written': [], other: [] },
    http: { load: [], 'hand-written': [], other: [] },
  };
  for (let round = 0; round < config.rounds; round++) {
    // Interleaved, and the order flips each round, so neither driver always runs on a cooler machine.
    const order: Driver[] =
      otherCli === undefined ? ['load', 'hand-written'] : ['load', 'other', 'hand-written'];
    const drivers = round % 2 === 0 ? order : order.toReversed();
    for (const transport of transports)
      for (const driver of drivers) {
        const result = await measure(transport, driver);
        results[transport][driver].push(result);
        process.stderr.write(
          `round ${round + 1}/${config.rounds} ${transport} ${driver}: ${formatNumber(result.rps)} req/s, p50 ${result.p50.toFixed(3)} ms, p90 ${result.p90.toFixed(3)} ms, p99 ${result.p99.toFixed(3)} ms, ${result.errors} errors\n`,
        );
      }
  }
  const loadAverageAtEnd = os.loadavg();
  const builds: Driver[] = otherCli === undefined ? ['load'] : ['load', 'other'];
  const rows = transports.flatMap((transport) => {
    const of = (driver: Driver, key: keyof Measurement): number =>
      median(results[transport][driver].map((measurement) => measurement[key]))!;
    return builds.map((build) => ({
      transport: build === 'load' ? transport : `${transport} (${otherCli})`,
      load: { rps: of(build, 'rps'), p50: of(build, 'p50'), p90: of(build, 'p90'), p99: of(build, 'p99') },
      handWritten: {
        rps: of('hand-written', 'rps'),
        p50: of('hand-written', 'p50'),
        p90: of('hand-written', 'p90'),
        p99: of('hand-written', 'p99'),
      },
    }));
  });
  console.log(
    `\nmcpwire load vs a hand-written driver: tools/call echo against bench/servers/raw-mcp.mjs, closed loop, ` +
      `${config.concurrency} in flight, ${config.warmupMs} ms warm-up + ${config.seconds} s, median of ${config.rounds} interleaved rounds` +
      `\nload average ${loadAverageAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadAverageAtEnd.map((l) => l.toFixed(2)).join(' ')} at end (${os.cpus().length} cores)\n`,
  );
  console.log(
    formatTable(
      [
        'transport',
        'load req/s',
        'hand req/s',
        'ratio',
        'load p50',
        'hand p50',
        'load p90',
        'hand p90',
        'load p99',
        'hand p99',
      ],
      rows.map((row) => [
        row.transport,
        formatNumber(row.load.rps),
        formatNumber(row.handWritten.rps),
        formatRatio(row.load.rps, row.handWritten.rps),
        `${row.load.p50.toFixed(3)} ms`,
        `${row.handWritten.p50.toFixed(3)} ms`,
        `${row.load.p90.toFixed(3)} ms`,
        `${row.handWritten.p90.toFixed(3)} ms`,
        `${row.load.p99.toFixed(3)} ms`,
        `${row.handWritten.p99.toFixed(3)} ms`,
      ]),
    ),
  );
  // The machine's speed drifts between rounds (here by a fifth within minutes); the two drivers of one
  // round run back to back, so their ratio within a round is the comparison drift least disturbs.
  const paired = transports.flatMap((transport) =>
    builds.map((build) => {
      const ratioOf = (key: keyof Measurement): number =>
        median(
          results[transport][build].map(
            (measurement, round) => measurement[key] / results[transport]['hand-written'][round]![key],
          ),
        )!;
      return {
        transport: build === 'load' ? transport : `${transport} (${otherCli})`,
        rps: ratioOf('rps'),
        p50: ratioOf('p50'),
        p90: ratioOf('p90'),
        p99: ratioOf('p99'),
      };
    }),
  );
  console.log(
    '\npaired: the median over rounds of load / hand-written within each round (the two run back to back)\n' +
      formatTable(
        ['transport', 'req/s', 'p50', 'p90', 'p99'],
        paired.map((row) => [
          row.transport,
          `${row.rps.toFixed(2)}x`,
          `${row.p50.toFixed(2)}x`,
          `${row.p90.toFixed(2)}x`,
          `${row.p99.toFixed(2)}x`,
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
    medians: rows.map((row) => ({ ...row, rpsRatio: row.load.rps / row.handWritten.rps })),
    paired,
    rounds: results,
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

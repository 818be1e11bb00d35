// The client half of the HTTP bench (issue 26): mcpwire's Client over Streamable HTTP against a hand-written
// undici `Pool.request` driver, both calling `tools/call echo` on the same hand-written JSON-RPC server
// (bench/servers/raw-mcp-peer.mjs, one process per round) on 127.0.0.1, in interleaved rounds. Per subject:
// sequential p50 latency (one call at a time) and calls/s with 16 calls in flight. The Client also runs
// with `fetch: globalThis.fetch` (what the `fetch` option costs), and, with BENCH_BEFORE, from older code.
// Per subject also the client's CPU per call in the timed window (this process's user + system time from
// process.cpuUsage(), one subject at a time: less swayed by the machine's other load than calls/s).
// Prints medians and the ratio to the driver and writes bench/results/http-client-latest.json.
// Env: BENCH_ROUNDS=<n> (default 3), BENCH_CLIENT_SECONDS=<s> timed window (default 5), BENCH_QUICK=1 smoke run,
// BENCH_BEFORE=<folder> (a built checkout of older code: its packages/mcpwire/dist).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { loadAverageNow, machineFacts, positiveInt } from './machine.ts';
import { formatNumber, formatRatio, formatTable, median, percentile } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const isQuick = process.env.BENCH_QUICK === '1';
const config = {
  rounds: positiveInt('BENCH_ROUNDS', isQuick ? 1 : 3),
  inFlight: 16,
  warmupCalls: isQuick ? 200 : 1_000,
  sequentialCalls: isQuick ? 300 : 2_000,
  concurrentWarmupMs: isQuick ? 300 : 1_000,
  concurrentMs: positiveInt('BENCH_CLIENT_SECONDS', isQuick ? 1 : 5) * 1000,
};

/** BENCH_BEFORE=<folder>: older code measured in the same rounds (`mcpwire-before`). */
const before = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined;
if (before !== undefined && !existsSync(join(before, 'packages/mcpwire/dist/client/index.js')))
  throw new Error(`BENCH_BEFORE: ${before}/packages/mcpwire/dist is missing; run npm run build there`);

// ---------------------------------------------------------------------------------------------------------
// Subjects: each opens against a URL and gives back one call and a close.

/** One echo call: resolves with undefined, or a string saying what was wrong with the answer. */
type Call = (i: number) => Promise<string | undefined>;
interface Opened {
  call: Call;
  close(): Promise<void>;
}
interface Subject {
  name: string;
  note: string;
  open(url: string): Promise<Opened>;
}

const messageOf = (i: number): string => `hello ${i}`;

function checkText(content: unknown, i: number): string | undefined {
  const block =
    Array.isArray(content) && content.length === 1 ? (content[0] as { text?: unknown }) : undefined;
  return block?.text === messageOf(i)
    ? undefined
    : `unexpected content ${JSON.stringify(content).slice(0, 120)}`;
}

/** The hand-written driver: undici's Pool, one POST per call, the JSON answer parsed and checked. */
const undiciDriver: Subject = {
  name: 'undici Pool.request',
  note: 'hand-written: JSON-RPC tools/call POSTed with undici Pool.request (16 connections), answer parsed and checked',
  open: async (url) => {
    const target = new URL(url);
    const pool = new Pool(target.origin, { connections: config.inFlight });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    const call: Call = async (i) => {
      const params = { name: 'echo', arguments: { message: messageOf(i) } };
      const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params });
      const answer = await pool.request({ method: 'POST', path: target.pathname, headers, body });
      const text = await answer.body.text();
      if (answer.statusCode !== 200) return `HTTP ${answer.statusCode}`;
      const message = JSON.parse(text) as { id?: unknown; result?: { content?: unknown } };
      return message.id === i ? checkText(message.result?.content, i) : `id ${String(message.id)}`;
    };
    return { call, close: () => pool.close() };
  },
};

interface ClientModules {
  Client: new (
    info: { name: string; version: string },
    options: Record<string, unknown>,
  ) => {
    connect(transport: unknown): Promise<void>;
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<{ content?: unknown }>;
    close(): Promise<void>;
  };
  StreamableHttpClientTransport: new (url: string, options: Record<string, unknown>) => unknown;
}

async function loadClient(folder: string): Promise<ClientModules> {
  const dist = join(folder, 'packages/mcpwire/dist');
  const client = (await import(pathToFileURL(join(dist, 'client/index.js')).href)) as ClientModules;
  const http = (await import(pathToFileURL(join(dist, 'transports/http/index.js')).href)) as ClientModules;
  return { Client: client.Client, StreamableHttpClientTransport: http.StreamableHttpClientTransport };
}

function clientSubject(name: string, note: string, folder: string, transportOptions = {}): Subject {
  return {
    name,
    note,
    open: async (url) => {
      const { Client, StreamableHttpClientTransport } = await loadClient(folder);
      const client = new Client(
        { name: 'mcpwire-bench', version: '0.0.0' },
        { era: 'handshake', protocolVersion: '2025-11-25', eraCache: false, onError: () => {} },
      );
      await client.connect(
        new StreamableHttpClientTransport(url, { onError: () => {}, ...transportOptions }),
      );
      const call: Call = async (i) => {
        const result = await client.callTool({ name: 'echo', arguments: { message: messageOf(i) } });
        return checkText(result.content, i);
      };
      return { call, close: () => client.close() };
    },
  };
}

const subjects: Subject[] = [
  undiciDriver,
  clientSubject('mcpwire Client', 'this code: Client + StreamableHttpClientTransport, default options', root),
  clientSubject(
    'mcpwire Client, fetch',
    'this code with fetch: (r) => globalThis.fetch(r) (the `fetch` option, as an OAuth wrapper uses it)',
    root,
    { fetch: (request: Request) => fetch(request) },
  ),
  ...(before === undefined
    ? []
    : [clientSubject('mcpwire-before Client', `the code in ${before}, default options`, before)]),
];

// ---------------------------------------------------------------------------------------------------------
// Measurement

interface Samples {
  p50: number[];
  p99: number[];
  perSecond: number[];
  /** The client process's CPU time per call with `config.inFlight` in flight, microseconds. */
  cpuPerCall: number[];
  calls: number;
  failures: string[];
}

async function measure(subject: Subject, url: string, samples: Samples): Promise<void> {
  const opened = await subject.open(url);
  const note = (problem: string | undefined): void => {
    if (problem !== undefined && samples.failures.length < 5) samples.failures.push(problem);
  };
  try {
    for (let i = 0; i < config.warmupCalls; i++) note(await opened.call(i));
    const latencies: number[] = [];
    for (let i = 0; i < config.sequentialCalls; i++) {
      const start = performance.now();
      note(await opened.call(i));
      latencies.push(performance.now() - start);
    }
    samples.p50.push(median(latencies)!);
    samples.p99.push(percentile(latencies, 99)!);
    await inFlight(opened.call, config.concurrentWarmupMs, note);
    const cpuBefore = process.cpuUsage();
    const count = await inFlight(opened.call, config.concurrentMs, note);
    const cpu = process.cpuUsage(cpuBefore);
    samples.perSecond.push(count / (config.concurrentMs / 1000));
    samples.cpuPerCall.push((cpu.user + cpu.system) / count);
    samples.calls += config.sequentialCalls + count;
  } finally {
    await opened.close();
  }
}

/** Keeps `config.inFlight` calls running for `ms`; the count of calls completed. */
async function inFlight(
  call: Call,
  ms: number,
  note: (problem: string | undefined) => void,
): Promise<number> {
  const end = performance.now() + ms;
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: config.inFlight }, async () => {
      while (performance.now() < end) {
        note(await call(next++));
        done++;
      }
    }),
  );
  return done;
}

async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(root, 'bench/servers/raw-mcp-peer.mjs')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let text = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
      const found = /at (http:\/\/\S+)/.exec(text);
      if (found) resolveUrl(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`raw-mcp-peer exited with ${code}: ${text}`)));
  });
  return { url, child };
}

// ---------------------------------------------------------------------------------------------------------
// Report

const round3 = (value: number | undefined): number | null =>
  value === undefined ? null : Math.round(value * 1000) / 1000;

function render(results: Map<string, Samples>): string {
  const driver = results.get(undiciDriver.name)!;
  const driverRate = median(driver.perSecond);
  const driverP50 = median(driver.p50);
  const rows = [...results].map(([name, s]) => [
    name,
    formatNumber(median(s.p50), 3),
    formatNumber(median(s.p99), 3),
    formatRatio(median(s.p50), driverP50),
    formatNumber(median(s.perSecond)),
    formatRatio(median(s.perSecond), driverRate),
    formatNumber(median(s.cpuPerCall), 1),
    s.failures.length === 0 ? 'ok' : `problems: ${s.failures[0]}`,
  ]);
  return formatTable(
    [
      'subject',
      'seq p50 ms',
      'seq p99 ms',
      'p50 / driver',
      `calls/s (${config.inFlight} in flight)`,
      'rate / driver',
      'client CPU us/call',
      'status',
    ],
    rows,
  );
}

async function main(): Promise<void> {
  if (!existsSync(join(root, 'packages/mcpwire/dist/client/index.js')))
    throw new Error('packages/mcpwire/dist missing: run npm run build');
  const env = machineFacts();
  console.log(`mcpwire HTTP client benchmark${isQuick ? ' (BENCH_QUICK: smoke run only)' : ''}`);
  console.log(
    `node ${env.node} on ${env.platform}; ${env.cpus} CPUs, ${env.cpuModel}; load average ${env.loadAverageAtStart.join(' ')}`,
  );
  console.log(
    `${config.rounds} interleaved rounds, one raw-mcp-peer server process per round on 127.0.0.1; per subject ` +
      `${config.warmupCalls} warm-up calls, ${config.sequentialCalls} sequential calls, then ${config.inFlight} in flight ` +
      `for ${formatNumber(config.concurrentWarmupMs)} ms warm-up + ${formatNumber(config.concurrentMs)} ms timed\n`,
  );
  const results = new Map<string, Samples>(
    subjects.map((s) => [
      s.name,
      { p50: [], p99: [], perSecond: [], cpuPerCall: [], calls: 0, failures: [] },
    ]),
  );
  for (let round = 0; round < config.rounds; round++) {
    const order = subjects.map((_, i) => subjects[(i + round) % subjects.length]!);
    process.stderr.write(`  round ${round + 1}/${config.rounds}: ${order.map((s) => s.name).join(' → ')}\n`);
    const server = await startServer();
    try {
      for (const subject of order) await measure(subject, server.url, results.get(subject.name)!);
    } finally {
      server.child.kill();
    }
  }
  console.log(`${render(results)}\n`);
  const loadAverageAtEnd = loadAverageNow();
  console.log(`load average at end ${loadAverageAtEnd.join(' ')}`);
  const driverRate = median(results.get(undiciDriver.name)!.perSecond);
  const outFile = join(root, 'bench/results/http-client-latest.json');
  mkdirSync(dirname(outFile), { recursive: true });
  const json = {
    benchmark: 'http-client',
    generatedAt: new Date().toISOString(),
    quick: isQuick,
    environment: { ...env, loadAverageAtEnd },
    config,
    method:
      'tools/call echo on bench/servers/raw-mcp-peer.mjs (a hand-written sessionless 2025-11-25 endpoint, no ' +
      'validation); every answer checked (id, echoed text); sequential: one call at a time, p50 and p99 of ' +
      'per-call latency; rate: calls completed with 16 in flight (closed loop) / timed window; client CPU: ' +
      'process.cpuUsage() user + system over the timed window / calls completed',
    subjects: subjects.map((subject) => {
      const s = results.get(subject.name)!;
      return {
        name: subject.name,
        note: subject.note,
        status: s.failures.length === 0 ? 'ok' : 'problems',
        median: {
          sequentialP50Ms: round3(median(s.p50)),
          sequentialP99Ms: round3(median(s.p99)),
          callsPerSecond: round3(median(s.perSecond)),
          clientCpuMicrosPerCall: round3(median(s.cpuPerCall)),
        },
        rateToDriver: driverRate ? round3(median(s.perSecond)! / driverRate) : null,
        rounds: {
          p50: s.p50.map(round3),
          p99: s.p99.map(round3),
          callsPerSecond: s.perSecond.map(round3),
          clientCpuMicrosPerCall: s.cpuPerCall.map(round3),
        },
        calls: s.calls,
        failures: s.failures,
      };
    }),
  };
  await writeResultsFile(outFile, json);
  console.log(`wrote ${outFile.slice(root.length + 1)}`);
}

await main();

// The Redis half of `npm run bench` (issue 24, point 5): one `mcpwire serve everything --http` node on
// Redis (`--redis <url>`) against the same node in memory, on 127.0.0.1, in interleaved rounds with a
// fresh node process per measurement and a Redis emptied between measurements. Three parts:
//   load         established handshake-era session POSTs and 2026-07-28 requests (tools/call echo, 16
//                keep-alive connections): req/s, p50, the node's CPU per call and Redis's own CPU per call
//   round trips  Redis commands and read events (what a round trip costs Redis) per request, from Redis's
//                INFO counters around N sequential calls on one connection, less the same idle time's
//                background (the session reaper, the key ring, pub/sub pings)
//   memory       the node's heap per idle handshake-era session with many idle sessions held in Redis (and
//                Redis's own memory per session), against the in-memory store
// Prints medians and ratios and writes bench/results/redis-latest.json.
// Env: BENCH_ROUNDS=<n> (default 3), BENCH_HTTP_SECONDS=<s> timed window (default 8), BENCH_REDIS_SESSIONS=<n>
// idle sessions (default 10000), BENCH_REDIS_CALLS=<n> sequential calls counted (default 1000), BENCH_QUICK=1
// for a smoke run, BENCH_ONLY=load,trips,memory (some parts only), BENCH_BEFORE=<built checkout>: a
// `redis-before` twin of the Redis node served from there.
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { redisSkipReason, startRedisServer } from '../test/support/redis-server.ts';
import {
  type HttpWorkload,
  HttpServerProcess,
  killAllHttpChildren,
  measureLoad,
  measureSessionMemory,
  RawHttpConnection,
  readCpuUs,
  sleep,
} from './http-driver.ts';
import { openSession, stateful, stateless } from './http-workloads.ts';
import { loadAverageNow, machineFacts, positiveInt } from './machine.ts';
import { formatNumber, formatRatio, formatTable, median } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const isQuick = process.env.BENCH_QUICK === '1';

const config = {
  rounds: positiveInt('BENCH_ROUNDS', isQuick ? 1 : 3),
  load: {
    connections: 16,
    warmupMs: isQuick ? 500 : 1_500,
    durationMs: positiveInt('BENCH_HTTP_SECONDS', isQuick ? 2 : 8) * 1000,
    maxCalls: 2_000_000,
  },
  roundTrips: { warmup: 200, calls: positiveInt('BENCH_REDIS_CALLS', isQuick ? 200 : 1000) },
  memory: {
    warmup: isQuick ? 50 : 300,
    count: positiveInt('BENCH_REDIS_SESSIONS', isQuick ? 500 : 10_000),
    parallel: 8,
    settleMs: 500,
  },
};

/** BENCH_ONLY=<parts>: `load`, `trips` and/or `memory` (comma-separated), for development. */
const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const isSelected = (part: string): boolean => only.length === 0 || only.includes(part);

const before = process.env.BENCH_BEFORE ? resolve(process.env.BENCH_BEFORE) : undefined;
if (before !== undefined && !existsSync(join(before, 'packages/cli/dist/main.js')))
  throw new Error(`BENCH_BEFORE: ${before}/packages/cli/dist/main.js is missing; run npm run build there`);

// ---------------------------------------------------------------------------------------------------------
// Nodes

/** How long the memory part waits on a Redis node for its idle sessions to be let go of. */
const REDIS_LIVE_IDLE_SETTLE_MS = 13_000;

/** Every bench session comes from one address: lift both caps so none is evicted. */
const NO_CAPS = ['--max-sessions', '100000000', '--max-sessions-per-client', '100000000'];
/** Preload for the memory part: SIGUSR2 → two full GCs → `MEMPROBE {memoryUsage}` on stderr. */
const PROBE = ['--expose-gc', '--import', pathToFileURL(join(root, 'bench/servers/mem-probe.mjs')).href];

interface Node {
  name: string;
  /** The node's arguments after `node`, for a Redis at `redisUrl`. */
  args(redisUrl: string): string[];
  cwd: string;
}

const serve = ['packages/cli/dist/main.js', 'serve', 'everything', '--http', '{port}', ...NO_CAPS];
const nodes: readonly Node[] = [
  { name: 'memory', args: () => serve, cwd: root },
  { name: 'redis', args: (url) => [...serve, '--redis', url], cwd: root },
  ...(before === undefined
    ? []
    : [{ name: 'redis-before', args: (url: string) => [...serve, '--redis', url], cwd: before }]),
];

function start(entry: Node, redisUrl: string, preload: readonly string[] = []): Promise<HttpServerProcess> {
  return HttpServerProcess.start({
    name: entry.name,
    command: node,
    args: [...preload, ...entry.args(redisUrl)],
    cwd: entry.cwd,
    isQuiet: true,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Redis's counters

/** The small part of a redis client the bench uses (INFO, FLUSHALL). */
interface RedisClient {
  info(section: string): Promise<string>;
  flushAll(): Promise<unknown>;
}

/** `INFO <section>` as a map of its `key:value` lines. */
async function info(client: RedisClient, section: string): Promise<Map<string, string>> {
  const text = await client.info(section);
  const fields = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

interface Counters {
  reads: number;
  /** Calls per command name (`cmdstat_<name>:calls=N,...`), this bench's own INFO left out. */
  commands: Map<string, number>;
}

async function counters(client: RedisClient): Promise<Counters> {
  const stats = await info(client, 'stats');
  const commandStats = await info(client, 'commandstats');
  const commands = new Map<string, number>();
  for (const [key, value] of commandStats) {
    const name = key.replace(/^cmdstat_/, '');
    if (name === 'info') continue;
    commands.set(name, Number(/calls=(\d+)/.exec(value)?.[1] ?? 0));
  }
  return { reads: Number(stats.get('total_reads_processed') ?? NaN), commands };
}

/** `after - before`, less the two INFO reads the bench itself made between them. */
function delta(before: Counters, after: Counters): Counters {
  const commands = new Map<string, number>();
  for (const [name, calls] of after.commands) {
    const difference = calls - (before.commands.get(name) ?? 0);
    if (difference > 0) commands.set(name, difference);
  }
  return { reads: after.reads - before.reads - 2, commands };
}

function total(commands: Map<string, number>): number {
  let sum = 0;
  for (const calls of commands.values()) sum += calls;
  return sum;
}

async function redisPid(client: RedisClient): Promise<number> {
  return Number((await info(client, 'server')).get('process_id'));
}

// ---------------------------------------------------------------------------------------------------------
// Measurements

interface Series {
  samples: Record<string, number[]>;
  errors: number;
  errorSamples: string[];
  notes: string[];
}

const newSeries = (): Series => ({ samples: {}, errors: 0, errorSamples: [], notes: [] });

function add(series: Series, key: string, value: number | undefined): void {
  if (value === undefined || !Number.isFinite(value)) return;
  (series.samples[key] ??= []).push(value);
}

function fail(series: Series, problem: string): void {
  series.errors++;
  if (series.errorSamples.length < 5) series.errorSamples.push(problem);
}

async function measureLoadOn(
  entry: Node,
  workload: HttpWorkload,
  redis: { url: string; client: RedisClient; pid: number },
  series: Series,
): Promise<void> {
  await redis.client.flushAll();
  const server = await start(entry, redis.url);
  try {
    const redisCpuStart = readCpuUs(redis.pid) ?? NaN;
    const result = await measureLoad(server, workload, config.load);
    // Redis's CPU over warm-up and timed window together, per timed call: an upper bound, read the same way for every row.
    const redisCpuUs = (readCpuUs(redis.pid) ?? NaN) - redisCpuStart;
    if (result.errors.count > 0) {
      for (const sample of result.errors.samples) fail(series, sample);
      return;
    }
    add(series, 'requestsPerSecond', result.requestsPerSecond);
    add(series, 'p50Us', result.p50Us);
    add(series, 'p99Us', result.p99Us);
    add(series, 'serverCpuUs', result.serverCpuUsPerCall);
    add(series, 'redisCpuUs', entry.name === 'memory' ? 0 : redisCpuUs / result.calls);
  } finally {
    await server.close();
  }
}

async function measureRoundTrips(
  entry: Node,
  workload: HttpWorkload,
  redis: { url: string; client: RedisClient },
  series: Series,
): Promise<void> {
  await redis.client.flushAll();
  const server = await start(entry, redis.url);
  const connection = new RawHttpConnection(new URL(server.url));
  try {
    const headers = await workload.setup(connection);
    for (let i = 1; i <= config.roundTrips.warmup; i++) {
      const problem = await workload.call(connection, headers, i);
      if (problem !== undefined) return fail(series, problem);
    }
    const first = await counters(redis.client);
    const startedAt = performance.now();
    for (let i = 1; i <= config.roundTrips.calls; i++) {
      const problem = await workload.call(connection, headers, config.roundTrips.warmup + i);
      if (problem !== undefined) return fail(series, problem);
    }
    const elapsedMs = performance.now() - startedAt;
    const busy = delta(first, await counters(redis.client));
    // The same length of time with no request: what the node sends Redis on its own.
    const idleStart = await counters(redis.client);
    await sleep(elapsedMs);
    const idle = delta(idleStart, await counters(redis.client));
    const calls = config.roundTrips.calls;
    add(series, 'readsPerCall', (busy.reads - idle.reads) / calls);
    add(series, 'commandsPerCall', (total(busy.commands) - total(idle.commands)) / calls);
    const byName = [...busy.commands]
      .map(([name, count]) => [name, (count - (idle.commands.get(name) ?? 0)) / calls] as const)
      .filter(([, perCall]) => perCall >= 0.01)
      .map(([name, perCall]) => `${name} ${perCall.toFixed(2)}`);
    series.notes.push(byName.length ? byName.join(', ') : 'no command');
  } finally {
    connection.close();
    await server.close();
  }
}

async function measureMemory(
  entry: Node,
  redis: { url: string; client: RedisClient },
  series: Series,
): Promise<void> {
  await redis.client.flushAll();
  const server = await start(entry, redis.url, PROBE);
  try {
    const redisBefore = Number((await info(redis.client, 'memory')).get('used_memory'));
    // A Redis node lets go of a session idle for 10 s (RedisSessionStore.liveIdleMs; swept every 2.5 s):
    // idle means past that, so its readings wait 13 s.
    const settleMs = entry.name === 'memory' ? config.memory.settleMs : REDIS_LIVE_IDLE_SETTLE_MS;
    const result = await measureSessionMemory(server, openSession, { ...config.memory, settleMs });
    const redisAfter = Number((await info(redis.client, 'memory')).get('used_memory'));
    if (result.errors.count > 0) {
      for (const sample of result.errors.samples) fail(series, sample);
      return;
    }
    add(series, 'heapBytesPerSession', result.heapBytesPerSession);
    add(series, 'rssBytesPerSession', result.rssBytesPerSession);
    // The warm-up sessions are in Redis before the first reading too: the delta is the N sessions'.
    if (entry.name !== 'memory')
      add(series, 'redisBytesPerSession', (redisAfter - redisBefore) / result.sessions);
  } finally {
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Report

interface Metric {
  key: string;
  label: string;
  digits: number;
  better: 'higher' | 'lower';
}

const loadMetrics: readonly Metric[] = [
  { key: 'requestsPerSecond', label: 'req/s', digits: 0, better: 'higher' },
  { key: 'p50Us', label: 'p50 µs', digits: 0, better: 'lower' },
  { key: 'p99Us', label: 'p99 µs', digits: 0, better: 'lower' },
  { key: 'serverCpuUs', label: 'node CPU µs/call', digits: 1, better: 'lower' },
  { key: 'redisCpuUs', label: 'Redis CPU µs/call', digits: 1, better: 'lower' },
];
const tripMetrics: readonly Metric[] = [
  { key: 'readsPerCall', label: 'Redis round trips/call', digits: 2, better: 'lower' },
  { key: 'commandsPerCall', label: 'Redis commands/call', digits: 2, better: 'lower' },
];
const memoryMetrics: readonly Metric[] = [
  { key: 'heapBytesPerSession', label: 'node heap B/session', digits: 0, better: 'lower' },
  { key: 'rssBytesPerSession', label: 'node RSS B/session', digits: 0, better: 'lower' },
  { key: 'redisBytesPerSession', label: 'Redis B/session', digits: 0, better: 'lower' },
];

interface Part {
  key: string;
  title: string;
  metrics: readonly Metric[];
  series: Map<string, Series>;
}

const medianOf = (series: Series | undefined, key: string): number | undefined =>
  series === undefined ? undefined : median(series.samples[key] ?? []);

function render(part: Part): string {
  const header = ['node', ...part.metrics.map((m) => m.label), 'errors'];
  const rows = [...part.series].map(([name, s]) => [
    name,
    ...part.metrics.map((m) => formatNumber(medianOf(s, m.key), m.digits)),
    formatNumber(s.errors),
  ]);
  const lines = [`${part.title}; medians over ${config.rounds} rounds`, formatTable(header, rows)];
  const memory = part.series.get('memory');
  for (const name of ['redis', 'redis-before']) {
    const s = part.series.get(name);
    if (s === undefined || memory === undefined || part.key === 'trips') continue;
    lines.push(
      `${name} / memory: ` +
        part.metrics
          .filter((m) => m.key !== 'redisCpuUs' && m.key !== 'redisBytesPerSession')
          .map((m) => `${m.label} ${formatRatio(medianOf(s, m.key), medianOf(memory, m.key))}`)
          .join(', '),
    );
  }
  const redis = part.series.get('redis');
  const older = part.series.get('redis-before');
  if (redis !== undefined && older !== undefined)
    lines.push(
      'redis / redis-before: ' +
        part.metrics
          .map((m) => `${m.label} ${formatRatio(medianOf(redis, m.key), medianOf(older, m.key))}`)
          .join(', '),
    );
  for (const [name, s] of part.series) {
    if (part.key === 'trips' && s.notes.length)
      lines.push(`  ${name}, commands per call (last round): ${s.notes.at(-1)}`);
    for (const sample of s.errorSamples) lines.push(`  ${name} wrong answer: ${sample}`);
  }
  return lines.join('\n');
}

const round3 = (value: number | undefined): number | null =>
  value === undefined || !Number.isFinite(value) ? null : Math.round(value * 1000) / 1000;

function toJson(part: Part) {
  return {
    part: part.key,
    title: part.title,
    nodes: [...part.series].map(([name, s]) => ({
      name,
      status: s.errors ? 'problems' : 'ok',
      median: Object.fromEntries(part.metrics.map((m) => [m.key, round3(medianOf(s, m.key))])),
      rounds: Object.fromEntries(part.metrics.map((m) => [m.key, (s.samples[m.key] ?? []).map(round3)])),
      ...(s.notes.length ? { commandsPerCall: s.notes } : {}),
      errors: s.errors,
      errorSamples: s.errorSamples,
    })),
  };
}

// ---------------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  if (!existsSync(join(root, 'packages/cli/dist/main.js')))
    throw new Error('packages/cli/dist/main.js missing: run npm run build');
  const skip = await redisSkipReason();
  if (skip !== undefined) {
    console.log(`mcpwire Redis benchmark skipped: ${skip}`);
    return;
  }
  const env = machineFacts();
  console.log(`mcpwire Redis benchmark${isQuick ? ' (BENCH_QUICK: smoke run only)' : ''}`);
  console.log(
    `node ${env.node} on ${env.platform}; ${env.cpus} CPUs, ${env.cpuModel}; load average ${env.loadAverageAtStart.join(' ')}`,
  );
  await using redisServer = await startRedisServer();
  const client = createClient({ url: redisServer.url });
  client.on('error', () => {});
  await client.connect();
  try {
    const redisVersion = (await info(client, 'server')).get('redis_version');
    const redis = { url: redisServer.url, client, pid: await redisPid(client) };
    console.log(
      `redis-server ${redisVersion} on 127.0.0.1 (no persistence), emptied before each measurement; ` +
        `${config.rounds} interleaved rounds, a fresh node per measurement; load: ${config.load.connections} ` +
        `keep-alive connections, ${formatNumber(config.load.warmupMs)} ms warm-up + ${formatNumber(config.load.durationMs)} ms timed; ` +
        `round trips over ${config.roundTrips.calls} sequential calls; memory: ${formatNumber(config.memory.count)} idle sessions\n`,
    );
    const seriesOf = (list: readonly Node[]) => new Map(list.map((n) => [n.name, newSeries()]));
    const onRedis = nodes.filter((n) => n.name !== 'memory');
    const parts: Part[] = [
      {
        key: 'stateful',
        title: `established ${stateful.name} session POST, tools/call echo`,
        metrics: loadMetrics,
        series: seriesOf(nodes),
      },
      {
        key: 'stateless',
        title: `${stateless.name} request, tools/call echo`,
        metrics: loadMetrics,
        series: seriesOf(nodes),
      },
      {
        key: 'trips',
        title: 'Redis per request (established session POST; 2026-07-28 request)',
        metrics: tripMetrics,
        series: new Map(),
      },
      {
        key: 'memory',
        title: `idle handshake-era sessions held by the node's store`,
        metrics: memoryMetrics,
        series: seriesOf(nodes),
      },
    ];
    for (const n of onRedis) {
      parts[2]!.series.set(`${n.name} session POST`, newSeries());
      parts[2]!.series.set(`${n.name} 2026-07-28`, newSeries());
    }
    for (let round = 0; round < config.rounds; round++) {
      const order = nodes.map((_, i) => nodes[(i + round) % nodes.length]!);
      process.stderr.write(
        `  round ${round + 1}/${config.rounds}: ${order.map((n) => n.name).join(' → ')}\n`,
      );
      for (const n of order) {
        if (isSelected('load')) {
          await measureLoadOn(n, stateful, redis, parts[0]!.series.get(n.name)!);
          await measureLoadOn(n, stateless, redis, parts[1]!.series.get(n.name)!);
        }
        if (n.name !== 'memory' && isSelected('trips')) {
          await measureRoundTrips(n, stateful, redis, parts[2]!.series.get(`${n.name} session POST`)!);
          await measureRoundTrips(n, stateless, redis, parts[2]!.series.get(`${n.name} 2026-07-28`)!);
        }
        if (isSelected('memory')) await measureMemory(n, redis, parts[3]!.series.get(n.name)!);
      }
    }
    for (const part of parts) console.log(`${render(part)}\n`);
    const loadAverageAtEnd = loadAverageNow();
    console.log(`load average at end ${loadAverageAtEnd.join(' ')}`);
    const outFile = join(root, 'bench/results/redis-latest.json');
    mkdirSync(dirname(outFile), { recursive: true });
    const json = {
      benchmark: 'redis',
      generatedAt: new Date().toISOString(),
      quick: isQuick,
      environment: { ...env, loadAverageAtEnd, redisVersion },
      config,
      method: {
        load: 'bench/http-driver.ts measureLoad (raw keep-alive connections, closed loop, every answer verified); Redis CPU from /proc/<pid>/stat over warm-up and timed window, per timed call',
        roundTrips:
          "INFO stats total_reads_processed and INFO commandstats around N sequential calls on one connection, less the bench's own INFO and the same idle time's counts",
        memory:
          'bench/http-driver.ts measureSessionMemory (post-GC heap+external delta / N); Redis INFO memory used_memory delta / N',
      },
      parts: parts.map(toJson),
    };
    await writeResultsFile(outFile, json);
    console.log(`wrote ${outFile.slice(root.length + 1)}`);
  } finally {
    client.destroy();
  }
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

// The soak with faults (issue 13): both eras over stdio and Streamable HTTP at once, HTTP through a
// TCP proxy that cuts connections, stdio servers killed at random; then the ledger, the memory chart
// and the verdict. Usage: see USAGE (`npm run soak -- --help`). With `--nodes N --redis`, the
// multi-node mode instead (bench/soak-nodes.ts, issue 24).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { renderChart } from './soak-chart.ts';
import { SoakDriver, type DriverContext, type DriverSpec } from './soak-driver.ts';
import { Ledger } from './soak-ledger.ts';
import { explainTimeout } from './soak-diagnose.ts';
import { runMultiNodeSoak } from './soak-nodes.ts';
import { createReportReader, createSeries, mib, sampleSelf, type MemorySeries } from './soak-memory.ts';
import { startFaultProxy } from './soak-proxy.ts';
import { judgeRun, type RunFacts } from './soak-verdict.ts';

const ROOT = resolve(import.meta.dirname, '..');
const SERVER_ENTRY = join(ROOT, 'bench', 'soak-server.ts');
/** Runs the server from source, like the soak itself, with GC exposed for its memory reports. */
const NODE_FLAGS = ['--expose-gc', '--conditions=@mcpwire/source', `--import=${import.meta.resolve('tsx')}`];
const SPECS: readonly DriverSpec[] = [
  { era: 'handshake', transport: 'stdio' },
  { era: 'stateless', transport: 'stdio' },
  { era: 'handshake', transport: 'http' },
  { era: 'stateless', transport: 'http' },
  // A second handshake-era HTTP client: two sessions share the server instance.
  { era: 'handshake', transport: 'http' },
];
const USAGE = `Usage: npm run soak -- [options]

  --minutes M        how long to run (default 1); or --seconds S
  --seed N           the seed of the run's random choices, to repeat a run
  --out-dir DIR      where the chart and figures go (default bench/results)
  --sample-ms MS     memory sample period (default 5000 for runs of 5 min or more, else 1000)
  --cut-chance P     share of proxied HTTP connections cut (default 0.5; single-node mode)
  --only stdio|http  one transport only, to hunt a fault faster (single-node mode)
  --nodes N --redis  multi-node mode: one persisted redis-server, N "mcpwire serve everything --http
                     <port> --redis <url>" nodes behind a round-robin HAProxy, clients of both eras
                     over HTTP; a random node is SIGKILLed and restarted on its port at random
                     intervals, Redis is restarted once; the verdict fails on a lost, doubled or hung
                     outcome or a node heap that is not flat (figures: soak-nodes-<time>.json)
  --no-redis-restart multi-node mode without the Redis restart (node kills only)
  --help             this text
`;
/** How long in-flight operations may take to settle once the run stops. */
const DRAIN_MS = 60_000;

/** Mulberry32: a small seeded generator, so a failing run can be repeated with its seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function startHttpServer(
  sampleMs: number,
  series: MemorySeries,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [...NODE_FLAGS, SERVER_ENTRY, 'http', String(sampleMs)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout!.setEncoding('utf8');
  const port = await new Promise<number>((resolvePort, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the HTTP soak server exited (code ${code}) before listening`)),
    );
    child.stdout!.on(
      'data',
      createReportReader(
        (sample) => series['http-server'].push(sample),
        (line) => resolvePort(Number(new URL((JSON.parse(line) as { url: string }).url).port)),
      ),
    );
  });
  return { child, port };
}

function readOptions() {
  const { values } = parseArgs({
    options: {
      minutes: { type: 'string' },
      seconds: { type: 'string' },
      seed: { type: 'string' },
      'out-dir': { type: 'string' },
      'sample-ms': { type: 'string' },
      'cut-chance': { type: 'string' },
      only: { type: 'string' },
      nodes: { type: 'string' },
      redis: { type: 'boolean' },
      'no-redis-restart': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const nodes = values.nodes === undefined ? undefined : Number(values.nodes);
  if (nodes !== undefined && !(Number.isInteger(nodes) && nodes >= 2))
    throw new Error(`--nodes takes a whole number of at least 2, got ${values.nodes}`);
  // The nodes share their sessions, streams and leases only through Redis: the mode needs it.
  if ((nodes !== undefined) !== (values.redis === true))
    throw new Error('--nodes and --redis go together (the multi-node mode runs on Redis)');
  const cutChance = Number(values['cut-chance'] ?? '0.5');
  if (!(cutChance >= 0 && cutChance <= 1)) throw new Error('--cut-chance must be between 0 and 1');
  if (values.only !== undefined && values.only !== 'stdio' && values.only !== 'http')
    throw new Error(`--only takes "stdio" or "http", got ${values.only}`);
  const seconds = values.seconds !== undefined ? Number(values.seconds) : Number(values.minutes ?? '1') * 60;
  if (!(seconds > 0)) throw new Error('--minutes (or --seconds) must be a positive number');
  const durationMs = seconds * 1000;
  return {
    durationMs,
    seed: values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31),
    outDir: resolve(values['out-dir'] ?? join(ROOT, 'bench', 'results')),
    // A sample every 5 s for long runs; short runs sample more often to have a baseline at all.
    sampleMs: Number(values['sample-ms'] ?? (durationMs >= 300_000 ? 5000 : 1000)),
    cutChance,
    nodes,
    redisRestarts: values['no-redis-restart'] === true ? 0 : 1,
    isHelp: values.help === true,
    specs: SPECS.filter((spec) => values.only === undefined || spec.transport === values.only),
  };
}

async function main(): Promise<number> {
  const options = readOptions();
  if (options.isHelp) {
    process.stdout.write(USAGE);
    return 0;
  }
  const random = seeded(options.seed);
  if (options.nodes !== undefined) return runMultiNodeSoak({ ...options, nodes: options.nodes, random });
  const startedAt = new Date();
  const series = createSeries();
  const server = await startHttpServer(options.sampleMs, series);
  const proxy = await startFaultProxy(server.port, { random, cutChance: options.cutChance });
  const ledger = new Ledger({
    explain: (entry) => {
      const explanation = explainTimeout(proxy.log, entry);
      process.stderr.write(
        `soak: ${entry.kind} ${entry.driver} ids ${entry.requestIds?.join() ?? '-'} timed out: ${JSON.stringify(explanation)}\n`,
      );
      return explanation;
    },
  });
  const context: DriverContext = {
    ledger,
    random,
    counters: {
      elicitationsAnswered: 0,
      progressEvents: 0,
      sequencesChecked: 0,
      lives: 0,
      serverKills: 0,
      clientErrors: {},
    },
    httpUrl: `http://127.0.0.1:${proxy.port}/mcp`,
    stdioServer: {
      command: process.execPath,
      args: [...NODE_FLAGS, SERVER_ENTRY, 'stdio', String(options.sampleMs)],
      cwd: ROOT,
    },
    onStdioSample: (sample) => series['stdio-server'].push(sample),
    lifeMs: options.durationMs >= 300_000 ? [10_000, 40_000] : [4_000, 12_000],
    lanes: 3,
    pauseMs: 100,
  };
  series.client.push(sampleSelf());
  const sampler = setInterval(() => series.client.push(sampleSelf()), options.sampleMs);
  const stop = new AbortController();
  const drivers = options.specs.map((spec) => new SoakDriver(spec, context));
  process.stderr.write(
    `soak: ${options.durationMs / 1000} s, seed ${options.seed}, drivers ${drivers.map((d) => d.name).join(', ')}\n`,
  );
  const running = Promise.all(drivers.map((driver) => driver.run(stop.signal)));
  await delay(options.durationMs);
  const stoppedAt = Date.now();
  stop.abort();
  const isDrained = await Promise.race([running.then(() => true), delay(DRAIN_MS).then(() => false)]);
  clearInterval(sampler);
  // Everything this process held for the run is released: the heap should be back near its warm-up.
  await delay(500);
  const afterDrain = sampleSelf();
  series.client.push(afterDrain);
  server.child.kill('SIGTERM');
  await proxy.close();
  const facts: RunFacts = {
    startedAt: startedAt.toISOString(),
    durationMs: options.durationMs,
    stoppedAt,
    seed: options.seed,
    isDrained,
    ledger: ledger.figures(),
    proxy: proxy.counters,
    counters: context.counters,
    series,
    afterDrain,
  };
  const verdict = judgeRun(facts);
  mkdirSync(options.outDir, { recursive: true });
  const stem = join(options.outDir, `soak-${startedAt.toISOString().slice(0, 10)}`);
  const title = `mcpwire soak ${startedAt.toISOString().slice(0, 16)}Z, ${Math.round(options.durationMs / 60_000)} min: ${verdict.figures.requests} requests, ${verdict.figures.faultsInjected} faults`;
  writeFileSync(`${stem}.svg`, renderChart(series, title, options.sampleMs));
  // The series beside the figures, compact: [seconds since start, heap MiB, RSS MiB, pid].
  const start = startedAt.getTime();
  const compact = Object.fromEntries(
    Object.entries(series).map(([role, samples]) => [
      role,
      samples.map((s) => [Math.round((s.t - start) / 1000), mib(s.heapUsed), mib(s.rss), s.pid]),
    ]),
  );
  writeFileSync(`${stem}.json`, `${JSON.stringify({ ...verdict, series: compact }, null, 2)}\n`);
  process.stdout.write(`${verdict.summary}\nchart: ${stem}.svg\nfigures: ${stem}.json\n`);
  if (verdict.reasons.length > 0) process.stderr.write(`soak FAILED:\n  ${verdict.reasons.join('\n  ')}\n`);
  return verdict.reasons.length > 0 ? 1 : 0;
}

const code = await main();
// What still holds the event loop once every client is closed (sockets, timers), for the record;
// the soak does not wait for it.
const active = new Map<string, number>();
for (const kind of process.getActiveResourcesInfo()) active.set(kind, (active.get(kind) ?? 0) + 1);
const activeText = [...active].map(([kind, count]) => `${kind} x${count}`).join(', ');
process.stderr.write(`soak: still active at exit: ${activeText || 'nothing'}\n`);
process.exit(code);

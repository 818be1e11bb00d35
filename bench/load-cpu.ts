// CPU time per request of the load drivers over stdio (issue 26, point 3): `mcpwire load` and the lean
// hand-written driver (bench/load-hand-stdio.ts), each a process of its own against its own
// bench/servers/raw-mcp.mjs, closed loop. A figure that moves far less with the machine's other load
// than requests/s: on 2 cores every microsecond a driver spends per request is taken from the server.
// Each run is long (default 3 s warm-up, 10 s measured); the bench reads /proc/<pid>/stat of the
// driver (all its threads, and its main thread alone) and of its server at two moments inside the
// measured window (1 s after it starts at the latest, 0.5 s before it ends at the earliest, given
// a startup under 1 s) and divides by the window's requests/s times that interval. The drivers run
// interleaved, run after run. Writes nothing.
//   node --import tsx bench/load-cpu.ts
// Env: BENCH_ROUNDS=<n> runs per driver (default 3), BENCH_LOAD_SLICE_MS (default 10000),
// BENCH_LOAD_WARMUP_MS (default 3000), BENCH_LOAD_CONCURRENCY (default 8), BENCH_LOAD_CLI=<another
// build's main.js> (an A/B: its runs interleaved with this build's).
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCpuUs } from './http-driver.ts';
import { runLoadCli } from './load-cli.ts';
import { runHandWrittenInChild, type Slice, type SliceConfig } from './load-hand-written.ts';
import { loadAverageNow, positiveInt } from './machine.ts';
import { formatNumber, formatTable, median } from './stats.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const cli = join(root, 'packages/cli/dist/main.js');
const server = join(root, 'bench/servers/raw-mcp.mjs');
const otherCli = process.env.BENCH_LOAD_CLI;
const rounds = positiveInt('BENCH_ROUNDS', 3);
const config: SliceConfig = {
  sliceMs: positiveInt('BENCH_LOAD_SLICE_MS', 10_000),
  warmupMs: positiveInt('BENCH_LOAD_WARMUP_MS', 3_000),
  concurrency: positiveInt('BENCH_LOAD_CONCURRENCY', 8),
};
/** When the bench reads /proc, after the driver's spawn: inside its window whatever its startup (< 1 s). */
const FIRST_READ_MS = config.warmupMs + 1_000;
const LAST_READ_MS = config.warmupMs + config.sliceMs - 500;
if (LAST_READ_MS - FIRST_READ_MS < 1_000) throw new Error('BENCH_LOAD_SLICE_MS must be at least 2500');

type Driver = 'load' | 'other' | 'hand-written';

/** CPU (us) of the driver (all threads), its main thread, and its server, and the driver's read and write system calls, at one moment. */
interface Reading {
  at: number;
  driver: number;
  main: number;
  server: number;
  reads: number;
  writes: number;
}

/** One run: requests/s of its window, and CPU per request (us) over the bench's reading interval. */
interface Run {
  rps: number;
  driverUs: number;
  mainUs: number;
  serverUs: number;
  /** The driver's read and write system calls per request (/proc/<pid>/io: pipes, and any other). */
  readsPerRequest: number;
  writesPerRequest: number;
}

/** The first child of `pid` (the server a driver started), from /proc. */
function childOf(pid: number): number | undefined {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(' ')[0];
    return first === undefined || first === '' ? undefined : Number(first);
  } catch {
    return undefined;
  }
}

/** The read and write system calls `pid` has made (/proc/<pid>/io syscr, syscw). */
function syscallsOf(pid: number): { reads: number; writes: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return { reads: Number(/^syscr: (\d+)/m.exec(io)![1]), writes: Number(/^syscw: (\d+)/m.exec(io)![1]) };
}

function read(pid: number): Reading {
  const serverPid = childOf(pid);
  return {
    ...syscallsOf(pid),
    at: performance.now(),
    driver: readCpuUs(pid) ?? NaN,
    main: readCpuUs(`${pid}/task/${pid}`) ?? NaN,
    server: serverPid === undefined ? NaN : (readCpuUs(serverPid) ?? NaN),
  };
}

/** Runs `start` and reads the child's CPU at FIRST_READ_MS and LAST_READ_MS after it spawned. */
async function measure(start: (onSpawn: (child: ChildProcess) => void) => Promise<Slice>): Promise<Run> {
  const readings: Reading[] = [];
  const timers: NodeJS.Timeout[] = [];
  const slice = await start((child) => {
    for (const at of [FIRST_READ_MS, LAST_READ_MS])
      timers.push(setTimeout(() => readings.push(read(child.pid!)), at));
  });
  for (const timer of timers) clearTimeout(timer);
  const [first, last] = readings;
  if (first === undefined || last === undefined) throw new Error('the driver ended before the bench read it');
  const rps = slice.requests / (config.sliceMs / 1000);
  const requests = (rps * (last.at - first.at)) / 1000;
  return {
    rps,
    driverUs: (last.driver - first.driver) / requests,
    mainUs: (last.main - first.main) / requests,
    serverUs: (last.server - first.server) / requests,
    readsPerRequest: (last.reads - first.reads) / requests,
    writesPerRequest: (last.writes - first.writes) / requests,
  };
}

function runOnce(driver: Driver): Promise<Run> {
  if (driver === 'hand-written')
    return measure((onSpawn) => runHandWrittenInChild('stdio', config, undefined, onSpawn));
  const build = driver === 'other' ? otherCli! : cli;
  return measure((onSpawn) => runLoadCli(build, { command: [node, server, 'stdio'] }, { config, onSpawn }));
}

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
  const loadAtStart = loadAverageNow();
  const drivers: Driver[] = ['load', ...(otherCli === undefined ? [] : ['other' as const]), 'hand-written'];
  const runs: Record<Driver, Run[]> = { load: [], other: [], 'hand-written': [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? drivers : drivers.toReversed();
    for (const driver of order) {
      const run = await runOnce(driver);
      runs[driver].push(run);
      process.stderr.write(
        `round ${round + 1}/${rounds} ${driver}: ${formatNumber(run.rps)} req/s, driver ${run.driverUs.toFixed(2)} us/request (main thread ${run.mainUs.toFixed(2)}), server ${run.serverUs.toFixed(2)}, reads ${run.readsPerRequest.toFixed(3)} and writes ${run.writesPerRequest.toFixed(3)} per request\n`,
      );
    }
  }
  const range = (values: number[], digits: number): string =>
    `${median(values)!.toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
  console.log(
    `\nCPU per request over stdio, closed loop, ${config.concurrency} in flight, against bench/servers/raw-mcp.mjs; ` +
      `${rounds} interleaved runs per driver, ${config.warmupMs} ms warm-up + ${config.sliceMs} ms measured each; ` +
      `/proc/<pid>/stat read ${FIRST_READ_MS} and ${LAST_READ_MS} ms after spawn; median (min-max)` +
      `\nload average ${loadAtStart.join(' ')} at start, ${loadAverageNow().join(' ')} at end\n`,
  );
  const columns: Array<[string, keyof Run, number]> = [
    ['req/s', 'rps', 0],
    ['driver us/req', 'driverUs', 2],
    ['main thread us/req', 'mainUs', 2],
    ['server us/req', 'serverUs', 2],
    ['reads/req', 'readsPerRequest', 3],
    ['writes/req', 'writesPerRequest', 3],
  ];
  console.log(
    formatTable(
      ['driver', ...columns.map(([title]) => title)],
      drivers.map((driver) => [
        driver === 'other' ? `load (${otherCli})` : driver,
        ...columns.map(([, key, digits]) =>
          range(
            runs[driver].map((run) => run[key]),
            digits,
          ),
        ),
      ]),
    ),
  );
}

await main();

// Instructions per request of `mcpwire load` over stdio and of the lean hand-written driver
// (bench/load-hand-stdio.ts), counted by callgrind: a figure that does not move with the machine's
// load, where requests/s and percentiles do (issue 26, point 3). Each driver runs under
// `valgrind --tool=callgrind`, node `--single-threaded` (no compiler or collector threads), against
// bench/servers/raw-mcp.mjs (not under valgrind), closed loop, 8 in flight, a fixed number of
// requests: twice, FIRST then SECOND requests in all (warm-up included), and the difference of the
// two counts over SECOND - FIRST requests is the figure, so startup and the JIT's first compiles
// fall out. Split into V8's compiler, its collector and the rest (bench/callgrind-parts.ts).
//   node --import tsx bench/load-instructions.ts
// Env: BENCH_LOAD_CLI=<another build's main.js> (an A/B), BENCH_LOAD_REQUESTS=<first,second>
// (default 20000,30000; `load` takes the first half of FIRST as its warm-up).
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callgrindRun } from './callgrind.ts';
import { partsOf, type DumpParts } from './callgrind-parts.ts';
import { ECHO_LOAD_ARGS, runToEnd } from './load-child.ts';
import { bundledScript } from './load-hand-written.ts';
import { loadAverageNow } from './machine.ts';
import { formatNumber, formatTable } from './stats.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = process.execPath;
const server = [node, join(root, 'bench/servers/raw-mcp.mjs'), 'stdio'];
const [first, second] = (process.env.BENCH_LOAD_REQUESTS ?? '20000,30000').split(',').map(Number) as [
  number,
  number,
];
if (!(first > 0 && second > first))
  throw new Error('BENCH_LOAD_REQUESTS must be <first>,<second>, second larger');

/** Runs `args` (after node) under callgrind; resolves with its stdout and its counts. */
async function counted(args: readonly string[]): Promise<{ stdout: string; parts: DumpParts }> {
  const { folder, valgrindArgs } = callgrindRun('mcpwire-load-callgrind-');
  const { code, stdout, stderr } = await runToEnd(
    'valgrind',
    [...valgrindArgs, node, '--single-threaded', ...args],
    {
      cwd: root,
      env: { ...process.env, BENCH_ROOT: root },
    },
  );
  if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${stderr.trim().slice(-500)}`);
  const parts = partsOf(readFileSync(join(folder, 'callgrind.out'), 'utf8'));
  rmSync(folder, { recursive: true, force: true });
  return { stdout, parts };
}

/** One run of `load` (the built main.js `build`): `total` requests, warm-up included. */
async function runLoad(build: string, total: number): Promise<{ requests: number; parts: DumpParts }> {
  const warmup = Math.floor(first / 2);
  const { stdout, parts } = await counted([
    build,
    'load',
    ...ECHO_LOAD_ARGS,
    '--concurrency',
    '8',
    '--warmup',
    String(warmup),
    '--requests',
    String(total - warmup),
    '--json',
    '--',
    ...server,
  ]);
  const { totals } = JSON.parse(stdout) as { totals: { requests: number; warmupRequests: number } };
  return { requests: totals.requests + totals.warmupRequests, parts };
}

/** One run of the lean hand-written driver: `total` requests, all inside its window. */
async function runHand(total: number): Promise<{ requests: number; parts: DumpParts }> {
  const config = { sliceMs: 1e9, warmupMs: 0, concurrency: 8, requests: total };
  const { stdout, parts } = await counted([await bundledScript(), 'stdio', JSON.stringify(config)]);
  return { requests: (JSON.parse(stdout) as { requests: number }).requests, parts };
}

type Run = (total: number) => Promise<{ requests: number; parts: DumpParts }>;
const otherCli = process.env.BENCH_LOAD_CLI;
const drivers: Array<[string, Run]> = [
  ['load (this build)', (total) => runLoad(join(root, 'packages/cli/dist/main.js'), total)],
  ['hand-written (lean)', runHand],
];
if (otherCli !== undefined) drivers.splice(1, 0, [`load (${otherCli})`, (total) => runLoad(otherCli, total)]);

const loadAtStart = loadAverageNow();
const rows: string[][] = [];
for (const [name, run] of drivers) {
  const [a, b] = [await run(first), await run(second)];
  const per = (part: keyof DumpParts): string =>
    formatNumber(Math.round((b.parts[part] - a.parts[part]) / (b.requests - a.requests)));
  rows.push([name, per('total'), per('work'), per('collect'), per('compile')]);
  console.log(`${name}: ${JSON.stringify({ a, b })}`);
}
console.log(
  `\ninstructions per request over stdio (callgrind, node --single-threaded), requests ${first} to ${second}; load average ${loadAtStart.join(' ')} at start, ${loadAverageNow().join(' ')} at end\n`,
);
console.log(formatTable(['driver', 'total', 'work', 'collector', 'compiler'], rows));

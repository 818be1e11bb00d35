// Instructions per sequential HTTP `tools/call echo` spent by the server process, counted by valgrind's
// callgrind (the client runs outside it): a 2026-07-28 request (no session, the `_meta` envelope and the
// routing headers) and an established 2025-11-25 session's POST, the two HTTP paths of issue 23, point 4.
// Like bench/instructions.ts (stdio), the count does not move with the machine's load, so builds compare
// on a busy machine. After the opening and `BENCH_WARMUP` calls the counters are zeroed, `BENCH_CALLS`
// calls go out one at a time on one keep-alive connection, and the counters are dumped.
//   node --import tsx bench/http-instructions.ts [mcpwire|hand-written|before=<built checkout>]...
// `hand-written` is bench/servers/raw-mcp.mjs http (node:http, one JSON.parse and one JSON.stringify).
// Each count is printed whole and in parts (bench/callgrind-parts.ts): `work`, what serving the calls
// took, is the figure to compare; `compile` (V8's JIT) and `collect` (its collector) depend on wall
// time under valgrind, which the machine's load sets, so the whole count swings by a quarter between
// runs of one build. The server runs `node --single-threaded` (the JIT and the collector on the main
// thread, none of it in helper threads) with `--no-memory-reducer` (no full collection on a timer,
// which valgrind's slowness set off inside the window: it clears inline caches and flushes code, and
// moved `work` by up to a tenth), `--no-flush-bytecode` (no code flushed for age) and
// `--max-semi-space-size=64` (fewer scavenges): two runs of one build then agree on `work` within 1 %.
// Env: BENCH_CALLS (default 2000), BENCH_WARMUP (default 6000), BENCH_ROUNDS (1; more prints each
// server's medians too), BENCH_PATH (stateless or session: one path only), BENCH_SERVER (what
// `mcpwire serve` serves, as in bench/instructions.ts), BENCH_NODE_FLAGS (the server's node flags,
// default the four above), BENCH_KEEP_DUMPS (a folder to keep each dump in, for callgrind_annotate).
import { cpSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { callgrindControl, callgrindRun } from './callgrind.ts';
import { type DumpParts, readDumpParts } from './callgrind-parts.ts';
import {
  type HttpWorkload,
  HttpServerProcess,
  RawHttpConnection,
  killAllHttpChildren,
} from './http-driver.ts';
import { stateful, stateless } from './http-workloads.ts';
import { loadAverageNow } from './machine.ts';

const root = join(import.meta.dirname, '..');
const calls = Number(process.env.BENCH_CALLS ?? 2000);
const warmup = Number(process.env.BENCH_WARMUP ?? 6000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const onlyPath = process.env.BENCH_PATH;
const served = process.env.BENCH_SERVER ?? 'everything';
const keepDumpsIn = process.env.BENCH_KEEP_DUMPS;
const STEADY_FLAGS = '--single-threaded --no-memory-reducer --no-flush-bytecode --max-semi-space-size=64';
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? STEADY_FLAGS).split(' ').filter((f) => f !== '');

const paths: readonly { key: string; workload: HttpWorkload }[] = [
  { key: 'stateless', workload: stateless },
  { key: 'session', workload: stateful },
];

/** A server under test: its label, the arguments to `node` ({port}: its port), and whether it prints its URL. */
interface Target {
  name: string;
  args: string[];
  isQuiet: boolean;
}

function mcpwireAt(name: string, folder: string): Target {
  const what = served === 'everything' || served === 'github' ? served : join(folder, served);
  const main = join(folder, 'packages/cli/dist/main.js');
  return { name, args: [main, 'serve', what, '--http', '{port}'], isQuiet: true };
}

function toTarget(spec: string): Target {
  if (spec === 'mcpwire') return mcpwireAt(spec, root);
  if (spec === 'hand-written')
    return { name: spec, args: [join(root, 'bench/servers/raw-mcp.mjs'), 'http', '{port}'], isQuiet: false };
  if (spec.startsWith('before=')) return mcpwireAt(spec, resolve(spec.slice('before='.length)));
  throw new Error(`unknown server ${spec}: mcpwire, hand-written or before=<folder of a built checkout>`);
}

async function drive(
  connection: RawHttpConnection,
  workload: HttpWorkload,
  headers: Record<string, string>,
  range: { from: number; count: number },
): Promise<void> {
  for (let i = range.from; i < range.from + range.count; i++) {
    const problem = await workload.call(connection, headers, i);
    if (problem !== undefined) throw new Error(`call ${i}: ${problem}`);
  }
}

/** The server's instructions per call over the timed calls only, by part. */
async function measure(target: Target, workload: HttpWorkload): Promise<DumpParts> {
  const { folder, valgrindArgs } = callgrindRun('mcpwire-http-callgrind-');
  const server = await HttpServerProcess.start(
    {
      name: target.name,
      command: 'valgrind',
      args: [...valgrindArgs, process.execPath, ...nodeFlags, ...target.args],
      cwd: root,
      isQuiet: target.isQuiet,
    },
    900_000,
  );
  const connection = new RawHttpConnection(new URL(server.url), 600_000);
  try {
    const headers = await workload.setup(connection);
    await drive(connection, workload, headers, { from: 1, count: warmup });
    callgrindControl('-z', server.pid);
    await drive(connection, workload, headers, { from: 1 + warmup, count: calls });
    callgrindControl('-d', server.pid);
    if (keepDumpsIn !== undefined) {
      const name = `${workload.name}-${target.name}-${Date.now()}`.replace(/[^\w.-]+/g, '_');
      cpSync(folder, join(keepDumpsIn, name), { recursive: true });
    }
    const parts = readDumpParts(folder);
    return {
      total: parts.total / calls,
      compile: parts.compile / calls,
      collect: parts.collect / calls,
      work: parts.work / calls,
    };
  } finally {
    connection.close();
    await server.close(10_000);
    rmSync(folder, { recursive: true, force: true });
  }
}

const targets = (process.argv.length > 2 ? process.argv.slice(2) : ['mcpwire', 'hand-written']).map(toTarget);
console.log(
  `instructions per sequential HTTP tools/call (callgrind, server process only, node ${nodeFlags.join(' ')}), ${calls} calls after ${warmup} warm-up, serving ${served}, load ${loadAverageNow()}`,
);
console.log('path\tserver\ttotal\twork\tcompile\tcollect');
const median = (values: number[]): number =>
  values.sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;
const row = (cells: (string | number)[]): string =>
  cells.map((cell) => (typeof cell === 'number' ? Math.round(cell) : cell)).join('\t');
try {
  for (const { key, workload } of paths.filter((p) => onlyPath === undefined || p.key === onlyPath)) {
    const seen = new Map<string, DumpParts[]>(targets.map((target) => [target.name, []]));
    for (let round = 0; round < rounds; round++)
      for (const target of targets) {
        const parts = await measure(target, workload);
        seen.get(target.name)!.push(parts);
        console.log(row([key, target.name, parts.total, parts.work, parts.compile, parts.collect]));
      }
    if (rounds > 1)
      for (const [name, all] of seen) {
        const of = (part: keyof DumpParts) => median(all.map((parts) => parts[part]));
        console.log(row([key, `${name} (median)`, of('total'), of('work'), of('compile'), of('collect')]));
      }
  }
} finally {
  killAllHttpChildren();
}

// Instructions per pipelined stdio `tools/call echo`, counted by valgrind's callgrind: unlike CPU seconds,
// the count does not move with the machine's load, so an A/B of two builds reads the same on a busy machine.
// Each server runs under `valgrind --tool=callgrind`; after the opening and `BENCH_WARMUP` calls the counters
// are zeroed (`callgrind_control -z`), `BENCH_CALLS` calls go out in batches of `BENCH_BATCH` lines (one
// write, then every answer awaited: the same chunks every run), and the counters are dumped (`-d`).
//   node --import tsx bench/instructions.ts [mcpwire|hand-written|before=<built checkout>|<built main.js>]...
// Env: BENCH_CALLS (default 4000), BENCH_WARMUP (default 10000), BENCH_BATCH (default 32), BENCH_ROUNDS (1),
// BENCH_ERA (handshake or stateless: one workload only), BENCH_SERVER (what `mcpwire serve` serves:
// `everything` by default, or a module path relative to each checkout, e.g. bench/servers/mcpwire-echo.mjs),
// BENCH_KEEP_DUMPS (set: keep each dump's folder and print its path), BENCH_NODE_ARGS (flags for each measured node, space-separated, e.g. `--single-threaded`: no compiler or
// collector threads whose work depends on timing under valgrind, so two runs of one build read closer).
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callgrindControl, callgrindRun } from './callgrind.ts';
import { type DumpParts, readDumpParts } from './callgrind-parts.ts';
import type { RawResponse, Workload } from './raw-driver.ts';
import { loadAverageNow } from './machine.ts';
import { workloads } from './workloads.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const calls = Number(process.env.BENCH_CALLS ?? 4000);
const warmup = Number(process.env.BENCH_WARMUP ?? 10000);
const batch = Number(process.env.BENCH_BATCH ?? 32);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const era = process.env.BENCH_ERA as Workload['era'] | undefined;
const served = process.env.BENCH_SERVER ?? 'everything';
const keepDumps = process.env.BENCH_KEEP_DUMPS !== undefined;
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((flag) => flag !== '');

/** The `serve` argument for a checkout at `folder`: the built-in name, or the module path under it. */
function servedFrom(folder: string): string {
  return served === 'everything' || served === 'github' ? served : join(folder, served);
}

/** A server under test: its label and the arguments to `node` that start it on stdio. */
interface Target {
  name: string;
  args: readonly string[];
}

/** `mcpwire` (this checkout's build), `hand-written` (raw-mcp.mjs) or `before=<folder>` (a built checkout). */
function toTarget(spec: string): Target {
  if (spec === 'mcpwire')
    return { name: spec, args: [join(root, 'packages/cli/dist/main.js'), 'serve', servedFrom(root)] };
  if (spec === 'hand-written')
    return { name: spec, args: [join(root, 'bench/servers/raw-mcp.mjs'), 'stdio'] };
  if (spec.startsWith('before=')) {
    const folder = resolve(spec.slice('before='.length));
    return {
      name: `before (${folder})`,
      args: [join(folder, 'packages/cli/dist/main.js'), 'serve', servedFrom(folder)],
    };
  }
  // Any other build of the command, e.g. a copy of packages/cli/dist kept beside it for an A/B.
  if (spec.endsWith('.js')) return { name: spec, args: [resolve(spec), 'serve', servedFrom(root)] };
  throw new Error(
    `unknown server ${spec}: mcpwire, hand-written, before=<folder> or <path of a built main.js>`,
  );
}

/** One server process under callgrind and the NDJSON lines it answers with. */
class Connection {
  readonly child: ChildProcess;
  #buffer = '';
  #waiting: { count: number; received: RawResponse[]; resolve: (r: RawResponse[]) => void } | undefined;

  constructor(target: Target, valgrindArgs: readonly string[]) {
    this.child = spawn('valgrind', [...valgrindArgs, process.execPath, ...nodeArgs, ...target.args], {
      stdio: ['pipe', 'pipe', 'ignore'],
      cwd: root,
    });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => this.#onChunk(chunk));
  }

  #onChunk(chunk: string): void {
    this.#buffer += chunk;
    let end = this.#buffer.indexOf('\n');
    while (end !== -1) {
      const line = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 1);
      const message = JSON.parse(line) as RawResponse & { method?: string };
      const waiting = this.#waiting;
      if (message.method === undefined && waiting !== undefined) {
        waiting.received.push(message);
        if (waiting.received.length === waiting.count) {
          this.#waiting = undefined;
          waiting.resolve(waiting.received);
        }
      }
      end = this.#buffer.indexOf('\n');
    }
  }

  /** Writes `lines` at once and resolves to the next `count` responses (notifications are skipped). */
  exchange(lines: string, count: number): Promise<RawResponse[]> {
    return new Promise((resolve) => {
      this.#waiting = { count, received: [], resolve };
      if (lines !== '') this.child.stdin!.write(lines);
    });
  }
}

function line(id: number, message: { method: string; params?: unknown }): string {
  return JSON.stringify({ jsonrpc: '2.0', id, ...message }) + '\n';
}

/** Sends `count` calls from id `firstId` in batches; throws on the first wrong answer. */
async function drive(
  connection: Connection,
  workload: Workload,
  firstId: number,
  count: number,
): Promise<void> {
  for (let start = firstId; start < firstId + count; start += batch) {
    const size = Math.min(batch, firstId + count - start);
    let text = '';
    for (let id = start; id < start + size; id++) text += line(id, workload.makeRequest(id));
    const responses = await connection.exchange(text, size);
    for (const response of responses) {
      const id = response.id as number;
      const problem =
        response.error !== undefined ? JSON.stringify(response.error) : workload.check(response, id);
      if (problem !== undefined) throw new Error(`id ${id}: ${problem}`);
    }
  }
}

/** Opens the connection the way the workload's client does (initialize, or its opening request). */
async function open(connection: Connection, workload: Workload): Promise<void> {
  if (workload.handshake === true) {
    const params = {
      protocolVersion: workload.protocolVersion,
      capabilities: {},
      clientInfo: { name: 'mcpwire-bench', version: '0.0.0' },
    };
    await connection.exchange(line(0, { method: 'initialize', params }), 1);
    connection.child.stdin!.write(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n',
    );
  } else {
    await connection.exchange(line(0, workload.open?.request ?? workload.makeRequest(0)), 1);
  }
}

/** The instructions of one server for one workload, over the timed calls only, whole and in parts. */
async function measure(target: Target, workload: Workload): Promise<DumpParts> {
  const { folder, valgrindArgs } = callgrindRun('mcpwire-callgrind-');
  const connection = new Connection(target, valgrindArgs);
  try {
    const pid = connection.child.pid!;
    await open(connection, workload);
    await drive(connection, workload, 1, warmup);
    callgrindControl('-z', pid);
    await drive(connection, workload, 1 + warmup, calls);
    callgrindControl('-d', pid);
    return readDumpParts(folder);
  } finally {
    connection.child.kill('SIGKILL');
    // BENCH_KEEP_DUMPS keeps the dump for `callgrind_annotate` (per-function self cost).
    if (keepDumps) console.log(`dump kept in ${folder}`);
    else rmSync(folder, { recursive: true, force: true });
  }
}

const targets = (process.argv.length > 2 ? process.argv.slice(2) : ['mcpwire', 'hand-written']).map(toTarget);
console.log(
  `instructions per pipelined tools/call (callgrind), ${calls} calls after ${warmup} warm-up, batches of ${batch}, serving ${served}, node ${nodeArgs.join(' ') || '(no flags)'}, load ${loadAverageNow()}`,
);
for (const workload of workloads.filter((w) => era === undefined || w.era === era)) {
  for (let round = 0; round < rounds; round++) {
    for (const target of targets) {
      const parts = await measure(target, workload);
      const perCall = (count: number): number => Math.round(count / calls);
      // `work` leaves out V8's compiler and collector, whose share in the window depends on timing.
      console.log(
        `${workload.name}\t${target.name}\t${perCall(parts.total)}\twork ${perCall(parts.work)}\tcompile ${perCall(parts.compile)}\tcollect ${perCall(parts.collect)}`,
      );
    }
  }
}

// Load-independent counts for `bridge <url>` with a pipelining host (issue 25, point 5): per
// `tools/call echo`, the bridge process's write system calls (/proc/<pid>/io `syscw`: stdout and
// the sockets toward the remote) and, under callgrind, its instructions. The host writes
// BENCH_BATCH calls in one write and waits for all their answers, again and again.
//   node --import tsx bench/bridge-url-counts.ts [this|before=<built checkout>]...
// CPU per call (/proc/<pid>/stat) is printed too, but moves with the machine's load.
// Env: BENCH_CALLS (default 2000), BENCH_WARMUP (default 2000), BENCH_BATCH (16), BENCH_VALGRIND=0 (syscalls only).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { HttpServerProcess, killAllHttpChildren, readCpuUs } from './http-driver.ts';
import { loadAverageNow } from './machine.ts';

const root = join(import.meta.dirname, '..');
const calls = Number(process.env.BENCH_CALLS ?? 2000);
const warmup = Number(process.env.BENCH_WARMUP ?? 2000);
const batch = Number(process.env.BENCH_BATCH ?? 16);
const isValgrind = process.env.BENCH_VALGRIND !== '0';

/** The bridge on pipes, and a way to await the next `count` responses. */
class Host {
  readonly child: ChildProcess;
  #buffer = '';
  #waiting: { count: number; resolve: () => void } | undefined;
  /** The first error answer, if any (a wrong answer fails the measurement). */
  error: string | undefined;

  constructor(command: string, args: readonly string[]) {
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], cwd: root });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      this.#buffer += chunk;
      let end = this.#buffer.indexOf('\n');
      while (end !== -1) {
        const message = JSON.parse(this.#buffer.slice(0, end)) as { id?: unknown; error?: unknown };
        this.#buffer = this.#buffer.slice(end + 1);
        if (message.error !== undefined) this.error ??= JSON.stringify(message);
        const waiting = this.#waiting;
        if (message.id !== undefined && waiting !== undefined && --waiting.count === 0) {
          this.#waiting = undefined;
          waiting.resolve();
        }
        end = this.#buffer.indexOf('\n');
      }
    });
  }

  exchange(lines: string, count: number): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting = { count, resolve };
      this.child.stdin!.write(lines);
    });
  }
}

const line = (id: number, method: string, params: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';

async function drive(host: Host, from: number, count: number): Promise<void> {
  for (let start = from; start < from + count; start += batch) {
    let text = '';
    const size = Math.min(batch, from + count - start);
    for (let id = start; id < start + size; id++)
      text += line(id, 'tools/call', { name: 'echo', arguments: { message: `hello ${id}` } });
    await host.exchange(text, size);
  }
}

function syscw(pid: number): number {
  return Number(/^syscw: (\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))![1]);
}

/** Write syscalls and (under valgrind) instructions per call of one build's bridge. */
async function measure(folder: string, url: string, underValgrind: boolean) {
  const out = mkdtempSync(join(tmpdir(), 'mcpwire-bridge-url-'));
  const main = join(folder, 'packages/cli/dist/main.js');
  const args = [main, 'bridge', url, '--no-auth'];
  const host = underValgrind
    ? new Host('valgrind', [
        '--tool=callgrind',
        `--callgrind-out-file=${join(out, 'callgrind.out')}`,
        '--dump-instr=no',
        '--dump-line=no',
        process.execPath,
        ...args,
      ])
    : new Host(process.execPath, args);
  try {
    const pid = host.child.pid!;
    const clientInfo = { name: 'bench', version: '0' };
    await host.exchange(
      line(0, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo }),
      1,
    );
    host.child.stdin!.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    // The bridge POSTs each message on its own: a call may overtake notifications/initialized.
    for (let id = -1; ; id--) {
      host.error = undefined;
      await host.exchange(line(id, 'tools/list', {}), 1);
      if (host.error === undefined) break;
    }
    await drive(host, 1, warmup);
    if (underValgrind) execFileSync('callgrind_control', ['-z', String(pid)], { stdio: 'ignore' });
    const writesBefore = syscw(pid);
    const cpuBefore = readCpuUs(pid) ?? Number.NaN;
    await drive(host, 1 + warmup, calls);
    const writes = (syscw(pid) - writesBefore) / calls;
    const cpu = ((readCpuUs(pid) ?? Number.NaN) - cpuBefore) / calls;
    if (host.error !== undefined) throw new Error(`an error answer: ${host.error}`);
    if (!underValgrind) return { writes, cpu, instructions: Number.NaN };
    execFileSync('callgrind_control', ['-d', String(pid)], { stdio: 'ignore' });
    const dump = readdirSync(out).find((name) => name.startsWith('callgrind.out.'));
    const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(out, dump!), 'utf8'));
    return { writes, cpu, instructions: Number(totals![1]) / calls };
  } finally {
    host.child.kill('SIGKILL');
    rmSync(out, { recursive: true, force: true });
  }
}

const specs = process.argv.length > 2 ? process.argv.slice(2) : ['this'];
const folders = specs.map((spec) =>
  spec === 'this' ? root : spec.startsWith('before=') ? resolve(spec.slice(7)) : spec,
);
console.log(
  `bridge <url>, ${batch} calls per host write: write syscalls and instructions per call of the bridge, ${calls} calls after ${warmup}, load ${loadAverageNow()}`,
);
const server = await HttpServerProcess.start({
  name: 'serve everything --http',
  command: process.execPath,
  args: [join(root, 'packages/cli/dist/main.js'), 'serve', 'everything', '--http', '{port}'],
  cwd: root,
});
try {
  for (const [i, folder] of folders.entries()) {
    const native = await measure(folder, server.url, false);
    const counted = isValgrind ? await measure(folder, server.url, true) : native;
    console.log(
      `${specs[i]}\twrites/call ${native.writes.toFixed(2)} (under valgrind ${counted.writes.toFixed(2)})\tCPU us/call ${native.cpu.toFixed(1)} (noisy)\tinstructions/call ${Math.round(counted.instructions)}`,
    );
  }
} finally {
  await server.close();
  killAllHttpChildren();
}

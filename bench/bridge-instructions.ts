// Instructions per sequential `tools/call echo` spent by the `bridge --http` process itself, counted by
// valgrind's callgrind (the child runs natively: valgrind does not follow it). Unlike CPU seconds, the
// count does not move with the machine's load, so two builds compare on a busy machine (issue 25, point 5).
//   node --import tsx bench/bridge-instructions.ts [this|before=<built checkout>|hand-written]... [-- <bridge options>]
// `hand-written` is bench/servers/raw-bridge.mjs: the floor of a relay (no checks, no SSE, no validation).
// Env: BENCH_CALLS (default 1000), BENCH_WARMUP (default 2000), BENCH_ROUNDS (1).
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { callEcho, openSession } from './bridge-drivers.ts';
import { callgrindControl, callgrindRun, readDumpTotal } from './callgrind.ts';
import { HttpServerProcess, killAllHttpChildren } from './http-driver.ts';
import { loadAverageNow } from './machine.ts';
import { RawHttpConnection } from './raw-http.ts';

const root = join(import.meta.dirname, '..');
const calls = Number(process.env.BENCH_CALLS ?? 1000);
const warmup = Number(process.env.BENCH_WARMUP ?? 2000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);

/** A bridge under test: its label and the arguments to `node` before `-- <child>` ({port}: its port). */
interface Target {
  name: string;
  args(bridgeOptions: readonly string[]): string[];
}

const serveEverything = [process.execPath, join(root, 'packages/cli/dist/main.js'), 'serve', 'everything'];

function toTarget(spec: string): Target {
  const build = (folder: string) => (bridgeOptions: readonly string[]) => [
    join(folder, 'packages/cli/dist/main.js'),
    ...['bridge', '--http', '{port}', ...bridgeOptions],
  ];
  if (spec === 'this') return { name: 'this', args: build(root) };
  if (spec.startsWith('before=')) return { name: spec, args: build(resolve(spec.slice('before='.length))) };
  if (spec === 'hand-written')
    return { name: spec, args: () => [join(root, 'bench/servers/raw-bridge.mjs'), '{port}'] };
  throw new Error(`unknown bridge ${spec}: this, before=<folder of a built checkout> or hand-written`);
}

async function drive(
  connection: RawHttpConnection,
  headers: Record<string, string>,
  from: number,
  count: number,
) {
  for (let i = from; i < from + count; i++) {
    const problem = await callEcho(connection, headers, i);
    if (problem !== undefined) throw new Error(`call ${i}: ${problem}`);
  }
}

/** The bridge's instructions per call over the timed calls only. */
async function measure(target: Target, bridgeOptions: readonly string[]): Promise<number> {
  const { folder, valgrindArgs } = callgrindRun('mcpwire-bridge-callgrind-');
  const args = [...valgrindArgs, process.execPath, ...target.args(bridgeOptions)];
  const bridge = await HttpServerProcess.start(
    {
      name: `bridge (${target.name})`,
      command: 'valgrind',
      args: [...args, '--', ...serveEverything],
      cwd: root,
    },
    300_000,
  );
  const connection = new RawHttpConnection(new URL(bridge.url));
  try {
    const pid = bridge.child.pid!;
    const headers = await openSession(connection);
    await drive(connection, headers, 1, warmup);
    callgrindControl('-z', pid);
    await drive(connection, headers, 1 + warmup, calls);
    callgrindControl('-d', pid);
    return readDumpTotal(folder) / calls;
  } finally {
    connection.close();
    await bridge.close(10_000);
    rmSync(folder, { recursive: true, force: true });
  }
}

const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const specs = dashes === -1 ? argv : argv.slice(0, dashes);
const bridgeOptions = dashes === -1 ? [] : argv.slice(dashes + 1);
const targets = (specs.length > 0 ? specs : ['this']).map(toTarget);
console.log(
  `bridge --http ${bridgeOptions.join(' ')}: its instructions per sequential tools/call (callgrind), ${calls} calls after ${warmup} warm-up, load ${loadAverageNow()}`,
);
try {
  for (let round = 0; round < rounds; round++)
    for (const target of targets)
      console.log(`${target.name}\t${Math.round(await measure(target, bridgeOptions))}`);
} finally {
  killAllHttpChildren();
}

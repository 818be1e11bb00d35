// What `mcpwire load` allocates and promotes per request over stdio and Streamable HTTP, a figure
// that moves far less with the machine's other load than requests/s: the built CLI run under
// `node --trace-gc-nvp` against bench/servers/raw-mcp.mjs (over HTTP: one server per measurement,
// `--connections 8`, the handshake era with sessions), its scavenges' figures summed and divided by
// the requests. Env: BENCH_ROUNDS=<n> (default 3), BENCH_LOAD_TRANSPORTS=stdio|http|stdio,http
// (default both), BENCH_LOAD_CLI=<another build's main.js> (an A/B: run in turn with this build's, in
// the same rounds). Writes nothing.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpServerProcess, killAllHttpChildren } from './http-driver.ts';
import { ECHO_LOAD_ARGS } from './load-child.ts';
import { formatTable, median } from './stats.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages/cli/dist/main.js');
const server = join(root, 'bench/servers/raw-mcp.mjs');
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const builds = [cli, ...(process.env.BENCH_LOAD_CLI === undefined ? [] : [process.env.BENCH_LOAD_CLI])];
type Transport = 'stdio' | 'http';
const transports = (process.env.BENCH_LOAD_TRANSPORTS ?? 'stdio,http').split(',') as Transport[];
if (transports.some((transport) => transport !== 'stdio' && transport !== 'http'))
  throw new Error('BENCH_LOAD_TRANSPORTS must list stdio and/or http');

/** One run's figures, per request (warm-up included): bytes, and collections per 10,000 requests. */
interface GcFigures {
  requests: number;
  allocated: number;
  promoted: number;
  oldOutright: number;
  scavenges: number;
  markCompacts: number;
}

async function measure(build: string, transport: Transport): Promise<GcFigures> {
  const http =
    transport === 'http'
      ? await HttpServerProcess.start({
          name: 'raw-mcp',
          command: process.execPath,
          args: [server, 'http', '0'],
          cwd: root,
        })
      : undefined;
  try {
    return await measureWith(build, http);
  } finally {
    await http?.close();
  }
}

async function measureWith(build: string, http: HttpServerProcess | undefined): Promise<GcFigures> {
  const args = [
    '--trace-gc-nvp',
    build,
    'load',
    ...(http === undefined ? [] : [http.url, '--connections', '8']),
    ...ECHO_LOAD_ARGS,
    '--concurrency',
    '8',
    '--duration',
    '4s',
    '--warmup',
    '1000ms',
    '--json',
    ...(http === undefined ? ['--', process.execPath, server, 'stdio'] : []),
  ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`mcpwire load exited ${code}: ${output.slice(-500)}`);
  // --trace-gc-nvp lines and the --json report share stdout: the report is the one JSON object.
  const report = JSON.parse(output.slice(output.search(/^\{/m), output.lastIndexOf('}') + 1)) as {
    totals: { requests: number; warmupRequests: number };
  };
  const collections = output
    .split('\n')
    .filter((line) => line.includes(' gc='))
    .map((line) => new Map(line.split(' ').map((pair) => pair.split('=') as [string, string])));
  const field = (gc: Map<string, string>, name: string): number => Number(gc.get(name) ?? NaN);
  let allocated = 0;
  let promoted = 0;
  let oldOutright = 0;
  collections.forEach((gc, index) => {
    allocated += field(gc, 'allocated');
    if (gc.get('gc') !== 's') return;
    promoted += field(gc, 'promoted');
    const before = collections[index - 1];
    if (before?.get('gc') !== 's') return;
    // The old space's growth between two scavenges, less what the second promoted.
    const old = (gc: Map<string, string>): number =>
      field(gc, 'total_size_after') - field(gc, 'new_space_survived');
    oldOutright += old(gc) - old(before) - field(gc, 'promoted');
  });
  const requests = report.totals.requests + report.totals.warmupRequests;
  return {
    requests,
    allocated: allocated / requests,
    promoted: promoted / requests,
    oldOutright: oldOutright / requests,
    scavenges: (collections.filter((gc) => gc.get('gc') === 's').length / requests) * 1e4,
    markCompacts: (collections.filter((gc) => gc.get('gc') !== 's').length / requests) * 1e4,
  };
}

if (!existsSync(cli)) throw new Error(`${cli} is missing: run npm run build first`);
const loadAtStart = os.loadavg();
const keyOf = (build: string, transport: Transport): string => `${transport} ${build}`;
const results = new Map<string, GcFigures[]>(
  transports.flatMap((transport) => builds.map((build) => [keyOf(build, transport), []])),
);
try {
  for (let round = 0; round < rounds; round++)
    for (const transport of transports)
      for (const build of round % 2 === 0 ? builds : builds.toReversed()) {
        const figures = await measure(build, transport);
        results.get(keyOf(build, transport))!.push(figures);
        process.stderr.write(
          `round ${round + 1}/${rounds} ${transport} ${build}: ${JSON.stringify(figures)}\n`,
        );
      }
} catch (error) {
  killAllHttpChildren();
  throw error;
}
console.log(
  `\nmcpwire load under --trace-gc-nvp, per request (warm-up included), median of ${rounds} rounds` +
    `\nload average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at end (${os.cpus().length} cores)\n`,
);
const of = (key: string, field: keyof GcFigures): number =>
  median(results.get(key)!.map((figures) => figures[field]))!;
console.log(
  formatTable(
    [
      'transport',
      'build',
      'allocated B',
      'promoted B',
      'old outright B',
      'scavenges /10k',
      'mark-compacts /10k',
    ],
    transports.flatMap((transport) =>
      builds.map((build) => {
        const key = keyOf(build, transport);
        return [
          transport,
          build === cli ? 'this build' : build,
          of(key, 'allocated').toFixed(0),
          of(key, 'promoted').toFixed(1),
          of(key, 'oldOutright').toFixed(1),
          of(key, 'scavenges').toFixed(2),
          of(key, 'markCompacts').toFixed(3),
        ];
      }),
    ),
  ),
);

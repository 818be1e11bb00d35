// The one-shot CLI benchmark of `npm run bench`: the wall time of listing a stdio server's tools and of
// calling one tool, start to exit, for `mcpwire`, the official Inspector v2 CLI, `@wong2/mcp-cli` and a
// hand-written baseline client, all against the same server (mcpwire's everything server, built), in
// interleaved rounds; the CLI's own start-up (`--version`) beside `node -e 0`; and the size of the
// CLI's bundle. Prints a table and writes bench/results/cli-latest.json.
// Env: BENCH_ROUNDS=<n> (default 10, quick 3), BENCH_QUICK=1.
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { peerPackageDir } from '../test/support/peers.ts';
import { formatNumber, formatRatio, formatTable, median } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(import.meta.dirname, '..');
const node = process.execPath;
const node22 = join(root, 'test/conformance/node_modules/.bin/node');
const inspector = join(
  root,
  'test/conformance/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const mcpCli = join(peerPackageDir('@wong2/mcp-cli'), 'src/cli.js');
const mcpwire = join(root, 'packages/cli/dist/main.js');
const server = [node, mcpwire, 'serve', 'everything'];

const isQuick = process.env.BENCH_QUICK === '1';
const rounds = Number(process.env.BENCH_ROUNDS ?? (isQuick ? 3 : 10));
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`BENCH_ROUNDS: expected a positive integer`);

/** One client's way of doing a task: argv, and what its stdout must contain to count as done. */
interface Run {
  client: string;
  argv: readonly string[] | undefined;
  /** Why there is no such run (the client has no one-shot form of the task). */
  missing?: string;
}

interface Task {
  name: string;
  expect: RegExp;
  runs: Run[];
}

const work = mkdtempSync(join(tmpdir(), 'mcpwire-bench-cli-'));
const mcpCliConfig = join(work, 'mcp-cli.json');
writeFileSync(
  mcpCliConfig,
  JSON.stringify({ mcpServers: { everything: { command: server[0], args: server.slice(1) } } }),
);

const tasks: Task[] = [
  {
    name: 'list tools',
    expect: /"echo"/,
    runs: [
      { client: 'mcpwire', argv: [node, mcpwire, 'list', 'tools', '--json', '--', ...server] },
      {
        client: 'inspector-cli',
        argv: [node22, inspector, '--cli', '--method', 'tools/list', '--', ...server],
      },
      { client: 'mcp-cli', argv: undefined, missing: 'no one-shot listing (interactive only)' },
      { client: 'baseline', argv: [node, 'bench/servers/raw-list-client.mjs', ...server] },
    ],
  },
  {
    name: 'call echo',
    expect: /hi/,
    runs: [
      { client: 'mcpwire', argv: [node, mcpwire, 'call', 'echo', 'message=hi', '--json', '--', ...server] },
      {
        client: 'inspector-cli',
        argv: [
          node22,
          inspector,
          '--cli',
          '--method',
          'tools/call',
          '--tool-name',
          'echo',
          '--tool-arg',
          'message=hi',
          '--',
          ...server,
        ],
      },
      {
        client: 'mcp-cli',
        argv: [
          node,
          mcpCli,
          '--config',
          mcpCliConfig,
          'call-tool',
          'everything:echo',
          '--args',
          '{"message":"hi"}',
        ],
      },
      { client: 'baseline', argv: [node, 'bench/servers/raw-list-client.mjs', '--call', ...server] },
    ],
  },
  {
    name: 'start-up (--version)',
    expect: /\d+\.\d+/,
    runs: [
      { client: 'mcpwire', argv: [node, mcpwire, '--version'] },
      { client: 'inspector-cli', argv: [node22, inspector, '--version'] },
      { client: 'mcp-cli', argv: undefined, missing: 'no --version' },
      { client: 'baseline', argv: [node, '-e', 'console.log(process.version)'] },
    ],
  },
];

/** Runs argv to its end; its wall time in ms, or the reason it did not do the task. */
function time(argv: readonly string[], expect: RegExp): number | string {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0]!, argv.slice(1), {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', NO_COLOR: '1' },
    timeout: 60_000,
    input: '',
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) return `exit ${result.status}: ${(result.stderr || result.stdout).slice(0, 200)}`;
  if (!expect.test(result.stdout)) return `unexpected output: ${result.stdout.slice(0, 200)}`;
  return ms;
}

function available(run: Run): string | undefined {
  if (!run.argv) return run.missing;
  if (run.client === 'inspector-cli' && !(existsSync(node22) && existsSync(inspector)))
    return 'not installed (npm ci --prefix test/conformance)';
  if (run.client === 'mcp-cli' && !existsSync(mcpCli)) return 'not installed (node scripts/ensure-peers.mjs)';
  return undefined;
}

function bundleSize(): { files: number; bytes: number; gzipBytes: number } {
  const dir = join(root, 'packages/cli/dist');
  const files = readdirSync(dir).filter((name) => name.endsWith('.js'));
  const bytes = files.map((name) => readFileSync(join(dir, name)));
  return {
    files: files.length,
    bytes: bytes.reduce((sum, buffer) => sum + buffer.length, 0),
    gzipBytes: bytes.reduce((sum, buffer) => sum + gzipSync(buffer).length, 0),
  };
}

if (!existsSync(mcpwire)) throw new Error('packages/cli/dist/main.js missing: run npm run build');
const samples = new Map<string, number[]>();
const failures = new Map<string, string>();
const key = (task: Task, run: Run): string => `${task.name}\u0000${run.client}`;
for (let round = 0; round < rounds; round++) {
  for (const task of tasks) {
    for (const run of task.runs) {
      if (available(run) !== undefined || failures.has(key(task, run))) continue;
      const result = time(run.argv!, task.expect);
      if (typeof result === 'string') failures.set(key(task, run), result);
      else samples.set(key(task, run), [...(samples.get(key(task, run)) ?? []), result]);
    }
  }
}
rmSync(work, { recursive: true, force: true });

const clients = ['mcpwire', 'inspector-cli', 'mcp-cli', 'baseline'];
const rows = tasks.map((task) => {
  const medianOf = (client: string): number | undefined =>
    median(samples.get(`${task.name}\u0000${client}`) ?? []);
  const cells = task.runs.map((run) => {
    const why = available(run) ?? failures.get(key(task, run));
    return why === undefined ? formatNumber(medianOf(run.client), 0) : 'n/a';
  });
  const ours = medianOf('mcpwire');
  return [
    task.name,
    ...cells,
    formatRatio(ours, medianOf('inspector-cli')),
    formatRatio(ours, medianOf('mcp-cli')),
    formatRatio(ours, medianOf('baseline')),
  ];
});
const size = bundleSize();
process.stdout.write(
  `\nOne-shot CLI runs against \`mcpwire serve everything\` over stdio: median wall ms of ${rounds} interleaved rounds (${os.cpus().length} cores, Node ${process.version})\n\n`,
);
process.stdout.write(
  `${formatTable(['task', ...clients.map((c) => `${c} ms`), 'vs inspector', 'vs mcp-cli', 'vs baseline'], rows)}\n`,
);
for (const task of tasks)
  for (const run of task.runs) {
    const why = available(run) ?? failures.get(key(task, run));
    if (why !== undefined) process.stdout.write(`  ${task.name}, ${run.client}: ${why}\n`);
  }
process.stdout.write(
  `\nCLI bundle (packages/cli/dist): ${size.files} files, ${formatNumber(size.bytes / 1024, 1)} KiB, ${formatNumber(size.gzipBytes / 1024, 1)} KiB gzipped\n`,
);
mkdirSync(join(root, 'bench/results'), { recursive: true });
const outFile = join(root, 'bench/results/cli-latest.json');
const report = {
  date: new Date().toISOString(),
  node: process.version,
  rounds,
  samples: Object.fromEntries([...samples].map(([k, v]) => [k.replace('\u0000', ' / '), v])),
  failures: Object.fromEntries([...failures].map(([k, v]) => [k.replace('\u0000', ' / '), v])),
  bundle: size,
};
await writeResultsFile(outFile, report);

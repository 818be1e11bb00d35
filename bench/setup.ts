// Set-up time (issue 22, item 13): the README's `npm install && npm run demo` in a fresh clone of this
// repository's HEAD, with the user's (warm) npm cache, timed per step, and node_modules' size; beside it,
// for reference, the official SDK's set-up: `npm install @modelcontextprotocol/sdk` in an empty folder.
// Medians are printed beside the README's claim and written to bench/results/setup-latest.json.
// Env: BENCH_ROUNDS=<n> (default 3); BENCH_SETUP_REF=<commit> measures that commit instead of HEAD (a
// before/after comparison). Only committed work is measured.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatNumber, formatRatio, formatTable, median } from './stats.ts';
import { writeResultsFile } from './results-file.ts';

const root = join(import.meta.dirname, '..');
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const work = mkdtempSync(join(tmpdir(), 'mcpwire-bench-setup-'));

/** What a user's shell has: none of npm's run-script variables, no test-runner preloads. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !key.startsWith('npm_') && key !== 'NODE_OPTIONS' && key !== 'INIT_CWD',
  ),
) as Record<string, string>;

/**
 * CPU seconds (user + system) of this process's finished children, from /proc/self/stat (Linux; clock
 * ticks of 1/100 s); `undefined` elsewhere. Unlike wall time it hardly moves with other load.
 */
function childrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** A finished command's wall time and its (and its descendants') CPU time, in seconds. */
interface Timing {
  wall: number;
  cpu: number | undefined;
}

/** Runs `command` to completion in `cwd` and times it; throws with its output if it failed. */
function timed(command: string, args: readonly string[], cwd: string): Timing {
  const cpuBefore = childrenCpuSeconds();
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const wall = (performance.now() - started) / 1000;
  const cpuAfter = childrenCpuSeconds();
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} in ${cwd} exited ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`,
    );
  return { wall, cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore };
}

/** Disk usage of `dir` in MB as `du -sh` counts it (1024 x 1024 bytes). */
function diskMB(dir: string): number {
  const out = spawnSync('du', ['-sk', dir], { encoding: 'utf8' }).stdout;
  return Number(out.split('\t')[0]) / 1024;
}

/** The official SDK version the root lockfile pins, so the reference installs what the tests use. */
function officialSdkVersion(): string {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages['node_modules/@modelcontextprotocol/sdk']?.version;
  if (version === undefined) throw new Error('the root lockfile has no @modelcontextprotocol/sdk');
  return version;
}

interface Round {
  install: Timing;
  demo: Timing;
  nodeModulesMB: number;
  sdkInstall: Timing;
  sdkNodeModulesMB: number;
}

function measureRound(index: number, sdkVersion: string): Round {
  const clone = join(work, `clone-${index}`);
  timed('git', ['clone', '--quiet', root, clone], work);
  timed('git', ['checkout', '--quiet', commit], clone);
  const install = timed('npm', ['install'], clone);
  const demo = timed('npm', ['run', 'demo'], clone);
  const nodeModulesMB = diskMB(join(clone, 'node_modules'));
  rmSync(clone, { recursive: true, force: true });
  const empty = join(work, `sdk-${index}`);
  mkdirSync(empty);
  writeFileSync(join(empty, 'package.json'), JSON.stringify({ name: 'empty', private: true }));
  const sdkInstall = timed('npm', ['install', `@modelcontextprotocol/sdk@${sdkVersion}`], empty);
  const sdkNodeModulesMB = diskMB(join(empty, 'node_modules'));
  rmSync(empty, { recursive: true, force: true });
  return { install, demo, nodeModulesMB, sdkInstall, sdkNodeModulesMB };
}

/** The README's set-up numbers: "`npm install && npm run demo` takes about <s> s and leaves <MB> MB". */
function readmeClaim(): { seconds: number; megabytes: number } | undefined {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const match = /`npm install && npm run demo` takes about (\d+) s and leaves (\d+) MB/.exec(readme);
  return match ? { seconds: Number(match[1]), megabytes: Number(match[2]) } : undefined;
}

const ref = process.env['BENCH_SETUP_REF'] ?? 'HEAD';
const commit = spawnSync('git', ['rev-parse', '--verify', ref], {
  cwd: root,
  encoding: 'utf8',
}).stdout.trim();
if (commit === '') throw new Error(`BENCH_SETUP_REF=${ref} names no commit`);
const head = commit.slice(0, 7);
const sdkVersion = officialSdkVersion();
const loadBefore = loadavg()[0]!;
const measured: Round[] = [];
try {
  for (let index = 0; index < rounds; index++) {
    measured.push(measureRound(index, sdkVersion));
    process.stderr.write(`round ${index + 1}/${rounds}: ${JSON.stringify(measured.at(-1))}\n`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const loadAfter = loadavg()[0]!;

/** Each row of the table: a measured quantity per round. */
const QUANTITIES: Record<string, (round: Round) => number | undefined> = {
  installWall: (r) => r.install.wall,
  installCpu: (r) => r.install.cpu,
  demoWall: (r) => r.demo.wall,
  demoCpu: (r) => r.demo.cpu,
  totalWall: (r) => r.install.wall + r.demo.wall,
  totalCpu: (r) =>
    r.install.cpu === undefined || r.demo.cpu === undefined ? undefined : r.install.cpu + r.demo.cpu,
  nodeModulesMB: (r) => r.nodeModulesMB,
  sdkInstallWall: (r) => r.sdkInstall.wall,
  sdkInstallCpu: (r) => r.sdkInstall.cpu,
  sdkNodeModulesMB: (r) => r.sdkNodeModulesMB,
};
const valuesOf = (key: string): number[] =>
  measured.map((round) => QUANTITIES[key]!(round)).filter((value) => value !== undefined);
const medians = Object.fromEntries(Object.keys(QUANTITIES).map((key) => [key, median(valuesOf(key))]));

const claim = readmeClaim();
const one = (value: number | undefined): string => formatNumber(value, 1);
const row = (label: string, key: string, unit: string, says = ''): string[] => [
  label,
  `${one(medians[key])} ${unit}`,
  valuesOf(key).map(one).join(', '),
  says,
];
console.log(
  `\nSet-up from a fresh clone of ${head}, warm npm cache, ${rounds} rounds (1-minute load average ${one(loadBefore)} -> ${one(loadAfter)}; CPU = user + system of the command and its children)\n`,
);
console.log(
  formatTable(
    ['step', 'median', 'runs', 'README says'],
    [
      row('npm install: wall', 'installWall', 's'),
      row('npm install: CPU', 'installCpu', 's'),
      row('npm run demo (build + demo): wall', 'demoWall', 's'),
      row('npm run demo (build + demo): CPU', 'demoCpu', 's'),
      row(
        'npm install && npm run demo: wall',
        'totalWall',
        's',
        claim ? `about ${claim.seconds} s` : '(no claim)',
      ),
      row('npm install && npm run demo: CPU', 'totalCpu', 's'),
      row('node_modules', 'nodeModulesMB', 'MB', claim ? `${claim.megabytes} MB` : '(no claim)'),
      row(`official SDK alone (sdk@${sdkVersion}, empty folder): npm install wall`, 'sdkInstallWall', 's'),
      row('official SDK alone: npm install CPU', 'sdkInstallCpu', 's'),
      row('official SDK alone: node_modules', 'sdkNodeModulesMB', 'MB'),
      [
        'our set-up / the SDK install (wall)',
        formatRatio(medians['totalWall'], medians['sdkInstallWall']),
        '',
        '',
      ],
      [
        'our set-up / the SDK install (CPU)',
        formatRatio(medians['totalCpu'], medians['sdkInstallCpu']),
        '',
        '',
      ],
    ],
  ),
);

const outFile = join(import.meta.dirname, 'results', 'setup-latest.json');
const report = {
  date: new Date().toISOString(),
  commit: head,
  method:
    'git clone of HEAD into a temp folder; `npm install` then `npm run demo` with the user npm cache (warm), no npm_* or NODE_OPTIONS in the environment; wall time, and CPU time (user + system of the command and its descendants, /proc/self/stat); node_modules size as du -sk / 1024; reference: `npm install @modelcontextprotocol/sdk@<root lockfile version>` in an empty folder',
  loadAverage: { before: loadBefore, after: loadAfter },
  readmeClaim: claim ?? null,
  median: medians,
  rounds: measured,
};
await writeResultsFile(outFile, report);

// Set-up time (issue 22, item 13): the README's `npm install && npm run demo` in a fresh clone of this
// repository's HEAD, with the user's (warm) npm cache, timed per step, and node_modules' size; beside it,
// for reference, the official SDK's set-up: `npm install @modelcontextprotocol/sdk` in an empty folder.
// Medians are printed beside the README's claim and written to bench/results/setup-latest.json.
// Env: BENCH_ROUNDS=<n> (default 3). Only committed work is measured (the clone is of HEAD).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import * as prettier from 'prettier';
import { formatNumber, formatRatio, formatTable, median } from './stats.ts';

const root = join(import.meta.dirname, '..');
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const work = mkdtempSync(join(tmpdir(), 'mcpwire-bench-setup-'));

/** What a user's shell has: none of npm's run-script variables, no test-runner preloads. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !key.startsWith('npm_') && key !== 'NODE_OPTIONS' && key !== 'INIT_CWD',
  ),
) as Record<string, string>;

/** Runs `command` to completion in `cwd`; returns its wall time in seconds, throws with its output if it failed. */
function timed(command: string, args: readonly string[], cwd: string): number {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const seconds = (performance.now() - started) / 1000;
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} in ${cwd} exited ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`,
    );
  return seconds;
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
  install: number;
  demo: number;
  total: number;
  nodeModulesMB: number;
  sdkInstall: number;
  sdkNodeModulesMB: number;
}

function measureRound(index: number, sdkVersion: string): Round {
  const clone = join(work, `clone-${index}`);
  timed('git', ['clone', '--quiet', root, clone], work);
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
  return { install, demo, total: install + demo, nodeModulesMB, sdkInstall, sdkNodeModulesMB };
}

/** The README's set-up numbers: "`npm install && npm run demo` takes about <s> s and leaves <MB> MB". */
function readmeClaim(): { seconds: number; megabytes: number } | undefined {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const match = /`npm install && npm run demo` takes about (\d+) s and leaves (\d+) MB/.exec(readme);
  return match ? { seconds: Number(match[1]), megabytes: Number(match[2]) } : undefined;
}

const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
  cwd: root,
  encoding: 'utf8',
}).stdout.trim();
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

const medianOf = (key: keyof Round): number => median(measured.map((round) => round[key]))!;
const claim = readmeClaim();
const seconds = (value: number): string => formatNumber(value, 1);
console.log(
  `\nSet-up from a fresh clone of ${head}, warm npm cache, ${rounds} rounds (median; 1-minute load ${formatNumber(loadBefore, 1)} -> ${formatNumber(loadAfter, 1)})\n`,
);
console.log(
  formatTable(
    ['step', 'median', 'runs', 'README says'],
    [
      [
        'npm install',
        `${seconds(medianOf('install'))} s`,
        measured.map((r) => seconds(r.install)).join(', '),
        '',
      ],
      [
        'npm run demo (build + demo)',
        `${seconds(medianOf('demo'))} s`,
        measured.map((r) => seconds(r.demo)).join(', '),
        '',
      ],
      [
        'npm install && npm run demo',
        `${seconds(medianOf('total'))} s`,
        measured.map((r) => seconds(r.total)).join(', '),
        claim ? `about ${claim.seconds} s` : '(no claim found)',
      ],
      [
        'node_modules',
        `${formatNumber(medianOf('nodeModulesMB'))} MB`,
        measured.map((r) => formatNumber(r.nodeModulesMB)).join(', '),
        claim ? `${claim.megabytes} MB` : '(no claim found)',
      ],
      [
        `official SDK alone: npm install @modelcontextprotocol/sdk@${sdkVersion}`,
        `${seconds(medianOf('sdkInstall'))} s`,
        measured.map((r) => seconds(r.sdkInstall)).join(', '),
        '',
      ],
      ['official SDK alone: node_modules', `${formatNumber(medianOf('sdkNodeModulesMB'))} MB`, '', ''],
      ['our set-up / the SDK install', formatRatio(medianOf('total'), medianOf('sdkInstall')), '', ''],
    ],
  ),
);

const outFile = join(import.meta.dirname, 'results', 'setup-latest.json');
const report = {
  date: new Date().toISOString(),
  commit: head,
  method:
    'git clone of HEAD into a temp folder; wall time of `npm install` then `npm run demo` with the user npm cache (warm), no npm_* or NODE_OPTIONS in the environment; node_modules size as du -sk / 1024; reference: `npm install @modelcontextprotocol/sdk@<root lockfile version>` in an empty folder',
  loadAverage: { before: loadBefore, after: loadAfter },
  readmeClaim: claim ?? null,
  median: {
    installSeconds: medianOf('install'),
    demoSeconds: medianOf('demo'),
    totalSeconds: medianOf('total'),
    nodeModulesMB: medianOf('nodeModulesMB'),
    sdkInstallSeconds: medianOf('sdkInstall'),
    sdkNodeModulesMB: medianOf('sdkNodeModulesMB'),
  },
  rounds: measured,
};
const formatOptions = { ...(await prettier.resolveConfig(outFile)), filepath: outFile };
writeFileSync(outFile, await prettier.format(JSON.stringify(report), formatOptions));

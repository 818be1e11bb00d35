// Runs test files with node's test runner under tsx, with the wire schema check preloaded into every
// test process and every mcpwire child it starts. With no arguments: every package's tests
// (packages/*/src/**/*.test.ts, packages/*/test/**/*.test.ts) and the repository's (test/**/*.test.ts).
// Arguments narrow the run to files whose path contains one of them (`packages/cli`, `peer.test`).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith('.test.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

const files = [...find(join(ROOT, 'packages')), ...find(join(ROOT, 'test'))].sort();
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
if (selected.length === 0) {
  process.stderr.write(`No test file matches ${only.join(', ')}\n`);
  process.exit(2);
}
const reportDir = mkdtempSync(join(tmpdir(), 'mcpwire-wire-'));
// NODE_OPTIONS carries tsx, the workspace packages' source condition (`mcpwire/server` resolves to
// packages/mcpwire/src/server/index.ts, not to a build) and the wire check into every test process and
// every node child that inherits the environment (spawned mcpwire servers, the CLI). Children started
// with a filtered environment (stdio transports) get it from test/support/node-options.ts.
const nodeOptions = [
  '--conditions=@mcpwire/source',
  '--import=tsx',
  `--import=${join(ROOT, 'test/support/wire-check.ts')}`,
].join(' ');
const env = { ...process.env, MCPWIRE_WIRE_REPORT_DIR: reportDir, NODE_OPTIONS: nodeOptions };
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...selected], {
  cwd: ROOT,
  stdio: 'inherit',
  env,
});
const reports = readdirSync(reportDir).map((name) => readFileSync(join(reportDir, name), 'utf8'));
rmSync(reportDir, { recursive: true, force: true });
if (reports.length > 0) {
  process.stderr.write(`\nWire schema check failed in ${reports.length} process(es):\n${reports.join('\n')}`);
  process.exit(1);
}
process.exit(result.status ?? 1);

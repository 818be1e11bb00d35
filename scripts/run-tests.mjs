// Runs every test file (src/**/*.test.ts, test/**/*.test.ts) with node's test runner under tsx, with
// the wire schema check preloaded into every test process and every mcpwire child it starts.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const files = [...find('src'), ...find('test')].sort();
const only = process.argv.slice(2);
const selected = only.length ? files.filter((f) => only.some((o) => f.includes(o))) : files;
const reportDir = mkdtempSync(join(tmpdir(), 'mcpwire-wire-'));
// NODE_OPTIONS carries tsx and the wire check into every test process and every node child that
// inherits the environment (spawned mcpwire servers, the CLI). Children started with a filtered
// environment (stdio transports) get it from test/support/node-options.ts.
const nodeOptions = `--import=tsx --import=${resolve('test/support/wire-check.ts')}`;
const env = { ...process.env, MCPWIRE_WIRE_REPORT_DIR: reportDir, NODE_OPTIONS: nodeOptions };
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', ...selected], {
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

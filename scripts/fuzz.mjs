// `npm run fuzz`: the property suites (`*.property.test.ts`) run long. Sets MCPWIRE_FUZZ_RUNS, which
// test/support/property.ts reads (a property with the default quick budget of 100 cases runs that
// many; cheaper or dearer ones in proportion), runs the same files through scripts/run-tests.mjs, and
// prints the number of cases each property ran.
// Usage: npm run fuzz [-- --runs <n>] [--seed <n>] [<path substring> ...]   (default 10,000 runs)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(import.meta.dirname, '..');

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) find(path, out);
    else if (name.endsWith('.property.test.ts')) out.push(relative(ROOT, path));
  }
  return out;
}

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '10000' }, seed: { type: 'string' } },
  allowPositionals: true,
});
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) {
  process.stderr.write(`--runs takes a positive integer (cases per property), got ${values.runs}\n`);
  process.exit(2);
}
if (values.seed !== undefined && !Number.isSafeInteger(Number(values.seed))) {
  process.stderr.write(`--seed takes an integer (the seed a failure report printed), got ${values.seed}\n`);
  process.exit(2);
}

const dir = mkdtempSync(join(tmpdir(), 'mcpwire-fuzz-'));
const report = join(dir, 'cases.jsonl');
const env = { ...process.env, MCPWIRE_FUZZ_RUNS: String(runs), MCPWIRE_FUZZ_REPORT: report };
if (values.seed !== undefined) env.MCPWIRE_FUZZ_SEED = values.seed;
// The property files, narrowed by the filters when given (`npm run fuzz -- codec sse`).
const files = [...find(join(ROOT, 'packages')), ...find(join(ROOT, 'test'))].filter(
  (file) => positionals.length === 0 || positionals.some((filter) => file.includes(filter)),
);
if (files.length === 0) {
  process.stderr.write(`No property test file matches ${positionals.join(', ')}\n`);
  process.exit(2);
}
const started = Date.now();
const result = spawnSync(process.execPath, [join(ROOT, 'scripts/run-tests.mjs'), ...files], {
  cwd: ROOT,
  stdio: ['ignore', 'inherit', 'inherit'],
  env,
});

let lines = [];
try {
  lines = readFileSync(report, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
} catch {
  // No property ran (no file matched, or the run failed before any): reported below.
}
rmSync(dir, { recursive: true, force: true });

const rows = lines.map((line) => [
  line.failed ? 'FAILED' : 'ok',
  line.cases.toLocaleString('en-US'),
  line.skipped.toLocaleString('en-US'),
  `${basename(line.file)} > ${line.property}`,
]);
const widths = [6, 9, 7].map((w, i) => Math.max(w, ...rows.map((row) => row[i].length)));
const pad = (row) => row.map((cell, i) => (i < 3 ? cell.padStart(widths[i]) : cell)).join('  ');
process.stdout.write(`\n${pad(['result', 'cases', 'skipped', 'property'])}\n`);
for (const row of rows) process.stdout.write(`${pad(row)}\n`);
const total = lines.reduce((sum, line) => sum + line.cases, 0);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
process.stdout.write(
  `\n${lines.length} properties, ${total.toLocaleString('en-US')} cases in ${minutes} min ` +
    `(MCPWIRE_FUZZ_RUNS=${runs}${values.seed === undefined ? '' : `, seed ${values.seed}`})\n`,
);
if (lines.length === 0) process.stderr.write('No property ran (did the test files fail to load?).\n');
process.exit(lines.length === 0 ? 1 : (result.status ?? 1));

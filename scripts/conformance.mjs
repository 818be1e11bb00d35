// Runs the official MCP conformance suite (test/conformance, under its own Node 22) against mcpwire:
// the server suite against `mcpwire serve everything --http`, and every client scenario (auth/* ones
// included) through test/conformance/client.ts, each at both revisions; then judges the results against
// test/conformance/expected-failures.json.
//
//   node scripts/conformance.mjs [--only server|client] [--scenario <name>] [--url <url>] [--bridge] [--keep]
//
// --url runs the server suite against a server already listening there instead of starting one.
// --bridge runs it against `mcpwire bridge --http` in front of `mcpwire serve everything --era
// handshake` over stdio (issue 25): the 2026-07-28 leg then tests the bridge's translation.
//
// Exit codes: 0 all as expected; 1 an unexpected failure or a stale expected-failures entry;
// 2 the suite cannot run (not installed, not built).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  compareWithExpected,
  defaultVersionOf,
  formatFailure,
  formatTable,
  formatWarnings,
  judgeRun,
  parseExpected,
  parseScenarioList,
  readResultDirs,
  scenarioOfResultDir,
} from '../test/conformance/results.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SUITE_DIR = join(ROOT, 'test/conformance');
const NODE22 = join(SUITE_DIR, 'node_modules/.bin/node');
const SUITE_CLI = join(SUITE_DIR, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const SERVER_CLI = join(ROOT, 'packages/cli/dist/main.js');
const FIXTURE_CLIENT = join(SUITE_DIR, 'client.ts');
const STATELESS = '2026-07-28';
/** Client scenarios run two at a time: the machine has two cores and each run is mostly waiting. */
const CLIENT_CONCURRENCY = 2;

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    scenario: { type: 'string' },
    url: { type: 'string' },
    keep: { type: 'boolean', default: false },
    bridge: { type: 'boolean', default: false },
  },
});
if (options.only !== undefined && options.only !== 'server' && options.only !== 'client') {
  exitSetup(`--only must be "server" or "client", not "${options.only}"`);
}

// The suite must run on Node 22 with none of the test runner's preloads (--import tsx, the wire check).
const suiteEnv = { ...process.env };
delete suiteEnv.NODE_OPTIONS;

await checkInstalled();
const expected = loadExpected();
const lists = {
  server: parseScenarioList(await runSuite(['list', '--server'])),
  client: parseScenarioList(await runSuite(['list', '--client'])),
};
const selected = selectScenarios();
/** What `serve everything --http` printed, shown when a server scenario fails unexpectedly. */
let serverLog = '';
const workDir = mkdtempSync(join(tmpdir(), 'mcpwire-conformance-'));
const runs = [];
try {
  if (selected.server.length > 0) runs.push(...(await runServerLegs(selected.server)));
  if (selected.client.length > 0) runs.push(...(await runClientScenarios(selected.client)));
} finally {
  if (!options.keep) rmSync(workDir, { recursive: true, force: true });
}
process.exit(report(runs));

async function checkInstalled() {
  const hint = 'run `npm ci --prefix test/conformance` (CI does it in .ci/run)';
  if (!existsSync(NODE22)) exitSetup(`Node 22 for the conformance suite is missing (${NODE22}): ${hint}`);
  if (!existsSync(SUITE_CLI)) exitSetup(`the conformance suite is missing (${SUITE_CLI}): ${hint}`);
  const version = (await run(NODE22, ['--version'], { env: suiteEnv })).stdout.trim();
  if (!version.startsWith('v22.')) exitSetup(`${NODE22} is ${version}, not Node 22: ${hint}`);
  if (options.url === undefined && !existsSync(SERVER_CLI))
    exitSetup(`${SERVER_CLI} is missing: run \`npm run build\` first`);
}

function loadExpected() {
  try {
    return parseExpected(readFileSync(join(SUITE_DIR, 'expected-failures.json'), 'utf8'));
  } catch (error) {
    return exitSetup(error.message);
  }
}

/** The scenarios to run per side: every client one and every non-auth server one, or just `--scenario`. */
function selectScenarios() {
  const pick = (side) => {
    if (options.only !== undefined && options.only !== side) return [];
    const all = lists[side].filter((s) => side === 'client' || !s.name.startsWith('auth/'));
    return options.scenario === undefined ? all : all.filter((s) => s.name === options.scenario);
  };
  const picked = { server: pick('server'), client: pick('client') };
  if (options.scenario !== undefined && picked.server.length + picked.client.length === 0) {
    exitSetup(`no scenario named "${options.scenario}" (see \`conformance list\`)`);
  }
  return picked;
}

/**
 * The server suite in two legs against one `serve everything --http` process: without a revision
 * (each scenario at its own default) and at 2026-07-28.
 */
async function runServerLegs(scenarios) {
  const port = options.url === undefined ? await freePort() : undefined;
  const url = options.url ?? `http://127.0.0.1:${port}/mcp`;
  const server = port === undefined ? { stop: async () => {} } : await startServer(port, url);
  try {
    const legs = [{ name: 'default', args: [] }];
    if (scenarios.some((s) => s.tags.includes(STATELESS)))
      legs.push({ name: STATELESS, args: ['--spec-version', STATELESS] });
    const results = [];
    for (const leg of legs) results.push(...(await runServerLeg(leg, url, scenarios)));
    return results;
  } finally {
    await server.stop();
  }
}

async function runServerLeg(leg, url, scenarios) {
  const outDir = join(workDir, `server-${leg.name}`);
  const single = options.scenario === undefined ? ['--suite', 'all'] : ['--scenario', options.scenario];
  if (options.scenario !== undefined && leg.name === STATELESS && !scenarios[0].tags.includes(STATELESS))
    return [];
  log(`server: conformance server ${single.join(' ')} ${leg.args.join(' ')}`.trimEnd());
  const output = await runSuite(['server', '--url', url, ...single, ...leg.args, '-o', outDir], {
    isChecked: false,
  });
  const ran = [...output.matchAll(/^=== Running scenario: (\S+) ===$/gm)].map((m) => m[1]);
  if (options.scenario !== undefined) ran.push(options.scenario);
  const byScenario = new Map(readResultDirs(outDir).map((r) => [scenarioOfResultDir(r.dirName), r.checks]));
  return ran.map((scenario) => {
    const tags = lists.server.find((s) => s.name === scenario)?.tags ?? [];
    const checks = byScenario.get(scenario);
    const problems = checks ? [] : [harnessError(output, scenario)];
    const version = leg.name === STATELESS ? STATELESS : defaultVersionOf(tags);
    return { side: 'server', scenario, version, checks, problems };
  });
}

function harnessError(output, scenario) {
  const at = output.indexOf(`Failed to run scenario ${scenario}`);
  const text = at === -1 ? 'the harness wrote no checks.json' : output.slice(at, at + 400);
  return `harness error: ${text.replace(/\s+/g, ' ')}`;
}

/**
 * Every client scenario at each of the two current revisions it applies to (extensions at 2026-07-28;
 * one that applies to neither, like the 2025-03-26 auth fallbacks, at its newest own), two at a time.
 */
async function runClientScenarios(scenarios) {
  const jobs = [];
  for (const scenario of scenarios) {
    const isExtension = scenario.tags.includes('extension');
    const current = ['2025-11-25', STATELESS].filter((v) => scenario.tags.includes(v));
    const own = scenario.tags
      .filter((tag) => /^\d{4}-\d{2}-\d{2}$/.test(tag))
      .sort()
      .slice(-1);
    const versions = isExtension ? [STATELESS] : current.length > 0 ? current : own;
    for (const version of versions) jobs.push({ scenario: scenario.name, version, isExtension });
  }
  const results = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) results.push(await runClientScenario(jobs[next++]));
  };
  await Promise.all(Array.from({ length: CLIENT_CONCURRENCY }, worker));
  return results;
}

async function runClientScenario({ scenario, version, isExtension }) {
  const outDir = join(workDir, `client-${version}-${scenario}`);
  mkdirSync(outDir, { recursive: true });
  // The harness splits --command on spaces and appends the server URL.
  const command = `${process.execPath} --conditions=@mcpwire/source --import tsx ${FIXTURE_CLIENT}`;
  const args = [
    'client',
    '--command',
    command,
    '--scenario',
    scenario,
    '--spec-version',
    version,
    '-o',
    outDir,
  ];
  if (isExtension) args.push('--force');
  log(`client: ${scenario} @ ${version}`);
  const output = await runSuite(args, { isChecked: false });
  // The harness names the result folder after the scenario, so auth/<name> lands in <outDir>/auth/.
  const [result] = readResultDirs(join(outDir, dirname(scenario)));
  const problems = [];
  const exit = /Client exited with code (-?\d+)/.exec(output);
  if (exit) problems.push(`the fixture client exited with code ${exit[1]}: ${clientStderr(output)}`);
  if (/Client timed out/.test(output)) problems.push('the fixture client timed out');
  if (!result) problems.push(`harness error: ${output.slice(-400).replace(/\s+/g, ' ')}`);
  return { side: 'client', scenario, version, checks: result?.checks, problems };
}

/** The fixture client's stderr as the harness echoes it (between `Stderr:` and `Results saved`). */
function clientStderr(output) {
  const start = output.indexOf('Stderr:');
  if (start === -1) return '(no stderr)';
  const end = output.indexOf('Results saved to', start);
  const text = output.slice(start + 'Stderr:'.length, end === -1 ? undefined : end).trim();
  return text.length > 900 ? `${text.slice(0, 900)}...` : text;
}

/** Prints the table, failures and stale entries; returns the exit code. */
function report(allRuns) {
  const judged = mergeRepeats(allRuns.map((r) => judgeRun(r, expected.allowedSkips)));
  const isComplete = options.scenario === undefined && options.only === undefined;
  const { unexpected, expectedSeen, stale } = compareWithExpected(judged, expected, { isComplete });
  const out = [];
  out.push('', '=== mcpwire conformance (official suite 0.2.0-alpha.12) ===', formatTable(judged, expected));
  const warnings = judged.flatMap(formatWarnings);
  if (warnings.length > 0) out.push('', 'Warnings (SHOULD-level, not failures):', ...warnings);
  const allowed = judged.flatMap((run) =>
    run.allowedSkipped.map(
      (s) => `  ${run.side} ${run.scenario} @ ${run.version}: ${s.check.name}: ${s.rule.reason}`,
    ),
  );
  if (allowed.length > 0) out.push('', 'Allowed skips:', ...allowed);
  if (expectedSeen.length > 0) {
    out.push('', 'Expected failures:');
    for (const { run, entry } of expectedSeen)
      out.push(`  ${run.side} ${run.scenario} @ ${run.version}: ${entry.reason} (${entry.issue})`);
  }
  if (unexpected.length > 0) out.push('', 'UNEXPECTED FAILURES:', ...unexpected.map(formatFailure));
  if (unexpected.some((run) => run.side === 'server') && serverLog.trim() !== '') {
    out.push(
      '',
      'serve everything --http output (last 30 lines):',
      ...serverLog.trimEnd().split('\n').slice(-30),
    );
  }
  if (stale.length > 0) out.push('', 'STALE expected-failures.json entries:', ...stale.map((s) => `  ${s}`));
  const passing = judged.filter((r) => r.isPass).length;
  out.push(
    '',
    `conformance: ${judged.length} scenario runs; ${passing} pass, ${expectedSeen.length} expected failures, ` +
      `${unexpected.length} unexpected failures, ${stale.length} stale entries`,
  );
  process.stdout.write(`${out.join('\n')}\n`);
  if (options.keep) process.stdout.write(`raw results kept in ${workDir}\n`);
  return unexpected.length + stale.length === 0 ? 0 : 1;
}

/** One run per side, scenario and revision: a scenario both server legs ran keeps its worse outcome. */
function mergeRepeats(judged) {
  const byKey = new Map();
  for (const run of judged) {
    const key = `${run.side} ${run.scenario} ${run.version}`;
    const previous = byKey.get(key);
    if (!previous || (previous.isPass && !run.isPass)) byKey.set(key, run);
  }
  return [...byKey.values()];
}

/** Starts `mcpwire serve everything --http <port>` and resolves once `url` answers HTTP. */
async function startServer(port, url) {
  // The server keeps this process's environment: under the test runner that carries the wire check.
  const args = options.bridge
    ? [
        'bridge',
        '--http',
        String(port),
        '--',
        process.execPath,
        SERVER_CLI,
        'serve',
        'everything',
        '--era',
        'handshake',
      ]
    : ['serve', 'everything', '--http', String(port)];
  const child = spawn(process.execPath, [SERVER_CLI, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.once('exit', () => (serverLog = output));
  const exited = new Promise((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      exitSetup(`mcpwire serve everything --http ${port} exited early:\n${output}`);
    try {
      await fetch(url, { method: 'GET', signal: AbortSignal.timeout(1000) });
      if (options.bridge) await warmUpBridge(url);
      return { stop };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await stop();
  return exitSetup(
    `mcpwire serve everything --http ${port} did not answer at ${url} within 15 s:\n${output}`,
  );
}

/**
 * One session opened and ended before the suite: its child is the first to load the server's
 * modules (slow on a loaded machine, slower under the test runner's preloads), which the suite's
 * first scenario would otherwise pay within its own initialize timeout.
 */
async function warmUpBridge(url) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'conformance-warm-up', version: '1' },
    },
  };
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify(initialize),
    signal: AbortSignal.timeout(60_000),
  });
  await response.text();
  const session = response.headers.get('mcp-session-id');
  if (session !== null)
    await fetch(url, { method: 'DELETE', headers: { 'Mcp-Session-Id': session } }).catch(() => {});
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/** Runs the suite's CLI under Node 22 from the repository root; resolves with its stdout+stderr. */
async function runSuite(args, { isChecked = true } = {}) {
  const result = await run(NODE22, [SUITE_CLI, ...args], { env: suiteEnv, cwd: ROOT });
  if (isChecked && result.code !== 0) {
    exitSetup(
      `conformance ${args.join(' ')} failed (exit ${result.code}):\n${result.stdout}${result.stderr}`,
    );
  }
  return isChecked ? result.stdout : `${result.stdout}\n${result.stderr}`;
}

function run(command, args, { env, cwd = ROOT }) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolveRun({ code, stdout, stderr }));
  });
}

function log(line) {
  process.stderr.write(`${line}\n`);
}

function exitSetup(message) {
  process.stderr.write(`conformance: cannot run: ${message}\n`);
  process.exit(2);
}

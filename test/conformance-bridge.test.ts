// The official conformance server suite, both legs, through `mcpwire bridge --http <port> -- mcpwire
// serve everything --era handshake` (issue 25, point 1): the child speaks only the handshake era, so
// the 2026-07-28 leg passes only through the bridge's translation. Judged by scripts/conformance.mjs
// --bridge with the same expected-failures.json as the direct server; every run must pass.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { parseUnexpected } from './support/conformance-report.ts';
import { runToEnd } from './support/run-to-end.ts';

const NODE22 = 'test/conformance/node_modules/.bin/node';
const INSTALL_HINT = 'run `npm ci --prefix test/conformance` (CI does it in .ci/run)';

test('the conformance server suite, both legs, through bridge --http in front of a handshake-only child', async (t) => {
  assert.ok(existsSync(NODE22), `Node 22 for the conformance suite is not installed: ${INSTALL_HINT}`);
  assert.ok(
    existsSync('packages/cli/dist/main.js'),
    'packages/cli/dist/main.js is missing: run `npm run build` first',
  );
  const { code, output } = await runToEnd(process.execPath, [
    'scripts/conformance.mjs',
    '--only',
    'server',
    '--bridge',
  ]);
  const start = output.indexOf('=== mcpwire conformance');
  const summary = start === -1 ? output : output.slice(start);
  for (const line of summary.split('\n')) t.diagnostic(line);
  const failed = parseUnexpected(output).map(
    (run) => `${run.scenario} @ ${run.version}: ${[...run.problems, ...run.messages].join(' | ')}`,
  );
  assert.deepEqual(failed, []);
  assert.equal(code, 0, `scripts/conformance.mjs --bridge exited with ${code}:\n${output.slice(-4000)}`);
  // Every run was judged: none of the bridge's is an expected failure of the direct server's list.
  assert.match(output, /conformance: \d+ scenario runs; \d+ pass, 0 expected failures/);
});

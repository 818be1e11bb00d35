// The official conformance server suite, both legs, through `mcpwire bridge --http <port> -- mcpwire
// serve everything --era handshake` (issue 25, point 1): the child speaks only the handshake era, so
// the 2026-07-28 leg passes only through the bridge's translation. Every run must pass: the judge is
// scripts/conformance.mjs --bridge with the same expected-failures.json as the direct server.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { runToEnd } from './support/run-to-end.ts';

const NODE22 = 'test/conformance/node_modules/.bin/node';
const INSTALL_HINT = 'run `npm ci --prefix test/conformance` (CI does it in .ci/run)';

test('the conformance server suite, both legs, passes through bridge --http in front of a handshake-only child', async (t) => {
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
  const problems = output.search(/^UNEXPECTED FAILURES/m);
  const why = problems === -1 ? output.slice(-4000) : output.slice(problems, problems + 6000);
  assert.equal(code, 0, `scripts/conformance.mjs --bridge exited with ${code}:\n${why}`);
  // The summary counts every run; none may be an expected failure of the bridge's own.
  assert.match(output, /conformance: (\d+) scenario runs; \1 pass, 0 expected failures/);
});

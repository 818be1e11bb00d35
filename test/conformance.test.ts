// The official MCP conformance suite (0.2.0-alpha.12, under its own Node 22 in test/conformance)
// against the built mcpwire: server and client scenarios at both revisions, judged by
// scripts/conformance.mjs against test/conformance/expected-failures.json.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { runToEnd } from './support/run-to-end.ts';

const NODE22 = 'test/conformance/node_modules/.bin/node';
const SUITE = 'test/conformance/node_modules/@modelcontextprotocol/conformance/package.json';
const INSTALL_HINT = 'run `npm ci --prefix test/conformance` (CI does it in .ci/run)';

test('the official conformance suite passes, but for its listed expected failures', async (t) => {
  assert.ok(existsSync(NODE22), `Node 22 for the conformance suite is not installed: ${INSTALL_HINT}`);
  assert.ok(existsSync(SUITE), `@modelcontextprotocol/conformance is not installed: ${INSTALL_HINT}`);
  assert.ok(
    existsSync('packages/cli/dist/main.js'),
    'packages/cli/dist/main.js is missing: run `npm run build` first',
  );
  const { code, output } = await runToEnd(process.execPath, ['scripts/conformance.mjs']);
  const start = output.indexOf('=== mcpwire conformance');
  const summary = start === -1 ? output : output.slice(start);
  for (const line of summary.split('\n')) t.diagnostic(line);
  // The table is in the diagnostics above; the message names what went wrong.
  const problems = output.search(/^(UNEXPECTED FAILURES|STALE expected-failures)/m);
  const why = problems === -1 ? output : output.slice(problems);
  assert.equal(code, 0, `scripts/conformance.mjs exited with ${code}:\n${why}`);
});

// The official conformance server suite, both legs, through `mcpwire bridge --http <port> -- mcpwire
// serve everything --era handshake` (issue 25, point 1): the child speaks only the handshake era, so
// the 2026-07-28 leg passes only through the bridge's translation. Judged by scripts/conformance.mjs
// --bridge with the same expected-failures.json as the direct server; every run must pass but those of
// BRIDGE_LIMITS (docs/bridge.md, "Limits"), each failing only with its stated message.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { parseUnexpected, type FailedRun } from './support/conformance-report.ts';
import { runToEnd } from './support/run-to-end.ts';

const NODE22 = 'test/conformance/node_modules/.bin/node';
const INSTALL_HINT = 'run `npm ci --prefix test/conformance` (CI does it in .ci/run)';

/**
 * What the bridge does not do yet, by scenario and revision: a run listed may fail, and then every
 * failed check's message (or the harness's problem) must show that reason.
 */
const BRIDGE_LIMITS: ReadonlyArray<{ scenarios: RegExp; version: string; message: RegExp; reason: string }> =
  [
    {
      scenarios: /^tasks-/,
      version: '2026-07-28',
      message: /./,
      reason:
        "the child's 2025-11-25 tasks are not translated into the 2026-07-28 tasks extension, which the bridge does not declare",
    },
  ];

/** The failed runs that no limit excuses, each with why. */
function unexcused(runs: readonly FailedRun[]): string[] {
  return runs.flatMap((run) => {
    const limits = BRIDGE_LIMITS.filter(
      (limit) => limit.version === run.version && limit.scenarios.test(run.scenario),
    );
    const isExcused =
      limits.length > 0 &&
      [...run.problems, ...run.messages].every((message) =>
        limits.some((limit) => limit.message.test(message)),
      );
    return isExcused
      ? []
      : [`${run.scenario} @ ${run.version}: ${[...run.problems, ...run.messages].join(' | ')}`];
  });
}

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
  const failed = parseUnexpected(output);
  for (const limit of BRIDGE_LIMITS) {
    const hit = failed.filter((run) => limit.scenarios.test(run.scenario)).map((run) => run.scenario);
    if (hit.length > 0) t.diagnostic(`bridge limit (${hit.join(', ')}): ${limit.reason}`);
  }
  assert.ok(
    code === 0 || failed.length > 0,
    `scripts/conformance.mjs --bridge exited with ${code}:\n${output.slice(-4000)}`,
  );
  assert.deepEqual(unexcused(failed), []);
  // Every run was judged: none of the bridge's is an expected failure of the direct server's list.
  assert.match(output, /conformance: \d+ scenario runs; \d+ pass, 0 expected failures/);
});

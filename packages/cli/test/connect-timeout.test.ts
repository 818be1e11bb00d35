// --timeout is the budget of the whole connection: the era probe and initialize (and the call)
// share one deadline, and the failure names --timeout. doctor has a short default of its own.
// The elapsed-time bounds check the deadline logic, not speed: probe and initialize each waiting
// the whole timeout take at least 2x it, so finishing under 2x proves they share one (the rest of
// the 2x is slack for starting node on a loaded machine).

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FIXTURES, runCli } from './support/cli-process.ts';

const fixture = (mode: string): string[] => [
  '--',
  process.execPath,
  join(FIXTURES, 'first-hour-server.mjs'),
  mode,
];

async function timed(
  args: readonly string[],
): Promise<Awaited<ReturnType<typeof runCli>> & { seconds: number }> {
  const started = performance.now();
  const run = await runCli(args, { timeoutMs: 120_000 });
  return { ...run, seconds: (performance.now() - started) / 1000 };
}

describe('timeouts against a server that never answers', { concurrency: 2 }, () => {
  test(
    'list --timeout 8: one deadline for probe and initialize, exit 3, the message names --timeout',
    { timeout: 60_000 },
    async () => {
      const run = await timed(['list', '--timeout', '8', ...fixture('hung')]);
      assert.equal(run.code, 3, run.stderr);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^mcpwire: cannot connect to .*: no answer within 8 s \(--timeout 8\)/);
      assert.match(run.stderr, /raise --timeout/);
      assert.doesNotMatch(run.stderr, /TimeoutMs/);
      assert.ok(run.seconds < 2 * 8, `took ${run.seconds} s`);
    },
  );

  test(
    'doctor, by default, ends within 15 s and names the stdout noise and --timeout',
    { timeout: 60_000 },
    async () => {
      const run = await timed(['doctor', '--json', ...fixture('banner-hung')]);
      assert.equal(run.code, 1, run.stderr);
      const { steps } = JSON.parse(run.stdout) as {
        steps: Array<{ step: string; verdict: string; detail: string; hint?: string }>;
      };
      const stdout = steps.find((step) => step.step === 'stdout');
      assert.equal(stdout?.verdict, 'fail', run.stdout);
      assert.match(stdout.detail, /1 line on stdout that is no JSON-RPC message/);
      const handshake = steps.find((step) => step.step === 'handshake');
      assert.equal(handshake?.verdict, 'fail', run.stdout);
      assert.match(`${handshake.detail} ${handshake.hint ?? ''}`, /--timeout/);
      assert.doesNotMatch(run.stdout, /TimeoutMs/);
      assert.ok(run.seconds < 2 * 10, `took ${run.seconds} s`);
    },
  );

  test('doctor --help documents its default of 10 s; the others keep 60 s', async () => {
    const doctor = await runCli(['doctor', '--help']);
    assert.match(doctor.stdout.replace(/\s+/g, ' '), /--timeout <seconds> .*\(default: 10\)/);
    const list = await runCli(['list', '--help']);
    assert.match(list.stdout.replace(/\s+/g, ' '), /--timeout <seconds> .*\(default: 60\)/);
  });
});

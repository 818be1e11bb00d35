// --timeout is the budget of the whole connection: the era probe and initialize (and the call)
// share one deadline, and the failure names --timeout. doctor has a short default of its own.
// Time is read on the hung server's own clock (it logs when it started, each message and the end of
// its stdin), so starting node on a loaded machine does not count: with probe and initialize each
// waiting the whole timeout, initialize would come a whole timeout after the probe and stdin would
// close two timeouts after it; one shared deadline brings both well inside.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FIXTURES, runCli } from './support/cli-process.ts';

/** Runs the CLI against a hung server logging into a temporary file; returns the run and the log. */
async function againstHung(
  args: readonly string[],
  mode: string,
): Promise<Awaited<ReturnType<typeof runCli>> & { events: Map<string, number> }> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpwire-hung-'));
  try {
    const log = join(dir, 'events.jsonl');
    const server = ['--', process.execPath, join(FIXTURES, 'first-hour-server.mjs'), mode, log];
    const run = await runCli([...args, ...server], { timeoutMs: 120_000 });
    const events = new Map<string, number>();
    for (const line of (await readFile(log, 'utf8')).trim().split('\n')) {
      const { event, at } = JSON.parse(line) as { event: string; at: number };
      if (!events.has(event)) events.set(event, at);
    }
    return { ...run, events };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Milliseconds from `from` to `to` on the server's clock; both must have happened. */
function between(events: Map<string, number>, from: string, to: string): number {
  const start = events.get(from);
  const end = events.get(to);
  assert.ok(
    start !== undefined && end !== undefined,
    `${from} and ${to} in ${[...events.keys()].join(', ')}`,
  );
  return end - start;
}

describe('timeouts against a server that never answers', { concurrency: 2 }, () => {
  test(
    'list --timeout 8: one deadline for probe and initialize, exit 3, the message names --timeout',
    { timeout: 60_000 },
    async () => {
      const run = await againstHung(['list', '--timeout', '8'], 'hung');
      assert.equal(run.code, 3, run.stderr);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /^mcpwire: cannot connect to .*: no answer within 8 s \(--timeout 8\)/);
      assert.match(run.stderr, /raise --timeout/);
      assert.doesNotMatch(run.stderr, /TimeoutMs/);
      // Initialize was sent before the probe had used the whole budget, and stdin closed before a
      // second budget could have passed.
      assert.ok(between(run.events, 'server/discover', 'initialize') < 8_000, [...run.events].join(' '));
      assert.ok(between(run.events, 'server/discover', 'end') < 1.5 * 8_000, [...run.events].join(' '));
    },
  );

  test(
    'doctor, by default, ends within 15 s and names the stdout noise and --timeout',
    { timeout: 60_000 },
    async () => {
      const run = await againstHung(['doctor', '--json'], 'banner-hung');
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
      assert.ok(between(run.events, 'start', 'end') < 15_000, [...run.events].join(' '));
    },
  );

  test('doctor --help documents its default of 10 s; the others keep 60 s', async () => {
    const doctor = await runCli(['doctor', '--help']);
    assert.match(doctor.stdout.replace(/\s+/g, ' '), /--timeout <seconds> .*\(default: 10\)/);
    const list = await runCli(['list', '--help']);
    assert.match(list.stdout.replace(/\s+/g, ' '), /--timeout <seconds> .*\(default: 60\)/);
  });
});

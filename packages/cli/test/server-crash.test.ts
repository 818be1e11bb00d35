// A stdio server that dies while the client connects: what it wrote on stderr is the cause, so
// the command prints it first; an era hint, if any, comes after it, never before.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FIXTURES, runCli } from './support/cli-process.ts';

const CRASH = ['--', process.execPath, join(FIXTURES, 'first-hour-server.mjs'), 'crash'];
const CAUSE = 'fatal: missing API_KEY';

/** Fails unless `text` has the cause, and any mention of the era comes after it. */
function assertCauseFirst(text: string): void {
  const cause = text.indexOf(CAUSE);
  assert.ok(cause >= 0, `no "${CAUSE}" in:\n${text}`);
  const era = text.search(/\bera\b/);
  assert.ok(era === -1 || era > cause, `an era hint comes before the cause:\n${text}`);
}

describe('a stdio server that exits during the connection', { concurrency: 2 }, () => {
  test('list: exit 3, the exit code and the stderr tail first, any era hint after it', async () => {
    const run = await runCli(['list', ...CRASH]);
    assert.equal(run.code, 3, run.stderr);
    assert.equal(run.stdout, '');
    assert.match(
      run.stderr,
      /^mcpwire: cannot connect to .*: the server exited with code 1 before it answered/,
    );
    assertCauseFirst(run.stderr);
    // Said once, not twice.
    assert.equal(run.stderr.split(CAUSE).length, 2, run.stderr);
  });

  test('doctor: the "start" step names the exit and the stderr tail before any era hint', async () => {
    const run = await runCli(['doctor', '--json', ...CRASH]);
    assert.equal(run.code, 1, run.stderr);
    const { steps } = JSON.parse(run.stdout) as {
      steps: Array<{ step: string; verdict: string; detail: string }>;
    };
    const start = steps.find((step) => step.step === 'start');
    assert.equal(start?.verdict, 'fail');
    assert.match(start.detail, /exited with code 1/);
    assertCauseFirst(start.detail);
    assert.equal(start.detail.split(CAUSE).length, 2, start.detail);
  });
});

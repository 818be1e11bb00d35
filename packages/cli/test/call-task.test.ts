// `mcpwire call --task` as a script runs it, in both eras, against our everything server and the
// github server over stdio, our everything server over HTTP, and the official everything server
// (no tasks): status and progress lines on stderr, the result on stdout, exit codes, and Ctrl-C.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import {
  childEnv,
  MCPWIRE,
  OFFICIAL_EVERYTHING,
  OUR_EVERYTHING,
  ROOT,
  runCli,
} from './support/cli-process.ts';
import { startOurHttpServer } from './support/http-servers.ts';

const OURS = ['--', ...OUR_EVERYTHING];
const GITHUB = ['--', ...MCPWIRE, 'serve', 'github', '--db', ':memory:'];
const TASK_LINE = /^task (\S+) working \(polled every \d+ ms\)$/m;

describe('mcpwire call --task', { concurrency: 4 }, () => {
  for (const era of ['handshake', 'stateless'] as const) {
    test(`${era}: a task-capable tool runs as a task: its id and status on stderr, its result on stdout; --json keeps stdout machine-readable`, async () => {
      const run = await runCli([
        'call',
        '--task',
        '--era',
        era,
        'slow_compute',
        'seconds=0.2',
        'label=demo',
        ...OURS,
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, 'Computed demo after 0.2s\n');
      const id = TASK_LINE.exec(run.stderr)?.[1];
      assert.ok(id, run.stderr);
      assert.match(run.stderr, new RegExp(`^task ${id} completed$`, 'm'));

      const json = await runCli([
        'call',
        '--task',
        '--json',
        '--era',
        era,
        'slow_compute',
        'seconds=0',
        ...OURS,
      ]);
      assert.equal(json.code, 0, json.stderr);
      const result = JSON.parse(json.stdout) as { content: Array<{ text: string }> };
      assert.equal(result.content[0]?.text, 'Computed result after 0s');
      assert.match(json.stderr, TASK_LINE);
    });

    test(`${era}: a tool error exits 1 (TASK-13 failed, S26-TASK-8 completed), a protocol error exits 1, a tool without tasks is called directly`, async () => {
      const toolError = await runCli(['call', '--task', '--era', era, 'failing_job', ...OURS]);
      assert.equal(toolError.code, 1, toolError.stderr);
      assert.equal(toolError.stdout, '');
      assert.match(toolError.stderr, TASK_LINE);
      // The handshake era fails a task whose tool reported an error; the stateless era completes it.
      assert.match(
        toolError.stderr,
        era === 'handshake' ? /^task \S+ failed: failing_job failed/m : /^task \S+ completed$/m,
      );
      assert.match(toolError.stderr, /^mcpwire: tool "failing_job" reported an error:\nfailing_job failed/m);

      const protocolError = await runCli(['call', '--task', '--era', era, 'protocol_error_job', ...OURS]);
      assert.equal(protocolError.code, 1, protocolError.stderr);
      assert.match(protocolError.stderr, /^task \S+ failed: protocol_error_job hit an internal error$/m);
      assert.match(
        protocolError.stderr,
        /the server answered error -32603: protocol_error_job hit an internal error/,
      );

      // TASK-3: a tool that requires a task, called without --task, is a usage error with the fix.
      const plain = await runCli(['call', '--era', era, 'failing_job', ...OURS]);
      assert.equal(plain.code, 2, plain.stderr);
      assert.equal(plain.stdout, '');
      assert.match(plain.stderr, /^mcpwire: tool "failing_job" runs only as a task: add --task$/m);

      const direct = await runCli(['call', '--task', '--era', era, 'greet', 'name=Ada', ...OURS]);
      assert.equal(direct.code, 0, direct.stderr);
      assert.equal(direct.stdout, 'Hello, Ada!\n');
      assert.doesNotMatch(direct.stderr, TASK_LINE);
      assert.match(direct.stderr, era === 'handshake' ? /does not support tasks/ : /answered at once/);
    });

    test(`${era}: github's search_issues as a task (its stages as progress in the handshake era, PROG-5)`, async () => {
      const run = await runCli([
        'call',
        '--task',
        '--era',
        era,
        'search_issues',
        'query=is:open label:bug',
        'perPage=1',
        ...GITHUB,
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stderr, TASK_LINE);
      assert.match(run.stderr, /^task \S+ completed$/m);
      if (era === 'handshake') assert.match(run.stderr, /^task \S+ progress 4\/4 Done$/m);
      else assert.doesNotMatch(run.stderr, /progress/, 'S26-TASK-13: no progress for tasks');
      const found = JSON.parse(run.stdout) as { total_count: number; items: unknown[] };
      assert.ok(found.total_count > 0);
      assert.equal(found.items.length, 1);
    });

    test(`${era}: over Streamable HTTP`, async () => {
      await using server = await startOurHttpServer();
      const run = await runCli([
        'call',
        '--task',
        '--no-auth',
        '--era',
        era,
        server.url,
        'slow_compute',
        'seconds=0.2',
        'label=http',
      ]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, 'Computed http after 0.2s\n');
      assert.match(run.stderr, TASK_LINE);
    });

    test(`${era}: Ctrl-C cancels the task (tasks/cancel) and exits 130`, async () => {
      const child = spawn(
        MCPWIRE[0]!,
        [...MCPWIRE.slice(1), 'call', '--task', '--era', era, 'slow_compute', 'seconds=120', ...OURS],
        {
          cwd: ROOT,
          env: childEnv(),
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      const created = new Promise<void>((resolve) =>
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          if (TASK_LINE.test(stderr)) resolve();
        }),
      );
      const closed = once(child, 'close') as Promise<[number | null]>;
      await Promise.race([created, closed]);
      child.kill('SIGINT');
      const [code] = await closed;
      assert.equal(code, 130, stderr);
      assert.match(stderr, /^task \S+ cancelling \(Ctrl-C\)$/m);
      assert.match(stderr, /^task \S+ cancelled/m, 'the server confirmed the cancellation');
    });
  }

  test('the official everything server: its task-required tool as a task, a tool without task support called directly', async () => {
    const research = await runCli([
      'call',
      '--task',
      'simulate-research-query',
      'topic=tides',
      '--',
      ...OFFICIAL_EVERYTHING,
    ]);
    assert.equal(research.code, 0, research.stderr);
    assert.match(research.stdout, /^# Research Report: tides$/m);
    assert.match(research.stderr, /^task (\S+) working: .* \(polled every \d+ ms\)$/m);
    assert.match(research.stderr, /^task \S+ completed/m);
    const echo = await runCli(['call', '--task', 'echo', 'message=hi', '--', ...OFFICIAL_EVERYTHING]);
    assert.equal(echo.code, 0, echo.stderr);
    assert.match(echo.stdout, /hi/);
    assert.match(
      echo.stderr,
      /^task "echo" does not support tasks \(execution\.taskSupport\): called it directly$/m,
    );
  });
});

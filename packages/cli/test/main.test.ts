// The `mcpwire` command as a process: exit codes and stderr for usage errors, --help and --version,
// and `demo` running its whole scenario against a spawned `serve github`.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { CLI, ROOT } from '../../../test/support/raw-server-process.ts';

/** Runs the CLI from source to completion; resolves with its exit code and output. */
function runCli(
  args: readonly string[],
  timeoutMs = 20_000,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `mcpwire ${args.join(' ')} did not finish within ${timeoutMs} ms; stdout so far:\n${stdout}`,
        ),
      );
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the mcpwire command', { concurrency: 4 }, () => {
  for (const args of [
    [],
    ['serve'],
    ['serve', 'nope'],
    ['serve', 'everything', '--http', 'abc'],
    ['--bogus'],
    ['demo', 'extra'],
  ]) {
    test(`usage error: mcpwire ${args.join(' ')} exits 2 with one line on stderr`, async () => {
      const { code, stdout, stderr } = await runCli(args);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, /^mcpwire: [^\n]+\n$/);
    });
  }

  test('--version prints the package version; --help prints usage; both exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const shown = await runCli(['--version']);
    assert.deepEqual([shown.code, shown.stdout], [0, `${version}\n`]);
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: mcpwire <command>/);
    assert.match(help.stdout, /serve <name>/);
  });

  test('demo runs the whole scenario, prints both directions and exits 0', async () => {
    const { code, stdout } = await runCli(['demo'], 30_000);
    assert.equal(code, 0, stdout);
    const lines = stdout.split('\n');
    const wire = lines.filter(
      (line) => line.startsWith('host -> server ') || line.startsWith('server -> host '),
    );
    // Every wire line is one compact JSON-RPC message.
    for (const line of wire) assert.equal(JSON.parse(line.slice(line.indexOf('{'))).jsonrpc, '2.0');
    const sent = wire.filter((line) => line.startsWith('host -> server ')).map((line) => line.slice(15));
    const received = wire.filter((line) => line.startsWith('server -> host ')).map((line) => line.slice(15));
    assert.ok(sent.some((line) => line.includes('"method":"initialize"')));
    assert.ok(sent.some((line) => line.includes('"method":"notifications/cancelled"')));
    assert.ok(received.some((line) => line.includes('"method":"notifications/resources/list_changed"')));
    assert.equal(received.filter((line) => line.includes('"method":"notifications/progress"')).length, 5);
    assert.match(stdout, /negotiated protocol 2025-11-25/);
    assert.match(
      lines.filter((line) => line !== '').at(-1) ?? '',
      /^demo: done in .* search_code cancelled, server exit code 0$/,
    );
  });
});

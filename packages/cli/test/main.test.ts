// The `mcpwire` command as a process: help for every command (both spellings), usage errors as one
// line with exit 2, --version, colour only on a terminal, and `demo` in full and cut short by `head`.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MCPWIRE, ROOT, runCli, runCliIntoHead } from './support/cli-process.ts';
import { PtyProcess } from './support/pty-process.ts';

const COMMANDS = [
  'serve',
  'list',
  'call',
  'read',
  'get',
  'complete',
  'connect',
  'doctor',
  'check',
  'pin',
  'load',
  'tap',
  'bridge',
  'auth-server',
  'lint',
  'report',
  'replay',
  'demo',
];

describe('the mcpwire command', { concurrency: 4 }, () => {
  for (const args of [
    ['launch'],
    ['serve'],
    ['serve', 'everything', '--http', 'abc'],
    ['--bogus'],
    ['list'],
    ['call', 'http://127.0.0.1:9/mcp'],
    ['list', '--timeout', 'soon', 'x'],
    ['demo', 'extra'],
    ['demo', '--era', 'future'],
    ['bridge', '--', 'node', 'server.js'],
    ['bridge', '--http', '0'],
    ['bridge', '--http', '0', '--shared', 'http://127.0.0.1:9/mcp'],
  ]) {
    test(`usage error: mcpwire ${args.join(' ')} exits 2 with one line on stderr naming the help`, async () => {
      const { code, stdout, stderr } = await runCli(args);
      assert.equal(code, 2);
      assert.equal(stdout, '');
      assert.match(stderr, /^mcpwire: [^\n]+ \(see "mcpwire( \w+)? --help"\)\n$/);
    });
  }

  test('no command: the help on stderr, exit 2', async () => {
    const { code, stdout, stderr } = await runCli([]);
    assert.deepEqual([code, stdout], [2, '']);
    assert.match(stderr, /^Usage: mcpwire \[options\] \[command\]/);
  });

  test('--version and -v print the package version; --help lists every command; all exit 0', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'packages/cli/package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-v']) {
      const shown = await runCli([flag]);
      assert.deepEqual([shown.code, shown.stdout, shown.stderr], [0, `${version}\n`, '']);
    }
    const help = await runCli(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: mcpwire \[options\] \[command\]/);
    for (const command of COMMANDS) assert.match(help.stdout, new RegExp(`^  ${command} `, 'm'));
    assert.match(help.stdout, /^Exit codes:\n  0 done, 1 the server reported a failure/m);
    assert.doesNotMatch(help.stdout, /\x1b\[/, 'no colour off a terminal');
  });

  for (const command of COMMANDS) {
    test(`help for ${command}: "mcpwire ${command} --help" and "mcpwire help ${command}" print the same, with examples`, async () => {
      const [flag, word] = await Promise.all([runCli([command, '--help']), runCli(['help', command])]);
      assert.deepEqual([flag.code, flag.stderr, word.code], [0, '', 0]);
      assert.equal(flag.stdout, word.stdout);
      assert.match(flag.stdout, new RegExp(`^Usage: mcpwire ${command} \\[options\\]`));
      assert.match(flag.stdout, /\nExamples:\n {2}# .+\n {2}mcpwire /);
    });
  }

  test('help is coloured on a terminal, unless NO_COLOR is set', async () => {
    await using coloured = new PtyProcess([...MCPWIRE, 'list', '--help']);
    assert.equal((await coloured.exited).exitCode, 0);
    assert.match(coloured.raw, /\x1b\[1mUsage:/);
    await using plain = new PtyProcess([...MCPWIRE, 'list', '--help'], { env: { NO_COLOR: '1' } });
    assert.equal((await plain.exited).exitCode, 0);
    assert.match(plain.raw, /Usage: mcpwire list/);
    assert.doesNotMatch(plain.raw, /\x1b\[\d+m/);
  });

  test('"mcpwire demo | head -3" stops quietly: three lines, exit 0, nothing on stderr', async () => {
    const { head, code, stderr } = await runCliIntoHead(['demo'], 3);
    assert.equal(head.split('\n').length, 4, head);
    assert.match(head, /^mcpwire demo: a host drives/);
    assert.deepEqual([code, stderr], [0, '']);
  });
});

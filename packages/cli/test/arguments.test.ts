// The command-line grammar of `mcpwire`, in-process: every accepted form and every usage error.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseCommand, UsageError } from '../src/arguments.ts';

test('accepts serve <name>, demo, --help and --version', () => {
  assert.deepEqual(parseCommand(['serve', 'everything']), { kind: 'serve', server: 'everything' });
  assert.deepEqual(parseCommand(['serve', 'github']), { kind: 'serve', server: 'github' });
  assert.deepEqual(parseCommand(['demo']), { kind: 'demo' });
  assert.deepEqual(parseCommand(['--help']), { kind: 'help' });
  assert.deepEqual(parseCommand(['-h']), { kind: 'help' });
  assert.deepEqual(parseCommand(['serve', 'nope', '--version']), { kind: 'version' });
  assert.deepEqual(parseCommand(['-v']), { kind: 'version' });
  assert.deepEqual(parseCommand(['serve', 'everything', '--http', '3000']), {
    kind: 'serve',
    server: 'everything',
    port: 3000,
  });
  assert.deepEqual(parseCommand(['serve', 'github', '--http', '0']), {
    kind: 'serve',
    server: 'github',
    port: 0,
  });
});

test('rejects malformed command lines with a one-line UsageError', () => {
  const cases: Array<[string[], RegExp]> = [
    [[], /missing command/],
    [['launch'], /unknown command "launch"/],
    [['serve'], /needs a server name/],
    [['serve', 'nope'], /unknown server "nope"/],
    [['serve', 'github', 'extra'], /takes no further arguments/],
    [['serve', 'github', '--http', 'abc'], /port number from 0 to 65535, received "abc"/],
    [['serve', 'github', '--http', '65536'], /port number/],
    [['serve', 'github', '--http', '1.5'], /port number/],
    [['demo', '--http', '8080'], /applies to "serve" only/],
    [['demo', 'now'], /takes no arguments/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['serve', 'github', '--http'], /argument missing/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(
      () => parseCommand(argv),
      (error: unknown) =>
        error instanceof UsageError && message.test(error.message) && !error.message.includes('\n'),
      `argv ${JSON.stringify(argv)}`,
    );
  }
});

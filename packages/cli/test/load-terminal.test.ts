// `mcpwire load` on a terminal: the live progress line on stderr while it runs, and Ctrl-C, which
// stops sending, prints the report of what was measured so far and exits 130.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { FIXTURES, MCPWIRE } from './support/cli-process.ts';
import { Keys, PtyProcess } from './support/pty-process.ts';

const SERVER = join(FIXTURES, 'load-server.ts');

test('a progress line while it runs; Ctrl-C prints the report so far and exits 130', async () => {
  await using pty = new PtyProcess([
    ...MCPWIRE,
    'load',
    '--call',
    'echo',
    'message=tty',
    '--duration',
    '10m',
    '--warmup',
    '0',
    '-c',
    '2',
    '--',
    ...MCPWIRE,
    'serve',
    SERVER,
  ]);
  // The line is redrawn in place: `load <n> requests, <rate>/s, <errors> errors, <seconds> s`.
  await pty.waitFor(/load [1-9]\d* requests, \d+\/s, 0 errors, [\d.]+ s/);
  pty.write(Keys.ctrlC);
  const { exitCode } = await pty.exited;
  assert.equal(exitCode, 130, pty.text);
  assert.match(pty.text, /requests +[\d,]+ in [\d.]+ s/);
  assert.match(pty.text, /latency ms +min [\d.]+/);
});

// --max-message-size: the line limit of the client's stdio transport, from the command line. Past
// it the call fails at once, naming the size and the limit (not at its --timeout of 60 s, which would
// fail with a timeout's message and exit code instead). The bound is a hang guard only: two CLI runs
// that each start a server and move 2 MB took over 20 s on a loaded CI machine.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT, runCli } from './support/cli-process.ts';

const OFFICIAL = ['--', process.execPath, join(ROOT, 'test/interop/fixtures/official-v1-large-server.mjs')];

describe('mcpwire call --max-message-size', () => {
  test(
    'a result over the limit fails the call at once with exit 3, naming size and limit',
    { timeout: 120_000 },
    async () => {
      const run = await runCli([
        'call',
        'big',
        'bytes=2000000',
        '--max-message-size',
        '1000000',
        ...OFFICIAL,
      ]);
      assert.equal(run.code, 3, run.stderr);
      assert.match(run.stderr, /at least \d+ bytes, over the limit of 1000000 bytes/);
      const fits = await runCli(['call', 'big', 'bytes=2000000', '--json', ...OFFICIAL]);
      assert.equal(fits.code, 0, fits.stderr);
    },
  );
});

// `mcpwire tap`'s live lint: a server that logs to stdout has that line passed on to the host
// unchanged AND reported, one line per finding, on stderr or in the --log file, never on stdout.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { FIXTURES } from './support/cli-process.ts';
import { TapProcess } from '../../../test/support/tap-process.ts';

const NOISY = [process.execPath, join(FIXTURES, 'tap-noisy-server.mjs')];
const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';
const SERVER_BYTES = 'starting up, listening on stdio\n{"jsonrpc":"2.0","id":1,"result":{}}\n';
const FINDING =
  /^mcpwire tap: (\S+):(\d+) stdout-not-json error the server wrote a line to stdout that is no JSON-RPC message \(not JSON\): "starting up, listening on stdio"; .*\(STDIO-3\)$/m;

/**
 * Sends the ping and closes stdin once it is answered. Closing stdin is the host's shutdown: a server
 * still starting when it closes is sent SIGTERM 2 s later (as mcpwire's client does), which a loaded
 * machine can reach before the server has even started.
 */
async function endAfterAnswer(tap: TapProcess): Promise<void> {
  tap.child.stdin.write(PING);
  await tap.waitForLines(2);
  tap.child.stdin.end();
}

describe('mcpwire tap live lint', { concurrency: 2 }, () => {
  test("a non-JSON line on the server's stdout is forwarded as it is and reported on stderr at its transcript line", async () => {
    const record = join(mkdtempSync(join(tmpdir(), 'mcpwire-tap-lint-')), 'noisy.jsonl');
    await using tap = new TapProcess(['--record', record, '--', ...NOISY]);
    await endAfterAnswer(tap);
    assert.equal((await tap.exited).code, 0);
    assert.equal(tap.stdout.toString(), SERVER_BYTES);
    const [, file, line] = FINDING.exec(tap.stderr) ?? [];
    assert.equal(file, record, tap.stderr);
    const entry = JSON.parse(readFileSync(record, 'utf8').split('\n')[Number(line) - 1]!) as { type: string };
    assert.deepEqual(entry, {
      ...entry,
      type: 'invalid',
      from: 'server',
      text: 'starting up, listening on stdio',
    });
  });

  test('with --log the findings are appended to the file and stderr stays quiet; --no-lint reports nothing', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'mcpwire-tap-lint-')), 'tap.log');
    writeFileSync(log, 'an earlier run\n');
    {
      await using tap = new TapProcess(['--log', log, '--', ...NOISY]);
      await endAfterAnswer(tap);
      assert.equal((await tap.exited).code, 0);
      assert.equal(tap.stdout.toString(), SERVER_BYTES);
      assert.equal(tap.stderr, '');
    }
    const logged = readFileSync(log, 'utf8');
    assert.match(logged, /^an earlier run\nmcpwire tap: stdout-not-json error the server wrote a line/);
    assert.equal(logged.split('\n').filter((line) => line.startsWith('mcpwire tap:')).length, 1);
    await using quiet = new TapProcess(['--no-lint', '--', ...NOISY]);
    await endAfterAnswer(quiet);
    assert.equal((await quiet.exited).code, 0);
    assert.equal(quiet.stdout.toString(), SERVER_BYTES);
    assert.equal(quiet.stderr, '');
  });
});

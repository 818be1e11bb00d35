// Client.connect over real stdio spawns the server once, whatever the era probe meets (2026-07-28
// checklist section 3.2): silence, an exit during the probe, a server that never answers. Each start
// of the fixture appends its pid to a file, so the test counts processes, not connect calls.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { Client, ConnectClosedError, ConnectTimeoutError, createEraCache } from '../../client/index.ts';
import { ProcessExitError } from './process-errors.ts';
import { StdioClientTransport } from './stdio-client-transport.ts';

const SERVER = fileURLToPath(new URL('../../../test/fixtures/stdio/counting-server.mjs', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'mcpwire-spawn-'));
after(() => rmSync(directory, { recursive: true, force: true }));

const info = { name: 'spawn-once-test', version: '1.0.0' };
let serial = 0;

/** A transport to the counting server with `flags`; `starts()` reads how many processes it started. */
function countingServer(flags: string[]): { transport: StdioClientTransport; starts: () => number } {
  const file = join(directory, `starts-${serial++}`);
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, '--starts', file, ...flags],
    stderr: (text) => stderr.push(text),
    shutdownTimeoutMs: 500,
  });
  const starts = (): number => {
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      return 0;
    }
    return text.split('\n').filter((line) => line !== '').length;
  };
  return { transport, starts };
}

describe('Client.connect over stdio spawns the server once', { timeout: 20_000 }, () => {
  it('a server that ignores the probe: one process, initialize on the same stdin', async () => {
    const { transport, starts } = countingServer(['--ignore']);
    const client = new Client(info, { eraCache: false, probeTimeoutMs: 200 });
    await client.connect(transport);
    try {
      assert.equal(client.era, 'handshake');
      assert.deepEqual(client.serverInfo, { name: 'counting', version: '1' });
      assert.equal(starts(), 1);
    } finally {
      await client.close();
    }
  });

  it('a server that exits during the probe: one process, a failure with its exit code and stderr tail', async () => {
    const { transport, starts } = countingServer(['--exit', '3']);
    const cache = createEraCache();
    const client = new Client(info, { eraCache: cache, probeTimeoutMs: 5000 });
    await assert.rejects(client.connect(transport), (error: unknown) => {
      assert.ok(error instanceof ConnectClosedError, String(error));
      assert.equal(error.code, 'CONNECTION_CLOSED');
      assert.equal(error.step, 'server/discover');
      assert.ok(error.cause instanceof ProcessExitError);
      assert.equal(error.cause.exitCode, 3);
      assert.match(error.cause.stderrTail, /dying on server\/discover/);
      assert.match(
        error.message,
        /^server\/discover: the connection closed .*: Server process exited with code 3; last stderr output:\n[\s\S]*dying on server\/discover\n\(if it is a handshake-era server .*\)$/,
      );
      return true;
    });
    assert.equal(starts(), 1);
    assert.equal(cache.get(transport.key), undefined, 'an exit is no era verdict');
  });

  it('a server that never answers: one process, and the error names initialize', async () => {
    const { transport, starts } = countingServer(['--mute']);
    const client = new Client(info, { eraCache: false, probeTimeoutMs: 200, initializeTimeoutMs: 300 });
    await assert.rejects(client.connect(transport), (error: unknown) => {
      assert.ok(error instanceof ConnectTimeoutError, String(error));
      assert.equal(error.step, 'initialize');
      assert.match(error.message, /^initialize: no answer within 300 ms/);
      return true;
    });
    assert.equal(starts(), 1);
  });
});

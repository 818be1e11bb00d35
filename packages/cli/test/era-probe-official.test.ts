// The era probe against the official everything server (issue 22, items 4 and 5): our client's
// `server/discover` is refused by a handshake-era server (over HTTP a 400 "Server not initialized"
// with `id: null`, over stdio -32601), and that refusal is negotiation: replay --check does not
// re-send it, report names it as the probe, lint and the live lint of tap --http find nothing in it.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OFFICIAL_EVERYTHING, runCli } from './support/cli-process.ts';
import { startOfficialHttpServer, type HttpServer } from './support/http-servers.ts';
import { TapProcess } from '../../../test/support/tap-process.ts';

function scratch(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpwire-era-probe-')), name);
}

/** `mcpwire list <target...> tools --record <file>`; asserts it worked and that the probe is in the file. */
async function recordList(file: string, target: readonly string[]): Promise<void> {
  const listed = await runCli(['list', '--record', file, ...target]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(readFileSync(file, 'utf8'), /"method":"server\/discover"/);
}

describe('the era probe refused by the official everything server', { concurrency: 4 }, () => {
  let server: HttpServer;
  before(async () => {
    server = await startOfficialHttpServer();
  });
  after(async () => {
    await server[Symbol.asyncDispose]();
  });

  test('replay --check of an HTTP recording exits 0: the refused probe is not re-sent', async () => {
    const file = scratch('list.jsonl');
    await recordList(file, [server.url, 'tools']);
    const checked = await runCli(['replay', file, '--check', server.url]);
    assert.equal(checked.code, 0, `${checked.stdout}\n${checked.stderr}`);
    assert.match(checked.stdout, /same {5}tools\/list/);
    assert.doesNotMatch(checked.stdout, /server\/discover/);
  });

  test('report of an HTTP recording: the negotiated era, the probe named as such, no failure', async () => {
    const file = scratch('list.jsonl');
    await recordList(file, [server.url, 'tools']);
    const output = scratch('list.html');
    const reported = await runCli(['report', file, '-o', output]);
    assert.equal(reported.code, 0, reported.stderr);
    assert.match(reported.stdout, /\(\d+ messages, 0 failures\)/);
    const html = readFileSync(output, 'utf8');
    assert.match(html, /handshake era \(initialize, protocolVersion 2025-11-25\)/);
    assert.doesNotMatch(html, /stateless era/);
    assert.match(html, /era probe \(refused: handshake era\)/);
    assert.doesNotMatch(html, /class="failures"/);
  });

  test('report of a stdio recording: the -32601 answer to the probe is no failure either', async () => {
    const file = scratch('stdio.jsonl');
    await recordList(file, ['tools', '--', ...OFFICIAL_EVERYTHING]);
    const output = scratch('stdio.html');
    const reported = await runCli(['report', file, '-o', output]);
    assert.equal(reported.code, 0, reported.stderr);
    assert.match(reported.stdout, /\(\d+ messages, 0 failures\)/);
    const html = readFileSync(output, 'utf8');
    assert.match(html, /handshake era \(initialize, protocolVersion 2025-11-25\)/);
    assert.match(html, /era probe \(refused: handshake era\)/);
  });

  test('lint of an HTTP recording: no finding about the answer to our own probe', async () => {
    const file = scratch('list.jsonl');
    await recordList(file, [server.url, 'tools']);
    const linted = await runCli(['lint', file]);
    assert.equal(linted.code, 0, linted.stdout);
    assert.match(linted.stdout, /no findings/);
  });

  test('tap --http in front of it: the live lint prints no finding for the probe', async () => {
    const record = scratch('tap.jsonl');
    await using tap = new TapProcess(['--http', server.url, '--port', '0', '--record', record]);
    const [, url] = await tap.waitForStderr(/^mcpwire tap: forwarding (http:\/\/127\.0\.0\.1:\d+\S*) to /m);
    for (let round = 0; round < 2; round++) {
      const listed = await runCli(['list', url!, 'tools']);
      assert.equal(listed.code, 0, listed.stderr);
    }
    tap.child.kill('SIGTERM');
    assert.deepEqual(await tap.exited, { code: 0, signal: null });
    assert.deepEqual(tap.stderr.split('\n').slice(1), [''], tap.stderr);
    assert.match(readFileSync(record, 'utf8'), /"method":"server\/discover"/);
  });
});

// Secrets a client sends must not reach a recording, and a recording is readable by its owner only
// (issue 21, finding 3): credential-like header names (X-GitHub-Token, PRIVATE-TOKEN) and
// token-named tool arguments (github_token) are redacted; transcripts and reports are mode 0600.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli, startEverythingHttp } from '../support/cli-child.ts';
import { TapProcess } from '../../support/tap-process.ts';

const SECRET = 'hunter2-do-not-record';

function scratch(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpwire-secrets-')), name);
}

function modeOf(file: string): string {
  return (statSync(file).mode & 0o777).toString(8);
}

describe('secrets in recordings', { concurrency: 2 }, () => {
  test('the HTTP tap records neither X-GitHub-Token, PRIVATE-TOKEN nor a github_token argument; the transcript and its HAR are 0600', async () => {
    await using server = await startEverythingHttp();
    const record = scratch('tap.jsonl');
    await using tap = new TapProcess(['--no-lint', '--http', server.url, '--port', '0', '--record', record]);
    const [, url] = await tap.waitForStderr(/^mcpwire tap: forwarding (http:\/\/127\.0\.0\.1:\d+\S*) to /m);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'x-github-token': `${SECRET}-1`,
      'private-token': `${SECRET}-2`,
      'x-client-secret-key': `${SECRET}-3`,
    };
    const post = async (body: string): Promise<Response> => {
      const response = await fetch(url!, { method: 'POST', headers, body });
      await response.text();
      return response;
    };
    const init = await post(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    );
    headers['mcp-session-id'] = init.headers.get('mcp-session-id')!;
    await post('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const call = await post(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi","github_token":"${SECRET}-4","gitlabPrivateToken":"${SECRET}-5"}}}`,
    );
    assert.equal(call.status, 200);
    tap.child.kill('SIGTERM');
    assert.equal((await tap.exited).code, 0, tap.stderr);
    const text = readFileSync(record, 'utf8');
    assert.ok(text.includes('"tools/call"'), 'the call is recorded');
    assert.doesNotMatch(text, new RegExp(SECRET), 'no secret in the transcript');
    assert.equal(modeOf(record), '600');
    const har = `${record}.har`;
    const report = await runCli(['report', '--har', record, '-o', har]);
    assert.equal(report.code, 0, report.stderr);
    assert.doesNotMatch(readFileSync(har, 'utf8'), new RegExp(SECRET));
    assert.equal(modeOf(har), '600');
  });

  test('mcpwire call --record keeps a token-named argument out of the file, which is 0600', async () => {
    const record = scratch('call.jsonl');
    const result = await runCli([
      'call',
      'deep3k',
      `github_token=${SECRET}`,
      `api_secret=${SECRET}`,
      '--record',
      record,
      '--',
      process.execPath,
      join(import.meta.dirname, '..', 'hostile-server', 'fixtures', 'deep-json-server.mjs'),
    ]);
    assert.ok(readFileSync(record, 'utf8').includes('"tools/call"'), result.stderr);
    assert.doesNotMatch(readFileSync(record, 'utf8'), new RegExp(SECRET));
    assert.equal(modeOf(record), '600');
  });
});

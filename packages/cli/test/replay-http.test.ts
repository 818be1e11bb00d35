// `mcpwire replay <transcript> --http --port 0`: the mock on Streamable HTTP at 127.0.0.1, its URL on
// stderr off a terminal; our client gets what the live server answered in both eras, and a raw
// client sees JSON answers, a session id for initialize, 202 for notifications and the local checks.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, test } from 'node:test';
import { OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { startReplayHttp, tempDirectory } from './fixtures/replay/replay-processes.ts';

const OURS = ['--', ...OUR_EVERYTHING];
const ACCEPT = 'application/json, text/event-stream';

function post(url: string, body: object, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: ACCEPT, ...headers },
    body: JSON.stringify(body),
  });
}

/** A POST with a Host header of our choosing (fetch will not send one). */
function postWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', Accept: ACCEPT } },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    request.once('error', reject);
    request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

describe('the HTTP mock', { concurrency: 2 }, () => {
  test('handshake era: our client lists what the live server listed; JSON answers, a session, 202, Host and Origin checks', async () => {
    await using dir = await tempDirectory();
    const file = dir.file('list.jsonl');
    const live = await runCli(['list', '--era', 'handshake', '--record', file, ...OURS]);
    assert.equal(live.code, 0, live.stderr);
    await using mock = await startReplayHttp(file);
    assert.match(
      mock.stderr(),
      /^mcpwire: replaying .*list\.jsonl \(5 recorded answers\) over Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp; Ctrl-C stops\n$/,
    );
    const replayed = await runCli(['list', '--era', 'handshake', mock.url]);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.equal(replayed.stdout, live.stdout);

    // HTTP-8 and HTTP-25: a request gets its answer as application/json; initialize assigns a session.
    const init = await post(mock.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    assert.equal(init.status, 200);
    assert.match(init.headers.get('content-type') ?? '', /^application\/json/);
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    const { result } = (await init.json()) as { result: { protocolVersion: string } };
    assert.equal(result.protocolVersion, '2025-11-25');
    const headers = { 'Mcp-Session-Id': session, 'MCP-Protocol-Version': '2025-11-25' };
    // HTTP-7: a notification is accepted with 202 and no body.
    const initialized = await post(
      mock.url,
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      headers,
    );
    assert.equal(initialized.status, 202);
    assert.equal(await initialized.text(), '');
    const tools = await post(mock.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, headers);
    assert.equal(tools.status, 200);
    const listed = (await tools.json()) as { id: number; result: { tools: Array<{ name: string }> } };
    assert.equal(listed.id, 2);
    assert.equal(listed.result.tools[0]?.name, 'echo');
    // HTTP-2 and HTTP-3: a foreign Origin or Host header is refused (DNS rebinding).
    const foreign = await post(
      mock.url,
      { jsonrpc: '2.0', id: 3, method: 'ping' },
      { Origin: 'http://evil.example' },
    );
    assert.equal(foreign.status, 403);
    assert.equal(await postWithHost(mock.url, 'evil.example'), 403);
    assert.equal(await mock.stop(), 0);
  });

  test('2026-07-28: our client calls a tool as against the live server; an unrecorded method is 404 with -32601', async () => {
    await using dir = await tempDirectory();
    const file = dir.file('call.jsonl');
    const call = ['call', '--era', 'stateless', '--json'];
    const live = await runCli([...call, '--record', file, 'add_numbers', 'a=2', 'b=3', ...OURS]);
    assert.equal(live.code, 0, live.stderr);
    await using mock = await startReplayHttp(file);
    const replayed = await runCli([...call, mock.url, 'add_numbers', 'a=2', 'b=3']);
    assert.equal(replayed.code, 0, replayed.stderr);
    assert.deepEqual(JSON.parse(replayed.stdout), JSON.parse(live.stdout));
    // S26-HTTP-16: an unknown method is answered 404 with -32601, its id echoed (S26-HTTP-17).
    const unknown = await post(
      mock.url,
      {
        jsonrpc: '2.0',
        id: 7,
        method: 'prompts/list',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'prompts/list' },
    );
    assert.equal(unknown.status, 404);
    const body = (await unknown.json()) as { id: number; error: { code: number; message: string } };
    assert.equal(body.id, 7);
    assert.equal(body.error.code, -32601);
    assert.match(body.error.message, /the recording has no "prompts\/list" request/);
  });
});

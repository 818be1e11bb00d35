// A client that sends 2026-07-28 requests whose values nest 100,000 deep into the parts of our server
// that walk them (issue 21): the requestState binding of a tool's arguments (canonical JSON) and the
// error message for a malformed `subscriptions/listen` filter. Each gets its answer (an input request,
// a -32602), and the server answers the next request.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { STATELESS_VERSION } from '../../support/raw-mcp-http.ts';
import { startEverythingHttp } from '../support/cli-child.ts';

const DEPTH = 100_000;
const deepJson = (depth: number): string => '{"a":['.repeat(depth / 2) + '1' + ']}'.repeat(depth / 2);

const ENVELOPE =
  `"_meta":{"io.modelcontextprotocol/protocolVersion":"${STATELESS_VERSION}",` +
  '"io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}},' +
  '"io.modelcontextprotocol/clientInfo":{"name":"deep","version":"1"}}';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

/** POSTs one stateless-era request given as JSON text; resolves with its JSON-RPC response. */
async function post(url: string, method: string, name: string | undefined, body: string): Promise<Loose> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': STATELESS_VERSION,
    'mcp-method': method,
  };
  if (name !== undefined) headers['mcp-name'] = name;
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('text/event-stream')
    ? (text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)) as Loose)
        .find((message: Loose) => message.id !== undefined && message.method === undefined) as Loose)
    : (JSON.parse(text) as Loose);
  return json;
}

async function answersPing(url: string): Promise<void> {
  const pong = await post(
    url,
    'ping',
    undefined,
    `{"jsonrpc":"2.0","id":99,"method":"ping","params":{${ENVELOPE}}}`,
  );
  assert.deepEqual(pong?.result?.resultType ?? 'complete', 'complete', JSON.stringify(pong));
  assert.equal(pong.id, 99);
}

describe('a client sending 100,000-deep values to walkers of our server', { concurrency: 2 }, () => {
  test('tools/call with deep arguments to a tool that asks for input: the input request, with a requestState', async () => {
    await using server = await startEverythingHttp();
    const name = 'test_input_required_result_elicitation';
    const answer = await post(
      server.url,
      'tools/call',
      name,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":{"extra":${deepJson(DEPTH)}},${ENVELOPE}}}`,
    );
    assert.equal(answer?.result?.resultType, 'input_required', JSON.stringify(answer).slice(0, 500));
    assert.equal(typeof answer.result.requestState, 'string');
    await answersPing(server.url);
  });

  test('subscriptions/listen with deep taskIds: -32602 naming what was expected', async () => {
    await using server = await startEverythingHttp();
    const answer = await post(
      server.url,
      'subscriptions/listen',
      undefined,
      `{"jsonrpc":"2.0","id":2,"method":"subscriptions/listen","params":{"notifications":{"taskIds":${deepJson(DEPTH)}},${ENVELOPE}}}`,
    );
    assert.equal(answer?.error?.code, -32602, JSON.stringify(answer).slice(0, 500));
    assert.match(answer.error.message, /taskIds must be an array of task id strings, got an object/);
    await answersPing(server.url);
  });

  test('a 2026-07-28 request with a deep logLevel in _meta: -32602', async () => {
    await using server = await startEverythingHttp();
    const meta = ENVELOPE.replace(
      '"_meta":{',
      `"_meta":{"io.modelcontextprotocol/logLevel":${deepJson(DEPTH)},`,
    );
    const answer = await post(
      server.url,
      'tools/list',
      undefined,
      `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{${meta}}}`,
    );
    assert.equal(answer?.error?.code, -32602, JSON.stringify(answer).slice(0, 500));
    assert.match(answer.error.message, /logLevel/);
    await answersPing(server.url);
  });
});

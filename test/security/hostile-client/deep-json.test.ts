// A client that sends deeply nested JSON (issue 21): the HTTP tap passes a 50,000-deep POST on and
// records it (cut at the documented depth), and the next request on the session is answered; our
// own server answers a request whose params nest 100,000 deep, over stdio and over HTTP, and lives on.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { RawServerProcess } from '../../support/raw-server-process.ts';
import { readEntries, startEverythingHttp } from '../support/cli-child.ts';
import { TapProcess } from '../../support/tap-process.ts';

const deepJson = (depth: number, leaf: string): string =>
  '{"a":['.repeat(depth / 2) + leaf + ']}'.repeat(depth / 2);

/** tools/call echo with `_meta` and an extra argument nested `depth` levels deep (JSON text). */
const deepCall = (id: number, depth: number): string =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"message":"deep","extra":${deepJson(depth, '1')}},"_meta":${deepJson(depth, '2')}}}`;

/** A client speaking raw HTTP to one endpoint: initialize, then POSTs on its session. */
class RawHttpClient {
  #session: string | undefined;
  constructor(readonly url: string) {}

  async post(body: string): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    };
    if (this.#session !== undefined) headers['mcp-session-id'] = this.#session;
    const response = await fetch(this.url, { method: 'POST', headers, body });
    this.#session ??= response.headers.get('mcp-session-id') ?? undefined;
    return { status: response.status, text: await response.text() };
  }

  async initialize(): Promise<void> {
    const answer = await this.post(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"deep","version":"1"}}}',
    );
    assert.equal(answer.status, 200, answer.text);
    assert.ok(this.#session, 'the server gave a session');
    assert.equal((await this.post('{"jsonrpc":"2.0","method":"notifications/initialized"}')).status, 202);
  }
}

describe('a client sending deeply nested JSON', { concurrency: 2 }, () => {
  test('the HTTP tap forwards a 50,000-deep POST, records it cut, and answers the next request', async () => {
    await using server = await startEverythingHttp();
    const record = join(mkdtempSync(join(tmpdir(), 'mcpwire-deep-http-')), 'tap.jsonl');
    await using tap = new TapProcess(['--no-lint', '--http', server.url, '--port', '0', '--record', record]);
    const [, url] = await tap.waitForStderr(/^mcpwire tap: forwarding (http:\/\/127\.0\.0\.1:\d+\S*) to /m);
    const client = new RawHttpClient(url!);
    await client.initialize();
    const deep = await client.post(deepCall(2, 50_000));
    assert.equal(deep.status, 200, deep.text);
    assert.match(deep.text, /"id":2,"result":\{"content":\[\{"type":"text","text":"deep"\}\]/);
    const next = await client.post('{"jsonrpc":"2.0","id":3,"method":"tools/list"}');
    assert.equal(next.status, 200, next.text);
    assert.match(next.text, /"id":3,"result":\{"tools":/);
    tap.child.kill('SIGTERM');
    const exited = await tap.exited;
    assert.doesNotMatch(tap.stderr, /RangeError|call stack/);
    assert.equal(exited.code, 0, tap.stderr);
    const messages = readEntries(record).filter((entry) => entry.type === 'message');
    const idOf = (entry: (typeof messages)[number]): unknown => (entry.message as { id?: unknown }).id;
    const call = messages.find((entry) => entry.from === 'client' && idOf(entry) === 2);
    assert.ok(call, 'the deep request is recorded');
    assert.match(JSON.stringify(call.message), /\[mcpwire: cut, nested deeper than 1000 levels\]/);
    assert.ok(
      messages.some((entry) => entry.from === 'server' && idOf(entry) === 3),
      'the answer to the next request is recorded',
    );
  });

  test('our server answers params 100,000 deep over stdio and the next request too', async () => {
    await using server = new RawServerProcess(['serve', 'everything']);
    await server.initialize();
    await server.writeRaw(`${deepCall(50, 100_000)}\n`);
    const answer = await server.waitFor((message) => message.id === 50);
    assert.ok(answer.result !== undefined || answer.error !== undefined, JSON.stringify(answer));
    assert.deepEqual((await server.request('ping')).result, {});
  });

  test('our server answers params 100,000 deep over HTTP and the next request too', async () => {
    await using server = await startEverythingHttp();
    const client = new RawHttpClient(server.url);
    await client.initialize();
    const deep = await client.post(deepCall(2, 100_000));
    assert.ok(
      deep.status === 200 || deep.status === 400 || deep.status === 413,
      `${deep.status} ${deep.text}`,
    );
    assert.match(deep.text, /"id":2,|"id":null/);
    const next = await client.post('{"jsonrpc":"2.0","id":3,"method":"ping"}');
    assert.equal(next.status, 200, next.text);
    assert.match(next.text, /"id":3,"result":\{\}/);
  });
});

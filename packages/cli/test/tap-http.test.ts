// `mcpwire tap --http <url> --port 0` as a process between real clients and real servers on
// 127.0.0.1: our client and the library Client against `mcpwire serve everything --http`, and a
// hand-written upstream that shows exactly what arrives and when (streaming, aborts, headers).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { parseTranscript, type EventEntry, type MessageEntry } from '../src/wire/transcript.ts';
import { runCli } from './support/cli-process.ts';
import { startOurHttpServer } from './support/http-servers.ts';
import { TapProcess } from '../../../test/support/tap-process.ts';
import { freePort } from '../../../test/support/free-port.ts';

/** A tap in front of `upstream`; resolves once it has said where it listens. */
async function startTap(
  upstream: string,
  record: string,
  { isLinting = false } = {},
): Promise<{ tap: TapProcess; url: string }> {
  const lint = isLinting ? [] : ['--no-lint'];
  const tap = new TapProcess([...lint, '--http', upstream, '--port', '0', '--record', record]);
  const [, url] = await tap.waitForStderr(/^mcpwire tap: forwarding (http:\/\/127\.0\.0\.1:\d+\S*) to /m);
  return { tap, url: url! };
}

function scratch(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpwire-tap-http-')), name);
}

function readEntries(file: string): EventEntry[] {
  const transcript = parseTranscript(readFileSync(file, 'utf8'), file);
  assert.equal(transcript.header.transport, 'http');
  return transcript.entries;
}

type Loose = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function messagesOf(entries: readonly EventEntry[]): Array<MessageEntry & { message: Loose }> {
  return entries.filter((entry) => entry.type === 'message') as Array<MessageEntry & { message: Loose }>;
}

describe('mcpwire tap --http', { concurrency: 2 }, () => {
  test('our client and the library Client reach "serve everything --http" through it; SSE progress and a mid-stream elicitation pass; lint finds nothing', async () => {
    await using server = await startOurHttpServer();
    const record = scratch('everything.jsonl');
    // Live lint on (the default): this correct traffic gives no finding.
    const { tap, url } = await startTap(server.url, record, { isLinting: true });
    await using _tap = tap;
    assert.equal(new URL(url).pathname, '/mcp');

    // Our CLI through a tap of its own: the lint reads one tap's traffic as one client's session.
    const listRecord = scratch('list.jsonl');
    const { tap: listTap, url: listUrl } = await startTap(server.url, listRecord);
    await using _listTap = listTap;
    const listed = await runCli(['list', listUrl, 'tools']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^echo {2,}Returns the given message/m);
    listTap.child.kill('SIGTERM');
    assert.equal((await listTap.exited).code, 0);
    assert.ok(readFileSync(listRecord, 'utf8').includes('"method":"tools/list"'));

    const asked: string[] = [];
    const client = new Client(
      { name: 'tap-http-test', version: '1.0.0' },
      {
        era: 'handshake',
        handlers: {
          elicitation: (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
          },
        },
      },
    );
    await client.connect(new StreamableHttpClientTransport(url));
    const progress: number[] = [];
    await client.callTool(
      { name: 'test_tool_with_progress', arguments: {} },
      { onProgress: (update) => progress.push(update.progress) },
    );
    assert.deepEqual(progress, [0, 50, 100]);
    // The server asks while its POST's SSE stream is open and waits for the answer: a proxy that
    // held the stream back until it ended would never pass the question on, and the call would hang.
    const elicited = await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'Who are you?' },
    });
    assert.match(JSON.stringify(elicited.content), /ada/);
    assert.deepEqual(asked, ['Who are you?']);
    await client.close();
    tap.child.kill('SIGTERM');
    assert.deepEqual(await tap.exited, { code: 0, signal: null });
    assert.deepEqual(tap.stderr.split('\n').slice(1), [''], tap.stderr);

    const entries = readEntries(record);
    const requests = entries.filter((entry) => entry.type === 'http-request');
    assert.ok(requests.length >= 4);
    for (const request of requests) assert.equal(new URL(request.url).origin, new URL(server.url).origin);
    const all = messagesOf(entries);
    const call = all.find(
      (entry) => entry.from === 'client' && entry.message.params?.name === 'test_tool_with_progress',
    )!;
    const response = entries.find(
      (entry) => entry.type === 'http-response' && entry.exchange === call.exchange,
    );
    assert.match(
      (response as { headers: Record<string, string> }).headers['content-type'] ?? '',
      /^text\/event-stream/,
    );
    const streamed = all.filter((entry) => entry.from === 'server' && entry.exchange === call.exchange);
    assert.deepEqual(
      streamed.map((entry) => entry.message.method ?? 'result'),
      ['notifications/progress', 'notifications/progress', 'notifications/progress', 'result'],
    );
    assert.ok(streamed.every((entry) => typeof entry.eventId === 'string'));
    assert.ok(entries.some((entry) => entry.type === 'http-end' && entry.exchange === call.exchange));
    const question = all.find(
      (entry) => entry.from === 'server' && entry.message.method === 'elicitation/create',
    )!;
    const answer = all.find(
      (entry) =>
        entry.from === 'client' && entry.message.id === question.message.id && 'result' in entry.message,
    )!;
    assert.equal(answer.message.result.action, 'accept');
    assert.notEqual(answer.exchange, question.exchange);
  });

  test('several clients through one tap: handshake-era sessions started together, interleaved and in turn, 2026-07-28 requests side by side; lint finds nothing', async () => {
    await using server = await startOurHttpServer();
    const record = scratch('clients.jsonl');
    const { tap, url } = await startTap(server.url, record, { isLinting: true });
    await using _tap = tap;
    const connect = async (name: string, era: 'handshake' | 'stateless'): Promise<Client> => {
      const client = new Client({ name, version: '1.0.0' }, { era });
      await client.connect(new StreamableHttpClientTransport(url));
      return client;
    };
    const echo = (client: Client, message: string) =>
      client.callTool({ name: 'echo', arguments: { message } });

    // Two clients initializing at the same time, then both sessions open: each numbers its requests from the start.
    const [first, second] = await Promise.all([
      connect('first', 'handshake'),
      connect('second', 'handshake'),
    ]);
    await echo(first, 'one');
    await echo(second, 'two');
    await second.listTools();
    await first.listTools();
    await first.close();
    // A third client after the first has gone, while the second is still there.
    const third = await connect('third', 'handshake');
    await third.listTools();
    await echo(second, 'again');
    await third.close();
    await second.close();
    // 2026-07-28 clients have no session: their requests, with the same ids, are in flight together.
    const [left, right] = await Promise.all([connect('left', 'stateless'), connect('right', 'stateless')]);
    await Promise.all([left.listTools(), right.listTools(), echo(left, 'l'), echo(right, 'r')]);
    await left.close();
    await right.close();

    tap.child.kill('SIGTERM');
    assert.deepEqual(await tap.exited, { code: 0, signal: null });
    // Live lint on: nothing but the line that says where the tap listens.
    assert.deepEqual(tap.stderr.split('\n').slice(1), [''], tap.stderr);
    const entries = readEntries(record);
    const sessions = new Set(
      entries.flatMap((entry) =>
        entry.type === 'http-response' && entry.headers['mcp-session-id'] !== undefined
          ? [entry.headers['mcp-session-id']]
          : [],
      ),
    );
    assert.equal(sessions.size, 3, [...sessions].join(', '));
    const initializes = messagesOf(entries).filter((entry) => entry.message.method === 'initialize');
    assert.equal(initializes.length, 3);
    // The same transcript linted offline agrees.
    const linted = await runCli(['lint', record]);
    assert.equal(linted.code, 0, `${linted.stdout}${linted.stderr}`);
  });

  test('forwards method, path, query, end-to-end headers and body; streams SSE chunk by chunk; a client that leaves aborts upstream', async () => {
    await using upstream = await startUpstream();
    const record = scratch('raw.jsonl');
    const { tap, url } = await startTap(`${upstream.url}/mcp`, record);
    await using _tap = tap;
    const origin = new URL(url).origin;

    const body = '{ "jsonrpc": "2.0", "id": 1, "method": "ping" }';
    const echoed = await rawRequest(`${origin}/mcp/echo?a=1&b=two`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Test': 'kept',
        Connection: 'keep-alive, X-Drop-Me',
        'X-Drop-Me': 'dropped',
        'Keep-Alive': 'timeout=5',
        'Proxy-Authorization': 'Basic c2VjcmV0',
      },
      body,
    });
    assert.equal(echoed.status, 200);
    assert.equal(echoed.headers['x-upstream'], 'yes');
    const seen = upstream.requests.at(-1)!;
    assert.deepEqual([seen.method, seen.url, seen.body], ['POST', '/mcp/echo?a=1&b=two', body]);
    assert.equal(seen.headers['x-test'], 'kept');
    assert.equal(seen.headers.host, new URL(upstream.url).host);
    for (const name of ['x-drop-me', 'keep-alive', 'proxy-authorization'])
      assert.equal(seen.headers[name], undefined, name);

    // Event 2 is written only once event 1 has come out of the tap: a buffering proxy deadlocks here.
    const controller = new AbortController();
    const stream = await fetch(`${origin}/mcp/stream`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}',
      signal: controller.signal,
    });
    assert.equal(stream.headers.get('content-type'), 'text/event-stream');
    const reader = stream.body!.getReader();
    let text = await readUntil(reader, '', EVENT(1));
    upstream.openGate();
    text = await readUntil(reader, text, `${EVENT(1)}${EVENT(2)}`);
    assert.equal(text, `${EVENT(1)}${EVENT(2)}`);
    controller.abort();
    await upstream.streamClosed;

    tap.child.kill('SIGTERM');
    assert.equal((await tap.exited).code, 0);
    const entries = readEntries(record);
    const streamExchange = entries.find(
      (entry) => entry.type === 'http-request' && entry.url.endsWith('/mcp/stream'),
    );
    const exchange = (streamExchange as { exchange: number }).exchange;
    const streamed = messagesOf(entries).filter((entry) => entry.exchange === exchange);
    assert.deepEqual(
      streamed.map((entry) => [entry.from, entry.eventId ?? null]),
      [
        ['client', null],
        ['server', 'e1'],
        ['server', 'e2'],
      ],
    );
    assert.deepEqual(
      entries
        .filter((entry) => entry.type === 'http-end' && entry.exchange === exchange)
        .map((entry) => (entry as { error?: string }).error),
      ['closed by the client'],
    );
    const recorded = entries.find(
      (entry) => entry.type === 'http-request' && entry.url.endsWith('b=two'),
    ) as { headers: Record<string, string> };
    assert.equal(recorded.headers['x-test'], 'kept');
    assert.equal(recorded.headers['proxy-authorization'], undefined);
  });

  test('refuses what a local server refuses (Host, Origin, an oversized body) without forwarding it; 502 for an upstream that is down', async () => {
    await using upstream = await startUpstream();
    const { tap, url } = await startTap(`${upstream.url}/mcp`, scratch('refused.jsonl'));
    await using _tap = tap;
    const echo = `${new URL(url).origin}/mcp/echo`;
    const post = (headers: Record<string, string>, body = '{}') =>
      rawRequest(echo, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

    assert.equal((await post({ Host: 'attacker.example' })).status, 403);
    assert.equal((await post({ Origin: 'http://evil.example' })).status, 403);
    assert.equal((await post({ Origin: 'null' })).status, 403);
    for (const how of ['declared', 'streamed'] as const) {
      const big = await oversized(echo, 4 * 1024 * 1024 + 1, how);
      assert.deepEqual([big.status, big.body], [413, 'Payload Too Large: the limit is 4194304 bytes'], how);
    }
    assert.equal(upstream.requests.length, 0);
    assert.equal((await post({ Origin: 'http://localhost:5173' })).status, 200);
    assert.equal(upstream.requests.length, 1);

    const nobody = await freePort();
    const { tap: orphan, url: orphanUrl } = await startTap(
      `http://127.0.0.1:${nobody}/mcp`,
      scratch('down.jsonl'),
    );
    await using _orphan = orphan;
    const down = await rawRequest(orphanUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(down.status, 502);
    assert.match(
      down.body,
      /^Bad Gateway: mcpwire tap cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp \(.*ECONNREFUSED/,
    );
    assert.match(orphan.stderr, /cannot be reached: .*ECONNREFUSED/);
  });
});

const EVENT = (n: number): string =>
  `id: e${n}\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":${n}}}\n\n`;

/** A plain HTTP server standing in for an MCP server: it keeps what it receives and answers as told. */
async function startUpstream() {
  const requests: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> =
    [];
  let openGate: () => void = () => {};
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  let closeStream: () => void = () => {};
  const streamClosed = new Promise<void>((resolve) => (closeStream = resolve));
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    let body = '';
    incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    incoming.on('end', () => {
      requests.push({ method: incoming.method!, url: incoming.url!, headers: incoming.headers, body });
      if (incoming.url === '/mcp/stream') {
        outgoing.writeHead(200, { 'Content-Type': 'text/event-stream' });
        outgoing.write(EVENT(1));
        void gate.then(() => outgoing.write(EVENT(2)));
        outgoing.once('close', closeStream);
        return;
      }
      outgoing.writeHead(200, {
        'Content-Type': 'application/json',
        'X-Upstream': 'yes',
        Connection: 'keep-alive',
      });
      outgoing.end('{"jsonrpc":"2.0","id":1,"result":{}}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    openGate: () => openGate(),
    streamClosed,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** One request with any headers (fetch refuses Host, Connection and Keep-Alive). */
async function rawRequest(
  url: string,
  options: { method: string; headers: Record<string, string>; body: string },
): Promise<{ status: number; headers: IncomingMessage['headers']; body: string }> {
  const request = httpRequest(url, { method: options.method, headers: options.headers });
  request.on('error', () => {});
  request.end(options.body);
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  let body = '';
  response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
  await once(response, 'end');
  return { status: response.statusCode!, headers: response.headers, body };
}

/**
 * The answer to a POST of `length` bytes: declared by Content-Length and never sent, or streamed
 * chunked without a declared length (the tap stops reading at its limit and answers at once).
 */
async function oversized(
  url: string,
  length: number,
  how: 'declared' | 'streamed',
): Promise<{ status: number; body: string }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (how === 'declared') headers['Content-Length'] = String(length);
  const request = httpRequest(url, { method: 'POST', headers });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    // Writing on after the answer may meet a closed socket; only an error before it counts.
    request.on('error', reject);
  });
  if (how === 'declared') request.flushHeaders();
  else {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const write = (left: number): void => {
      if (left <= 0 || request.destroyed) return void request.end();
      if (request.write(chunk)) write(left - chunk.length);
      else request.once('drain', () => write(left - chunk.length));
    };
    write(length);
  }
  const response = await answered;
  request.removeAllListeners('error');
  request.on('error', () => {});
  let body = '';
  response.setEncoding('utf8').on('data', (text: string) => (body += text));
  await once(response, 'end');
  request.destroy();
  return { status: response.statusCode!, body };
}

/** Reads `reader` until the text read so far contains `marker`. */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  text: string,
  marker: string,
): Promise<string> {
  const decoder = new TextDecoder();
  while (!text.includes(marker)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before ${JSON.stringify(marker)}: ${text}`);
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

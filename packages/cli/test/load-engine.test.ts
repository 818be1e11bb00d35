// `mcpwire load`'s wire engine against a hand-written handshake-era HTTP server whose answers a test
// chooses: an answer as text/event-stream (with a notification first), a server request before the
// answer, the session expiring mid-run (404), a malformed HTTP answer. The command runs as a script
// runs it; the server records what it received. The engine's requests are told from the Client's
// by their ids (the engine counts from 2^40), so each test also proves the engine sent them.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { runCli } from './support/cli-process.ts';
import { completeBrowserStep, startCli, startProtectedServer } from './support/dev-auth-server.ts';

const ENGINE_IDS = 2 ** 30;

/** One tools/call as the server received it. */
interface Call {
  /** 1 for the first tools/call the server received. */
  n: number;
  id: number;
  session: string;
  request: IncomingMessage;
  response: ServerResponse;
}

interface RawServer extends AsyncDisposable {
  url: string;
  calls: Call[];
  initializes: number;
  /** The JSON-RPC responses the client POSTed (answers to the server's requests). */
  answers: Array<Record<string, unknown>>;
  /** Sessions that get 404 from now on. */
  expired: Set<string>;
  /** Resolves when the client has POSTed the answer to the server's request `id`. */
  answerTo(id: string): Promise<Record<string, unknown>>;
}

/** A 2025-11-25 server by hand: initialize, tools/list, and each tools/call handed to `onCall`. */
async function rawServer(onCall: (call: Call, server: RawServer) => void): Promise<RawServer> {
  const waiting = new Map<string, (answer: Record<string, unknown>) => void>();
  const http = createServer((request, response) => {
    if (request.method === 'DELETE') return void response.writeHead(200).end();
    if (request.method !== 'POST') return void response.writeHead(405, { allow: 'POST, DELETE' }).end();
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const session = request.headers['mcp-session-id'];
      const json = (result: unknown, headers: Record<string, string> = {}): void =>
        void response
          .writeHead(200, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      if (message.method === 'initialize') {
        server.initializes++;
        const params = message.params as { protocolVersion: string };
        return json(
          {
            protocolVersion: params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: 'raw', version: '0' },
          },
          { 'mcp-session-id': randomUUID() },
        );
      }
      if (typeof session !== 'string') return void response.writeHead(400).end();
      if (server.expired.has(session)) return void response.writeHead(404).end();
      if (message.method === undefined) {
        if (message.id !== undefined) {
          server.answers.push(message);
          waiting.get(String(message.id))?.(message);
        }
        return void response.writeHead(202).end();
      }
      if (message.id === undefined) return void response.writeHead(202).end();
      if (message.method === 'tools/list')
        return json({
          tools: [
            { name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } },
          ],
        });
      if (message.method !== 'tools/call') return json({});
      const call = { n: server.calls.length + 1, id: message.id as number, session, request, response };
      server.calls.push(call);
      onCall(call, server);
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const server: RawServer = {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    calls: [],
    initializes: 0,
    answers: [],
    expired: new Set(),
    answerTo: (id) => new Promise((resolve) => waiting.set(id, resolve)),
    [Symbol.asyncDispose]: async () => {
      http.closeAllConnections();
      http.close();
      await once(http, 'close');
    },
  };
  return server;
}

/** The tool result of `call` as a JSON answer. */
function answerJson(call: Call): void {
  call.response
    .writeHead(200, { 'content-type': 'application/json' })
    .end(
      JSON.stringify({ jsonrpc: '2.0', id: call.id, result: { content: [{ type: 'text', text: 'ok' }] } }),
    );
}

/** `mcpwire load <url> --call echo` with these extra options, --json parsed. */
async function load(url: string, ...extra: string[]) {
  const run = await runCli([
    'load',
    url,
    '--era',
    'handshake',
    '--call',
    'echo',
    'message=hi',
    '--json',
    ...extra,
  ]);
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as {
    totals: { requests: number; ok: number; errors: number };
    errors: { byKind: Array<{ kind: string; count: number; firstMessage: string }> };
  };
}

function engineCalls(server: RawServer): Call[] {
  return server.calls.filter((call) => call.id >= ENGINE_IDS);
}

describe('mcpwire load: the wire engine over HTTP', { concurrency: 2 }, () => {
  test('an answer as text/event-stream, a notification before the response, is read', async () => {
    await using server = await rawServer((call) => {
      const response = { jsonrpc: '2.0', id: call.id, result: { content: [{ type: 'text', text: 'sse' }] } };
      const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } };
      call.response.writeHead(200, { 'content-type': 'text/event-stream' });
      call.response.write(`event: message\ndata: ${JSON.stringify(note)}\n\n`);
      call.response.end(`id: 1\r\ndata: ${JSON.stringify(response)}\r\n\r\n`);
    });
    const result = await load(server.url, '-n', '30', '--warmup', '2', '-c', '2');
    assert.deepEqual([result.totals.requests, result.totals.ok, result.totals.errors], [30, 30, 0]);
    assert.ok(engineCalls(server).length >= 28, `the engine sent ${engineCalls(server).length} of 32 calls`);
  });

  test('a server request in the stream is answered with a JSON-RPC error, then the response read', async () => {
    await using server = await rawServer((call, raw) => {
      const id = `ask-${call.n}`;
      call.response.writeHead(200, { 'content-type': 'text/event-stream' });
      const ask = {
        jsonrpc: '2.0',
        id,
        method: 'sampling/createMessage',
        params: { messages: [], maxTokens: 1 },
      };
      call.response.write(`data: ${JSON.stringify(ask)}\n\n`);
      void raw.answerTo(id).then(() => {
        const response = { jsonrpc: '2.0', id: call.id, result: { content: [{ type: 'text', text: 'ok' }] } };
        call.response.end(`data: ${JSON.stringify(response)}\n\n`);
      });
    });
    const result = await load(server.url, '-n', '12', '--warmup', '1', '-c', '1');
    assert.deepEqual([result.totals.requests, result.totals.ok], [12, 12]);
    assert.equal(server.answers.length, 13, 'every server request was answered');
    for (const answer of server.answers)
      assert.equal(
        typeof (answer.error as { code?: unknown } | undefined)?.code,
        'number',
        JSON.stringify(answer),
      );
    assert.ok(engineCalls(server).length >= 11, `the engine sent ${engineCalls(server).length} of 13 calls`);
  });

  test('the session expiring mid-run (404) counts as session_expired and the connection initialises again', async () => {
    await using server = await rawServer((call, raw) => {
      if (call.n === 10) {
        raw.expired.add(call.session);
        return void call.response.writeHead(404).end();
      }
      answerJson(call);
    });
    const result = await load(server.url, '-n', '40', '--warmup', '0', '-c', '1');
    assert.deepEqual([result.totals.requests, result.totals.ok, result.totals.errors], [40, 39, 1]);
    assert.deepEqual(
      result.errors.byKind.map(({ kind, count }) => [kind, count]),
      [['session_expired', 1]],
    );
    assert.equal(server.initializes, 2, 'one handshake at the start, one after the 404');
    assert.equal(new Set(server.calls.slice(10).map((call) => call.session)).size, 1);
    assert.notEqual(
      server.calls[10]!.session,
      server.calls[0]!.session,
      'the calls after it use the new session',
    );
  });

  test('a malformed HTTP answer is counted as malformed_answer and the run goes on', async () => {
    await using server = await rawServer((call) => {
      if (call.n === 5 || call.n === 12) {
        // A Content-Length that is no number: no HTTP/1.1 client may guess where the body ends.
        call.response.socket!.end(
          'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1x\r\n\r\n{}',
        );
        return;
      }
      answerJson(call);
    });
    const result = await load(server.url, '-n', '30', '--warmup', '0', '-c', '2');
    assert.deepEqual([result.totals.requests, result.totals.ok, result.totals.errors], [30, 28, 2]);
    assert.deepEqual(
      result.errors.byKind.map(({ kind, count }) => [kind, count]),
      [['malformed_answer', 2]],
    );
    assert.ok(engineCalls(server).length >= 28, `the engine sent ${engineCalls(server).length} of 30 calls`);
  });
});

describe('mcpwire load: the wire engine with OAuth', { timeout: 600_000 }, () => {
  test("with OAuth, no request is refused: the engine sends the library's token, and after a 401 asks the library again", async () => {
    await using server = await startProtectedServer();
    const home = await mkdtemp(join(tmpdir(), 'mcpwire-load-oauth-'));
    try {
      const cli = startCli(
        [
          'load',
          server.url,
          '--call',
          'echo',
          'message=hi',
          '-n',
          '40',
          '--warmup',
          '0',
          '-c',
          '2',
          '--json',
        ],
        { XDG_DATA_HOME: join(home, 'data') },
      );
      await completeBrowserStep(cli);
      const done = await cli.done();
      assert.equal(done.code, 0, done.stderr);
      const result = JSON.parse(done.stdout) as { totals: { requests: number; ok: number; errors: number } };
      assert.deepEqual([result.totals.requests, result.totals.ok, result.totals.errors], [40, 40, 0]);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

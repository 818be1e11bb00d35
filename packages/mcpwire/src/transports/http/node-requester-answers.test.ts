// What the Streamable HTTP client reads from the answers of Node's pool (issue 26): a refusal's
// status, reason phrase and headers (repeats joined) in the HttpError, and a call cancelled while its
// JSON answer is half sent, whose socket closes. A hand-written server on 127.0.0.1.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, it } from 'node:test';
import { Client } from '../../client/index.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';
import { HttpError } from './http-errors.ts';

const CLIENT_INFO = { name: 'answers-test', version: '1.0.0' };
const HOLD = { name: 'hold', inputSchema: { type: 'object' } };

/** Answers one POSTed JSON-RPC request; undefined leaves the answer to the handler. */
type Answer = (message: { id?: number; method: string }, res: ServerResponse) => object | undefined;

/** A sessionless 2025-11-25 endpoint whose requests `answer` handles; its sockets are tracked. */
async function startServer(answer: Answer) {
  const open = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method: string };
      if (message.id === undefined) return void res.writeHead(202).end();
      const result = answer(message, res);
      if (result === undefined) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    open,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function initializeResult(): object {
  return {
    protocolVersion: '2025-11-25',
    capabilities: { tools: {} },
    serverInfo: { name: 'answers-server', version: '0.0.0' },
  };
}

function newClient(): Client {
  return new Client(CLIENT_INFO, {
    era: 'handshake',
    protocolVersion: '2025-11-25',
    eraCache: false,
    onError: () => {},
  });
}

describe("the client's reading of the pool's answers", { timeout: 60_000 }, () => {
  it('a refusal reaches the caller as HttpError with its status, reason phrase, headers (repeats joined) and body', async () => {
    await using served = await startServer((_message, res) => {
      res.writeHead(503, 'Busy Now', [
        ['Content-Type', 'text/plain'],
        ['Retry-After', '7'],
        ['X-Twice', 'a'],
        ['X-Twice', 'b'],
      ]);
      res.end('come back later');
      return undefined;
    });
    const client = newClient();
    const failure = await client
      .connect(new StreamableHttpClientTransport(served.url, { onError: () => {} }))
      .then(
        () => assert.fail('connected'),
        (error: unknown) => error,
      );
    await client.close();
    assert.ok(failure instanceof HttpError, String(failure));
    assert.equal(failure.status, 503);
    assert.match(failure.message, /503 Busy Now/);
    assert.equal(failure.body, 'come back later');
    assert.equal(failure.headers.get('retry-after'), '7');
    assert.equal(failure.headers.get('x-twice'), 'a, b');
  });

  it('a call cancelled while its JSON answer is half sent rejects as cancelled, and its socket closes', async () => {
    let held!: (res: ServerResponse) => void;
    const isHeld = new Promise<ServerResponse>((resolve) => (held = resolve));
    let calls = 0;
    await using served = await startServer((message, res) => {
      if (message.method === 'initialize') return initializeResult();
      if (message.method === 'tools/list') return { tools: [HOLD] };
      if (message.method !== 'tools/call') return {};
      if (++calls > 1) return { content: [{ type: 'text', text: 'answered' }] };
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"jsonrpc":"2.0",');
      held(res);
      return undefined;
    });
    const client = newClient();
    try {
      await client.connect(new StreamableHttpClientTransport(served.url, { onError: () => {} }));
      await client.listTools();
      const controller = new AbortController();
      const call = client.callTool({ name: 'hold' }, { signal: controller.signal });
      const res = await isHeld;
      const closed = once(res, 'close');
      controller.abort();
      await assert.rejects(call, { name: 'RequestCancelledError' });
      // Without the abort reaching the socket, the server would wait for the rest of the body forever.
      await closed;
      const next = await client.callTool({ name: 'hold' });
      assert.deepEqual(next.content, [{ type: 'text', text: 'answered' }]);
    } finally {
      await client.close();
    }
    await Promise.all([...served.open].map((socket) => once(socket, 'close')));
    assert.equal(served.open.size, 0);
  });

  it('closing the client while a JSON answer is half sent fails the call as closed, and its socket closes', async () => {
    let held!: (res: ServerResponse) => void;
    const isHeld = new Promise<ServerResponse>((resolve) => (held = resolve));
    await using served = await startServer((message, res) => {
      if (message.method === 'initialize') return initializeResult();
      if (message.method === 'tools/list') return { tools: [HOLD] };
      if (message.method !== 'tools/call') return {};
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"jsonrpc":"2.0",');
      held(res);
      return undefined;
    });
    const client = newClient();
    await client.connect(new StreamableHttpClientTransport(served.url, { onError: () => {} }));
    await client.listTools();
    const call = client.callTool({ name: 'hold' });
    const closed = once(await isHeld, 'close');
    await client.close();
    await assert.rejects(call, { name: 'ConnectionClosedError' });
    await closed;
    await Promise.all([...served.open].map((socket) => once(socket, 'close')));
    assert.equal(served.open.size, 0);
  });
});

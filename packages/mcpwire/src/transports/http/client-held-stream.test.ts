// HTTP-14 over real sockets: once a request's response has arrived, the client lets go of the SSE
// stream that carried it, even when the server holds that stream open: the POST's own stream, and a
// GET that resumed it with Last-Event-ID (HTTP-23). A stream left open would keep a socket, and the
// process, alive after `close` (seen as a conformance client that never exited).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '../../client/index.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';

type Handler = (request: IncomingMessage, body: Record<string, unknown>, response: ServerResponse) => void;

/** A handshake-era server on 127.0.0.1 whose tools/call is answered by `answerCall`. */
async function startServer(answerCall: Handler, onGet: Handler) {
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      if (request.method === 'GET') return onGet(request, {}, response);
      if (request.method === 'DELETE') return void response.writeHead(200).end();
      const body = JSON.parse(text) as Record<string, unknown>;
      if (body.method === 'initialize')
        return void response
          .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'held-1' })
          .end(
            JSON.stringify({
              jsonrpc: '2.0',
              id: body.id,
              result: {
                protocolVersion: '2025-11-25',
                capabilities: { tools: {} },
                serverInfo: { name: 'held', version: '1' },
              },
            }),
          );
      if (body.id === undefined) return void response.writeHead(202).end();
      if (body.method === 'tools/list')
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: body.id,
            result: { tools: [{ name: 'slow', inputSchema: { type: 'object' } }] },
          }),
        );
      answerCall(request, body, response);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

function sse(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
}

function resultEvent(id: unknown, eventId: string): string {
  const message = { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'done' }] } };
  return `id: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`;
}

const refuseGet: Handler = (_request, _body, response) => void response.writeHead(405).end();

test(
  'a POST stream the server holds open after the response is closed by the client (HTTP-14)',
  { timeout: 20_000 },
  async () => {
    let released: Promise<unknown> | undefined;
    const server = await startServer((_request, body, response) => {
      sse(response);
      response.write(resultEvent(body.id, 'e1'));
      released = once(response, 'close');
    }, refuseGet);
    const client = new Client({ name: 'held-test', version: '1' }, { era: 'handshake', eraCache: false });
    try {
      await client.connect(new StreamableHttpClientTransport(server.url));
      const result = await client.callTool({ name: 'slow', arguments: {} });
      assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
      // Before close: the client itself let go of the stream once the response arrived.
      await released;
    } finally {
      await client.close();
      await server.close();
    }
  },
);

test(
  'a resuming GET the server holds open after delivering the response is closed by the client',
  { timeout: 20_000 },
  async () => {
    let released: Promise<unknown> | undefined;
    let callId: unknown;
    const server = await startServer(
      (_request, body, response) => {
        callId = body.id;
        sse(response);
        // A priming event with an id and a short retry, then the server ends the POST stream.
        response.end('id: p1\nretry: 10\ndata: \n\n');
      },
      (request, _body, response) => {
        if (request.headers['last-event-id'] !== 'p1') return void response.writeHead(405).end();
        sse(response);
        response.write(resultEvent(callId, 'e2'));
        released = once(response, 'close');
      },
    );
    const client = new Client({ name: 'held-test', version: '1' }, { era: 'handshake', eraCache: false });
    try {
      await client.connect(new StreamableHttpClientTransport(server.url));
      const result = await client.callTool({ name: 'slow', arguments: {} });
      assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
      assert.ok(released, 'the call was answered on the resuming GET');
      await released;
    } finally {
      await client.close();
      await server.close();
    }
  },
);

/** A full garbage collection, as a loaded process would run one sooner or later. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

test(
  'close ends the standalone GET stream even after garbage collection (Node 20 fetch follows the signal weakly)',
  { timeout: 20_000 },
  async () => {
    let released: Promise<unknown> | undefined;
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    const server = await startServer(
      (_request, body, response) =>
        void response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: {} })),
      (_request, _body, response) => {
        sse(response);
        response.write('id: g1\ndata: \n\n');
        released = once(response, 'close');
        opened();
      },
    );
    const client = new Client({ name: 'held-test', version: '1' }, { era: 'handshake', eraCache: false });
    try {
      await client.connect(new StreamableHttpClientTransport(server.url));
      await isOpen;
      // The Request objects the abort travelled through are unreachable now: collect them.
      for (let round = 0; round < 3; round++) {
        collectGarbage();
        await new Promise((resolve) => setImmediate(resolve));
      }
      await client.close();
      await released;
    } finally {
      await server.close();
    }
  },
);

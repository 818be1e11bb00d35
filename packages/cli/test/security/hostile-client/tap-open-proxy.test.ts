// `mcpwire tap --http <upstream>` is a reverse proxy for one upstream, not an open proxy: a request
// target that names another origin (`//host:port/x`, absolute-form `http://host:port/x`, `/\host`),
// `*` or CONNECT gets 400 and reaches nobody, so a client's Authorization header never leaves for
// another server; an absolute http target in front of an https upstream no longer crashes the tap.
// Raw sockets with hand-written request lines against the real tap child; a second local server
// stands for "another origin" and must see no connection at all.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { TapProcess } from '../../../../../test/support/tap-process.ts';
import { freePort } from '../../../../../test/support/free-port.ts';

/** A server on 127.0.0.1 that answers 200 and keeps what it was asked; dispose to close it. */
async function startRecordingServer(): Promise<{
  server: Server;
  port: number;
  requests: Array<{ method: string; url: string; authorization: string | undefined }>;
  connections: () => number;
  [Symbol.asyncDispose]: () => Promise<void>;
}> {
  const requests: Array<{ method: string; url: string; authorization: string | undefined }> = [];
  let connections = 0;
  const server = createServer((request: IncomingMessage, response) => {
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      authorization: request.headers.authorization,
    });
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  server.on('connection', () => connections++);
  server.on('connect', (_request, socket) => {
    connections++;
    socket.destroy();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    server,
    port: (server.address() as AddressInfo).port,
    requests,
    connections: () => connections,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/** Writes `head` (CRLF added) to 127.0.0.1:`port`; resolves with all the bytes read until the server closes. */
async function rawExchange(port: number, head: string): Promise<string> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  let text = '';
  socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
  socket.write(`${head.replaceAll('\n', '\r\n')}\r\n`);
  await once(socket, 'close');
  return text;
}

/** The status code of a raw response, or `closed` when nothing came back. */
function statusOf(response: string): string {
  return /^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? `closed (${JSON.stringify(response)})`;
}

async function startTap(upstream: string, record: string): Promise<{ tap: TapProcess; port: number }> {
  const tap = new TapProcess(['--no-lint', '--http', upstream, '--port', '0', '--record', record]);
  const [, port] = await tap.waitForStderr(/^mcpwire tap: forwarding http:\/\/127\.0\.0\.1:(\d+)/m);
  return { tap, port: Number(port) };
}

describe('mcpwire tap --http refuses request targets that name another origin', () => {
  test('//host, absolute-form, /\\host, * and CONNECT get 400; the other server sees nothing; the tap keeps serving', async () => {
    const home = await mkdtemp(join(tmpdir(), 'mcpwire-tap-proxy-'));
    try {
      await using upstream = await startRecordingServer();
      await using other = await startRecordingServer();
      const { tap, port } = await startTap(`http://127.0.0.1:${upstream.port}/mcp`, join(home, 'tap.jsonl'));
      await using _tap = tap;
      const host = `Host: 127.0.0.1:${port}\nAuthorization: Bearer secret-token\nConnection: close\n`;
      const elsewhere = `127.0.0.1:${other.port}`;
      for (const line of [
        `GET //${elsewhere}/x HTTP/1.1`,
        `POST //${elsewhere}/mcp?x=1 HTTP/1.1`,
        `GET http://${elsewhere}/x HTTP/1.1`,
        `GET HTTP://${elsewhere}/x HTTP/1.1`,
        `POST https://${elsewhere}/mcp HTTP/1.1`,
        `GET /\\${elsewhere}/x HTTP/1.1`,
        `OPTIONS * HTTP/1.1`,
        `CONNECT ${elsewhere} HTTP/1.1`,
      ]) {
        const body = line.startsWith('POST') ? 'Content-Length: 2\n\n{}' : '';
        const response = await rawExchange(port, `${line}\n${host}\n${body}`);
        assert.equal(statusOf(response), '400', `${line} is refused with 400:\n${response}`);
      }
      assert.equal(other.connections(), 0, `the other origin got ${JSON.stringify(other.requests)}`);
      assert.equal(upstream.requests.length, 0, 'nothing of those went upstream either');

      // The tap still serves, in origin-form and in absolute-form naming the tap itself.
      assert.equal(statusOf(await rawExchange(port, `GET /mcp?a=1 HTTP/1.1\n${host}`)), '200');
      assert.equal(
        statusOf(await rawExchange(port, `GET http://127.0.0.1:${port}/mcp?b=2 HTTP/1.1\n${host}`)),
        '200',
      );
      assert.deepEqual(
        upstream.requests.map((request) => request.url),
        ['/mcp?a=1', '/mcp?b=2'],
      );
      assert.equal(upstream.requests[0]!.authorization, 'Bearer secret-token');
      assert.equal(other.connections(), 0);
      assert.equal(tap.child.exitCode, null, `the tap is running:\n${tap.stderr}`);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });

  test('an absolute http target in front of an https upstream: 400, and the tap keeps running', async () => {
    const home = await mkdtemp(join(tmpdir(), 'mcpwire-tap-proxy-'));
    try {
      await using other = await startRecordingServer();
      // Nothing listens upstream: what matters is that the tap answers, and lives.
      const closed = await freePort();
      const { tap, port } = await startTap(`https://127.0.0.1:${closed}/mcp`, join(home, 'tap.jsonl'));
      await using _tap = tap;
      const host = `Host: 127.0.0.1:${port}\nConnection: close\n`;
      const refused = await rawExchange(port, `GET http://127.0.0.1:${other.port}/x HTTP/1.1\n${host}`);
      assert.equal(statusOf(refused), '400', refused);
      const next = await rawExchange(port, `GET /mcp HTTP/1.1\n${host}`);
      assert.equal(statusOf(next), '502', `the tap still answers:\n${next}\n${tap.stderr}`);
      assert.equal(other.connections(), 0);
      assert.equal(tap.child.exitCode, null, `the tap is running:\n${tap.stderr}`);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});

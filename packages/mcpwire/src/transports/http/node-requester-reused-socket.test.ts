// Node's requester and a keep-alive socket the server closed while it sat idle in the pool: the
// server's close (its keep-alive timeout) can cross the client's next request on the wire, which then
// fails with ECONNRESET ("socket hang up") before any response byte. Node's documentation advises
// retrying such a request on a new socket (in that race the server closed before reading it). Seen as
// a bridge that waited for another process's OAuth login longer than the server's keep-alive timeout,
// then failed its retry. A raw server on 127.0.0.1 answers the first request of a connection and
// closes it when a second arrives (to the client, the same as the race).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { NodeRequester } from './node-requester.ts';

/** Answers one request per connection, `answer <n>` for the n-th connection; a second request on a connection closes it unanswered. */
async function oneRequestPerSocketServer(): Promise<
  AsyncDisposable & { url: URL; connections: () => number; refusedRequests: () => number }
> {
  let connections = 0;
  let refused = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    const connection = ++connections;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    let received = '';
    let requests = 0;
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
      // Each request here is headers and a one-byte body.
      while (received.includes('\r\n\r\n') && received.length >= received.indexOf('\r\n\r\n') + 5) {
        received = received.slice(received.indexOf('\r\n\r\n') + 5);
        requests++;
        if (requests > 1) {
          refused++;
          socket.destroy();
          return;
        }
        const body = `answer ${connection}`;
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`,
        );
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    connections: () => connections,
    refusedRequests: () => refused,
    [Symbol.asyncDispose]: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

test('a request that meets a reused socket the server closed is sent again on a new socket', async () => {
  await using server = await oneRequestPerSocketServer();
  // Any idle time counts as long enough here (the default, 1 s, would need a real wait).
  const requester = new NodeRequester({ keepAliveRaceIdleMs: 0 });
  await using _requester = { [Symbol.asyncDispose]: async () => requester.close() };
  const post = async (): Promise<string> => {
    const answer = await requester.request({
      method: 'POST',
      url: server.url,
      headers: { 'content-type': 'application/json' },
      body: '1',
      redirect: 'manual',
    });
    assert.equal(answer.status, 200);
    return (await answer.readText!(1_000)).text;
  };
  assert.equal(await post(), 'answer 1');
  assert.equal(await post(), 'answer 2', 'sent again on a new connection');
  assert.deepEqual([server.connections(), server.refusedRequests()], [2, 1]);
});

test('a socket cut right after it was reused (a server that read the request) is not retried', async () => {
  await using server = await oneRequestPerSocketServer();
  const requester = new NodeRequester({ keepAliveRaceIdleMs: 3_600_000 });
  await using _requester = { [Symbol.asyncDispose]: async () => requester.close() };
  const exchange = {
    method: 'POST',
    url: server.url,
    headers: {},
    body: '1',
    redirect: 'manual',
  } as const;
  const first = await requester.request(exchange);
  await first.readText!(1_000);
  await assert.rejects(requester.request(exchange), { code: 'ECONNRESET' });
  assert.deepEqual([server.connections(), server.refusedRequests()], [1, 1]);
});

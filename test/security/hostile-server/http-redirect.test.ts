// A server (or whatever answers at its URL) redirects the Streamable HTTP client to another origin
// with 307/308: fetch would re-send the POST body and the caller's own headers (`X-Api-Key`) there.
// Two real servers on 127.0.0.1 (two ports, two origins); the second must receive nothing, and the
// client fails with an error naming both origins.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';

async function listen(
  handle: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ origin: string; connections: () => number; [Symbol.asyncDispose]: () => Promise<void> }> {
  let connections = 0;
  const server = createServer(handle);
  server.on('connection', () => connections++);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

describe('the Streamable HTTP client and a cross-origin redirect', () => {
  for (const status of [307, 308])
    test(`${status} to another origin: refused, naming both origins; the other origin gets no header and no body`, async () => {
      const received: string[] = [];
      await using other = await listen((request, response) => {
        received.push(`${request.method} ${request.url} x-api-key=${request.headers['x-api-key']}`);
        request.resume();
        response.writeHead(500).end();
      });
      await using first = await listen((request, response) => {
        request.resume();
        response.writeHead(status, { location: `${other.origin}/mcp` }).end();
      });
      const client = new Client({ name: 'redirect-test', version: '1.0.0' });
      const transport = new StreamableHttpClientTransport(`${first.origin}/mcp`, {
        headers: { 'X-Api-Key': 'secret-key' },
        onError: () => {},
      });
      const failure = await client.connect(transport).then(
        () => assert.fail('connected through a cross-origin redirect'),
        (error: Error) => error,
      );
      await client.close().catch(() => {});
      assert.deepEqual(received, [], 'the other origin received the request');
      assert.equal(other.connections(), 0, 'no connection to the other origin');
      assert.ok(
        failure.message.includes(first.origin) && failure.message.includes(other.origin),
        `the error names both origins: ${failure.message}`,
      );
    });

  test('a Location that is not a URL: a clear error naming it, not a TypeError', async () => {
    await using first = await listen((request, response) => {
      request.resume();
      response.writeHead(307, { location: 'http://[::1' }).end();
    });
    const client = new Client({ name: 'redirect-test', version: '1.0.0' });
    const transport = new StreamableHttpClientTransport(`${first.origin}/mcp`, { onError: () => {} });
    const failure = await client.connect(transport).then(
      () => assert.fail('connected through a broken redirect'),
      (error: Error) => error,
    );
    await client.close().catch(() => {});
    assert.equal(failure.name, 'CrossOriginRedirectError', `${failure.name}: ${failure.message}`);
    assert.match(failure.message, /http:\/\/\[::1/);
  });

  test('in a browser (a manual redirect is opaque): a POST is not sent again, for the target is hidden', async () => {
    // Node's fetch never answers `opaqueredirect`; a browser does for every redirect under
    // `redirect: 'manual'`. This fetch reports each redirect from the real server that way.
    const posts: string[] = [];
    await using first = await listen((request, response) => {
      posts.push(`${request.method} ${request.url}`);
      request.resume();
      response.writeHead(307, { location: '/elsewhere' }).end();
    });
    const browserLikeFetch = async (input: Request): Promise<Response> => {
      const response = await fetch(input);
      if (input.redirect !== 'manual' || response.status < 300 || response.status >= 400) return response;
      await response.body?.cancel();
      const opaque = new Response(null, { status: 200 });
      Object.defineProperty(opaque, 'type', { value: 'opaqueredirect' });
      return opaque;
    };
    const client = new Client({ name: 'redirect-test', version: '1.0.0' });
    const transport = new StreamableHttpClientTransport(`${first.origin}/mcp`, {
      fetch: browserLikeFetch,
      onError: () => {},
    });
    const failure = await client.connect(transport).then(
      () => assert.fail('connected through a redirect'),
      (error: Error) => error,
    );
    await client.close().catch(() => {});
    assert.deepEqual(
      posts.filter((line) => line.startsWith('POST')),
      ['POST /mcp'],
      'the POST went once, to the URL the caller named',
    );
    assert.match(failure.message, /redirect/i);
  });
});

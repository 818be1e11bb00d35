// The deprecated HTTP+SSE transport (2024-11-05) from the client side: on its own (SseClientTransport)
// and as the fall back of a Streamable HTTP channel whose first initialize is refused (COMPAT-2).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ChannelLog,
  FakeHttpServer,
  jsonResponse,
  settle,
  SseResponder,
  type Received,
} from '../../../test/support/fake-http-server.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/message.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';
import { HttpError } from './http-errors.ts';
import { SseClientTransport } from './legacy-sse-client.ts';

const ENDPOINT = 'http://localhost:8080/sse';

const INITIALIZE: JsonRpcRequest = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'test', version: '1.0.0' } },
};

const INITIALIZE_RESULT = {
  jsonrpc: '2.0',
  id: 1,
  result: {
    protocolVersion: '2024-11-05',
    capabilities: { tools: {} },
    serverInfo: { name: 'old', version: '0.1' },
  },
};

/**
 * A 2024-11-05 server: GET /sse opens the stream and names `/messages?sessionId=42`; POSTs there are
 * answered 202 and their responses written to the stream. A POST to /sse itself gets `refusal`.
 */
function oldServer(refusal: () => Response = () => new Response('Cannot POST /sse', { status: 404 })) {
  const streams: SseResponder[] = [];
  const server = new FakeHttpServer((received: Received) => {
    const url = new URL(received.url);
    if (received.method === 'GET' && url.pathname === '/sse') {
      const sse = new SseResponder(received.signal);
      streams.push(sse);
      sse.send({ event: 'endpoint', data: '/messages?sessionId=42' });
      return sse.response;
    }
    if (received.method === 'POST' && url.pathname === '/messages') {
      const body = received.body as JsonObject;
      if (body.method === 'initialize') streams.at(-1)!.send({ event: 'message', data: INITIALIZE_RESULT });
      else if (body.method === 'tools/list')
        streams.at(-1)!.send({ data: { jsonrpc: '2.0', id: body.id, result: { tools: [] } } });
      return new Response('Accepted', { status: 202 });
    }
    return refusal();
  });
  return { server, streams };
}

describe('HTTP+SSE (2024-11-05) client', () => {
  it('SseClientTransport: connects once the endpoint is named, posts there, receives on the stream', async () => {
    const { server, streams } = oldServer();
    const transport = new SseClientTransport(ENDPOINT, {
      fetch: server.fetch,
      headers: { 'X-Api-Key': 'k' },
    });
    assert.equal(transport.key, 'sse:http://localhost:8080/sse');
    const channel = await transport.connect();
    assert.deepEqual(channel.info, {}, 'no request/response: answers come on the stream');
    const log = new ChannelLog(channel);
    assert.equal(server.requests[0]!.headers.get('accept'), 'text/event-stream');
    await channel.send(INITIALIZE);
    await log.waitForFrames(1);
    const post = server.requests[1]!;
    assert.equal(post.url, 'http://localhost:8080/messages?sessionId=42');
    assert.equal(post.headers.get('content-type'), 'application/json');
    assert.equal(post.headers.get('x-api-key'), 'k');
    assert.deepEqual(log.messages, [INITIALIZE_RESULT]);

    streams[0]!.close();
    await settle();
    assert.ok(log.closed?.error instanceof ConnectionClosedError, 'the stream ending closes the channel');
    await assert.rejects(
      channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      ConnectionClosedError,
    );
  });

  it('SseClientTransport: refuses an endpoint on another origin, and a refused GET', async () => {
    const elsewhere = new FakeHttpServer((received) => {
      const sse = new SseResponder(received.signal);
      sse.send({ event: 'endpoint', data: 'https://evil.example/messages' });
      return sse.response;
    });
    await assert.rejects(
      new SseClientTransport(ENDPOINT, { fetch: elsewhere.fetch }).connect(),
      /not on the origin/,
    );
    assert.equal(elsewhere.requests[0]!.signal.aborted, true);
    const refusing = new FakeHttpServer(() => new Response('no', { status: 401 }));
    await assert.rejects(
      new SseClientTransport(ENDPOINT, { fetch: refusing.fetch }).connect(),
      (error: unknown) => error instanceof HttpError && error.status === 401,
    );
  });

  it('SseClientTransport: gives up when no endpoint event arrives in time', async () => {
    const silent = new FakeHttpServer((received) => new SseResponder(received.signal).response);
    const transport = new SseClientTransport(ENDPOINT, { fetch: silent.fetch, endpointTimeoutMs: 1 });
    await assert.rejects(transport.connect(), /no endpoint event within 1 ms/);
  });

  for (const status of [400, 404, 405]) {
    it(`Streamable HTTP falls back when the first initialize gets ${status} without a stateless-era error`, async () => {
      const { server } = oldServer(() => new Response('<html>nope</html>', { status }));
      const channel = await new StreamableHttpClientTransport(ENDPOINT, { fetch: server.fetch }).connect();
      const log = new ChannelLog(channel);
      await channel.send(INITIALIZE);
      await log.waitForFrames(1);
      assert.deepEqual(
        server.requests.map((r) => `${r.method} ${new URL(r.url).pathname}`),
        ['POST /sse', 'GET /sse', 'POST /messages'],
      );
      assert.deepEqual(server.requests[2]!.body, INITIALIZE);
      assert.deepEqual(log.messages, [INITIALIZE_RESULT]);
      assert.equal(channel.info.isRequestResponse, undefined, 'HTTP+SSE answers on its stream');

      await channel.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await log.waitForFrames(2);
      assert.equal(new URL(server.requests.at(-1)!.url).pathname, '/messages');
      await channel.close();
      assert.equal(server.ofMethod('GET')[0]!.signal.aborted, true);
      assert.equal(server.ofMethod('DELETE').length, 0);
    });
  }

  it('does not fall back on a stateless-era error, nor on 401, nor for a stateless-era request', async () => {
    const stateless = {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found: initialize' },
    };
    const answers = [
      () => jsonResponse(stateless, { status: 404 }),
      () => new Response('no', { status: 401 }),
      () => new Response('no', { status: 404 }),
    ];
    let next = 0;
    const server = new FakeHttpServer(() => answers[next++]!());
    const transport = new StreamableHttpClientTransport(ENDPOINT, { fetch: server.fetch });
    const first = await transport.connect();
    const log = new ChannelLog(first);
    await first.send(INITIALIZE);
    assert.deepEqual(log.messages, [stateless]);
    await assert.rejects(
      (await transport.connect()).send(INITIALIZE),
      (e: unknown) => e instanceof HttpError && e.isRefusal === false,
    );
    const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    const discover: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta } };
    // 404 to a stateless-era request is the contract's refusal (issue 23): the era probe reads it as handshake.
    await assert.rejects(
      (await transport.connect()).send(discover),
      (e: unknown) => e instanceof HttpError && e.status === 404 && e.isRefusal === true,
    );
    assert.equal(server.ofMethod('GET').length, 0);
  });

  it('tries HTTP+SSE only for the first initialize of a channel', async () => {
    const server = new FakeHttpServer((received) =>
      received.method === 'GET' ? new Response('no', { status: 405 }) : new Response('bad', { status: 400 }),
    );
    const channel = await new StreamableHttpClientTransport(ENDPOINT, { fetch: server.fetch }).connect();
    new ChannelLog(channel);
    const error = await channel.send(INITIALIZE).then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 400, 'the original refusal is reported');
    assert.ok(
      error.cause instanceof HttpError && error.cause.status === 405,
      'the failed fall back is its cause',
    );
    await assert.rejects(channel.send({ ...INITIALIZE, id: 2 }), HttpError);
    assert.equal(server.ofMethod('GET').length, 1);
    assert.equal(channel.info.isRequestResponse, true, 'still Streamable HTTP');
  });
});

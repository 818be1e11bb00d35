// Resumability of the Streamable HTTP client under a fake clock (HTTP-10/11, HTTP-20..24, SEP-1699):
// the server's `retry`, Last-Event-ID, no loss and no duplicates, bounded attempts, and the
// stateless era's lack of resumption (S26-HTTP-8).

import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import {
  ChannelLog,
  FakeHttpServer,
  jsonResponse,
  resultFor,
  settle,
  SseResponder,
  type Received,
} from '../../../test/support/fake-http-server.ts';
import type { JsonObject, JsonRpcRequest } from '../../jsonrpc/message.ts';
import type { StreamableHttpClientChannel } from './client-channel.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';
import { ResponseStreamLostError } from './http-errors.ts';
import type { ReconnectionOptions } from './response-stream.ts';

const ENDPOINT = 'http://localhost/mcp';

function request(id: number, method: string, params: JsonObject = {}): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method, params };
}

const INITIALIZE = request(1, 'initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'test', version: '1.0.0' },
});

function progress(value: number): JsonObject {
  return {
    jsonrpc: '2.0',
    method: 'notifications/progress',
    params: { progressToken: 't', progress: value },
  };
}

/**
 * A handshake-era server whose tools/call answers and GETs are SSE streams the test drives:
 * `posts` and `gets` collect them in order.
 */
function streamingServer() {
  const posts: SseResponder[] = [];
  const gets: SseResponder[] = [];
  const server = new FakeHttpServer((received: Received) => {
    if (received.method === 'GET') {
      const sse = new SseResponder(received.signal);
      gets.push(sse);
      return sse.response;
    }
    if (received.method === 'DELETE') return new Response(null, { status: 204 });
    const body = received.body as JsonObject;
    if (body.method === 'initialize')
      return jsonResponse(
        resultFor(received, {
          protocolVersion: '2025-11-25',
          capabilities: {},
          serverInfo: { name: 's', version: '1' },
        }),
        { headers: { 'Mcp-Session-Id': 'sess-1' } },
      );
    if (body.id === undefined) return new Response(null, { status: 202 });
    const sse = new SseResponder(received.signal);
    posts.push(sse);
    return sse.response;
  });
  return { server, posts, gets };
}

async function open(
  server: FakeHttpServer,
  reconnection: Partial<ReconnectionOptions> = {},
  errors: Error[] = [],
): Promise<{ channel: StreamableHttpClientChannel; log: ChannelLog }> {
  const transport = new StreamableHttpClientTransport(ENDPOINT, {
    fetch: server.fetch,
    reconnection,
    onError: (error) => errors.push(error),
  });
  const channel = await transport.connect();
  const log = new ChannelLog(channel);
  await channel.send(INITIALIZE);
  return { channel, log };
}

/** Advances the fake clock by `ms` and lets the I/O that follows run. */
async function tick(t: TestContext, ms: number): Promise<void> {
  t.mock.timers.tick(ms);
  await settle();
}

describe('Streamable HTTP client resumability', () => {
  it('resumes a stream closed before its response with GET and Last-Event-ID after `retry` ms, without loss or duplicates', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { server, posts, gets } = streamingServer();
    const { channel, log } = await open(server);
    const response = { jsonrpc: '2.0', id: 2, result: { content: [] } };
    const sending = channel.send(request(2, 'tools/call', { name: 'slow' }));
    await server.waitForRequests(2);
    posts[0]!.send({ id: 'a-0', retry: 500, data: '' }).send({ id: 'a-1', data: progress(1) });
    await log.waitForFrames(2);
    posts[0]!.close();
    await settle();

    await tick(t, 499);
    assert.equal(gets.length, 0, 'no reconnection before the retry delay');
    await tick(t, 1);
    assert.equal(gets.length, 1);
    const get = server.requests.at(-1)!;
    assert.equal(get.method, 'GET');
    assert.equal(get.headers.get('last-event-id'), 'a-1');
    assert.equal(get.headers.get('mcp-session-id'), 'sess-1');
    assert.equal(get.headers.get('mcp-protocol-version'), '2025-11-25');
    assert.equal(get.headers.get('accept'), 'text/event-stream');

    // A server that replays from (not after) the last id sends a-1 again; it must not arrive twice.
    gets[0]!.send({ id: 'a-1', data: progress(1) });
    gets[0]!.send({ id: 'a-2', data: progress(2) });
    gets[0]!.send({ id: 'a-3', data: response });
    await sending;
    assert.deepEqual(log.messages.slice(1), [progress(1), progress(2), response]);
    assert.equal(gets[0]!.isCancelled, true, 'the resumed stream is released once the response arrived');
    await channel.close();
  });

  it('resumes a dropped connection after the backoff when the server gave no retry', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { server, posts, gets } = streamingServer();
    const { channel, log } = await open(server, { initialDelayMs: 1000 });
    const sending = channel.send(request(2, 'tools/call', { name: 'slow' }));
    await server.waitForRequests(2);
    posts[0]!.send({ id: '7', data: progress(1) });
    await log.waitForFrames(2);
    posts[0]!.fail();
    await settle();
    await tick(t, 999);
    assert.equal(gets.length, 0);
    await tick(t, 1);
    assert.equal(server.requests.at(-1)!.headers.get('last-event-id'), '7');
    gets[0]!.send({ id: '8', data: { jsonrpc: '2.0', id: 2, result: {} } });
    await sending;
    assert.equal(log.messages.length, 3);
    await channel.close();
  });

  it('gives up after maxAttempts reconnections without news; a delivered message starts the count again', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { server, posts, gets } = streamingServer();
    const { channel, log } = await open(server, { initialDelayMs: 100, maxDelayMs: 100, maxAttempts: 2 });
    const sending = channel.send(request(2, 'tools/call', { name: 'slow' }));
    const outcome = sending.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await server.waitForRequests(2);
    posts[0]!.send({ id: 'p0', data: '' }).close();
    await settle();

    await tick(t, 100);
    gets[0]!.send({ id: 'g1', data: progress(1) }).close(); // news: the count starts again
    await log.waitForFrames(2);
    await settle();
    await tick(t, 100);
    gets[1]!.send({ id: 'g2', data: '' }).close(); // only a priming event: no news
    await settle();
    await tick(t, 100);
    gets[2]!.send({ id: 'g3', data: '' }).close();
    await settle();
    await tick(t, 100);

    assert.equal(gets.length, 3);
    assert.deepEqual(
      server.ofMethod('GET').map((g) => g.headers.get('last-event-id')),
      ['p0', 'g1', 'g2'],
    );
    const error = await outcome;
    assert.ok(error instanceof ResponseStreamLostError, String(error));
    assert.match(error.message, /tools\/call.*2 reconnection attempts/);
    await channel.close();
  });

  it('cannot resume a stream that gave no event id', async () => {
    const { server, posts } = streamingServer();
    const { channel } = await open(server);
    const sending = channel.send(request(2, 'tools/call', { name: 'slow' }));
    await server.waitForRequests(2);
    posts[0]!.send({ data: progress(1) }).close();
    await assert.rejects(sending, /without an event id/);
    assert.equal(server.ofMethod('GET').length, 0);
    await channel.close();
  });

  it('does not resume in the stateless era: the request is lost (S26-HTTP-8)', async () => {
    const { server, posts } = streamingServer();
    const transport = new StreamableHttpClientTransport(ENDPOINT, { fetch: server.fetch });
    const channel = await transport.connect();
    const log = new ChannelLog(channel);
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const sending = channel.send(request(9, 'tools/call', { name: 'slow', _meta }));
    await server.waitForRequests(1);
    posts[0]!.send({ id: 'x', data: progress(1) });
    await log.waitForFrames(1);
    posts[0]!.fail();
    await assert.rejects(sending, ResponseStreamLostError);
    assert.equal(log.messages.length, 1);
    assert.equal(server.ofMethod('GET').length, 0);
    await channel.close();
  });

  it('fails a resumption the server refuses with 405 at once', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { server, posts } = streamingServer();
    const route = server.route;
    server.route = (received) =>
      received.method === 'GET' ? new Response(null, { status: 405 }) : route(received);
    const { channel } = await open(server);
    const sending = channel.send(request(2, 'tools/call', { name: 'slow' }));
    const outcome = sending.then(
      () => undefined,
      (error: unknown) => error,
    );
    await server.waitForRequests(2);
    posts[0]!.send({ id: 'p0', retry: 10, data: '' }).close();
    await settle();
    await tick(t, 10);
    const error = await outcome;
    assert.ok(error instanceof Error && 'status' in error && error.status === 405, String(error));
    assert.equal(server.ofMethod('GET').length, 1);
    await channel.close();
  });

  it('retries a GET stream whose first request fails before any headers (503, then a network error)', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { server, gets } = streamingServer();
    const route = server.route;
    let failures = 0;
    server.route = (received) => {
      if (received.method !== 'GET' || failures >= 2) return route(received);
      failures++;
      if (failures === 1) return new Response('busy', { status: 503 });
      throw new TypeError('fetch failed');
    };
    const errors: Error[] = [];
    const { channel, log } = await open(server, { initialDelayMs: 100 }, errors);
    await channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await settle();
    assert.equal(server.ofMethod('GET').length, 1);
    await tick(t, 100);
    assert.equal(server.ofMethod('GET').length, 2, 'retried after the initial delay');
    await tick(t, 150);
    assert.equal(server.ofMethod('GET').length, 3, 'and again, with backoff');
    assert.equal(gets.length, 1);
    gets[0]!.send({ id: 's-1', data: { jsonrpc: '2.0', method: 'notifications/tools/list_changed' } });
    await log.waitForFrames(2);
    assert.deepEqual(errors, []);
    await channel.close();
  });

  it('keeps the server GET stream going: resumes it after a drop, and ends the session cleanly on close', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { server, gets } = streamingServer();
    const { channel, log } = await open(server);
    await channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await settle();
    assert.equal(gets.length, 1);
    assert.equal(server.requests.at(-1)!.headers.get('last-event-id'), null);
    const listChanged = { jsonrpc: '2.0', method: 'notifications/tools/list_changed' };
    gets[0]!.send({ id: 's-1', retry: 2000, data: listChanged });
    await log.waitForFrames(2);
    gets[0]!.close();
    await settle();
    await tick(t, 1999);
    assert.equal(gets.length, 1);
    await tick(t, 1);
    assert.equal(gets.length, 2);
    assert.equal(server.requests.at(-1)!.headers.get('last-event-id'), 's-1');
    gets[1]!.send({ id: 's-2', data: listChanged });
    await log.waitForFrames(3);
    await channel.close();
    assert.equal(server.requests.at(-1)!.method, 'DELETE');
    assert.equal(server.ofMethod('GET')[1]!.signal.aborted, true);
  });
});

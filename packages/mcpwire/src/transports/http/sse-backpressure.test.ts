// A client that never reads its SSE stream (issue 13), over real sockets on 127.0.0.1: the server
// holds at most `maxSseBufferBytes` of its events besides the socket's buffers, then drops the
// connection; the events stay in the event store, and a GET with Last-Event-ID gets every one of
// them. With the bound turned off (Infinity) the same client pins the whole flood in server memory.

import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { RawConnection, rawRequest } from '../../../test/support/raw-socket.ts';
import { SseReader } from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';
import { serveHttp } from './node.ts';

/** Progress notifications the tool sends, each carrying this many characters: 48 MiB in all. */
const COUNT = 384;
const SIZE = 128 * 1024;
const BOUND = 1024 * 1024;
const JSON_HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** A server whose `flood` tool sends COUNT large progress notifications, then answers. */
async function floodServer(maxSseBufferBytes: number) {
  const server = createFixtureServer();
  let done!: () => void;
  const flooded = new Promise<void>((resolve) => (done = resolve));
  server.tool({ name: 'flood' }, async (_args, ctx) => {
    const message = 'x'.repeat(SIZE);
    for (let i = 1; i <= COUNT; i++) await ctx.sendProgress(i, { total: COUNT, message });
    done();
    return 'flooded';
  });
  const handler = createHttpHandler(server, { keepAliveMs: 0, onError: () => {}, maxSseBufferBytes });
  const handle = await serveHttp(handler, { port: 0 });
  /** The server's side of each exchange, by the client's port. */
  const responses = new Map<number, ServerResponse>();
  handle.server.on('request', (request: IncomingMessage, response: ServerResponse) =>
    responses.set(request.socket.remotePort ?? 0, response),
  );
  return { handle, flooded, responses, port: Number(new URL(handle.url).port) };
}

async function openSession(url: string): Promise<string> {
  const init = await fetch(url, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'slow', version: '1' } },
    }),
  });
  await init.text();
  const sessionId = init.headers.get('mcp-session-id') ?? assert.fail('no session id');
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...JSON_HEADERS, 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  assert.equal(initialized.status, 202);
  return sessionId;
}

/** POSTs tools/call flood on a raw socket, reads up to the priming event, then stops reading. */
async function callAndStall(
  port: number,
  sessionId: string,
): Promise<{ conn: RawConnection; primingId: string }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'flood', arguments: {}, _meta: { progressToken: 'p' } },
  });
  const conn = await RawConnection.open(port);
  conn.write(
    rawRequest(
      'POST',
      '/mcp',
      [
        ['Host', '127.0.0.1'],
        ...Object.entries(JSON_HEADERS),
        ['Mcp-Session-Id', sessionId],
        ['MCP-Protocol-Version', '2025-11-25'],
        ['Content-Length', String(body.length)],
      ],
      body,
    ),
  );
  const text = await conn.until(/\nid: ([^\n]+)\n/);
  conn.socket.pause();
  const primingId = /\nid: ([^\n]+)\n/.exec(text)?.[1] ?? assert.fail('no priming event');
  return { conn, primingId };
}

describe('a client that never reads its SSE stream', { timeout: 120_000 }, () => {
  test('past maxSseBufferBytes the connection is dropped; GET with Last-Event-ID replays every event and the result', async () => {
    const { handle, flooded, responses, port } = await floodServer(BOUND);
    await using _ = handle;
    const sessionId = await openSession(handle.url);
    const { conn, primingId } = await callAndStall(port, sessionId);
    await using _conn = conn;
    await flooded;
    const post = responses.get(conn.socket.localPort ?? -1);
    assert.ok(post, 'the server saw the POST');
    assert.match(conn.received, /content-type: text\/event-stream/i);
    if (!post.destroyed) await new Promise((resolve) => post.once('close', resolve));
    assert.equal(post.writableFinished, false, 'the server dropped the stream before it ended');
    const written = post.socket?.bytesWritten ?? 0;
    assert.ok(written < (COUNT * SIZE) / 2, `the server wrote ${written} bytes, far less than the flood`);

    // Everything is still in the event store: resume from the priming event.
    const resumed = await fetch(handle.url, {
      headers: {
        Accept: 'text/event-stream',
        'Mcp-Session-Id': sessionId,
        'MCP-Protocol-Version': '2025-11-25',
        'Last-Event-ID': primingId,
      },
    });
    assert.equal(resumed.status, 200);
    const reader = new SseReader(resumed);
    const progress: number[] = [];
    let result: unknown;
    for (let message = await reader.nextMessage(); message; message = await reader.nextMessage()) {
      if (message.method === 'notifications/progress')
        progress.push((message.params as { progress: number }).progress);
      else result = message.result;
    }
    assert.deepEqual(
      progress,
      Array.from({ length: COUNT }, (_v, i) => i + 1),
      'every event, once, in order',
    );
    assert.deepEqual((result as { content: unknown[] }).content, [{ type: 'text', text: 'flooded' }]);
  });

  test('without the bound (Infinity) the stalled connection stays open and the server holds the flood', async () => {
    const { handle, flooded, responses, port } = await floodServer(Infinity);
    await using _ = handle;
    const sessionId = await openSession(handle.url);
    const { conn } = await callAndStall(port, sessionId);
    await using _conn = conn;
    await flooded;
    const post = responses.get(conn.socket.localPort ?? -1);
    assert.ok(post);
    assert.equal(post.destroyed, false, 'the server still holds the connection');
    const written = post.socket?.bytesWritten ?? 0;
    const held = COUNT * SIZE - written;
    assert.ok(held > 10 * BOUND, `the server holds ${held} bytes of events for a client that does not read`);
  });
});

// The Node adapter under abuse over real sockets on 127.0.0.1 (issue 13): a slow request head or
// body (slowloris), an oversized head, repeated singleton headers, conflicting Content-Length and
// Transfer-Encoding, and valid JSON nested 100,000 deep. Each protection is shown twice: the
// protected server, and the same attack served (or let through) with the protection turned off.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { RawConnection, rawRequest } from '../../../test/support/raw-socket.ts';
import type { HttpRequestView } from './exchange.ts';
import { createHttpHandler, type HttpHandler } from './handler.ts';
import { createNodeListener, serveHttp, type FetchHandler, type ServeHttpOptions } from './node.ts';

const QUIET = { keepAliveMs: 0, onError: () => {} };
const DISCOVER = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 'node-limits', version: '1' },
    },
  },
});
const STATELESS: ReadonlyArray<readonly [string, string]> = [
  ['Host', '127.0.0.1'],
  ['Content-Type', 'application/json'],
  ['Accept', 'application/json, text/event-stream'],
  ['MCP-Protocol-Version', '2026-07-28'],
  ['Mcp-Method', 'server/discover'],
];
const discoverRequest = (extra: ReadonlyArray<readonly [string, string]> = []): string =>
  rawRequest('POST', '/mcp', [...STATELESS, ...extra, ['Content-Length', String(DISCOVER.length)]], DISCOVER);

/** A handler that counts the requests that reach it. */
function counted(handler: HttpHandler): FetchHandler & { reached: number; close(): Promise<void> } {
  const wrapper = Object.assign((request: Request) => handler(request), {
    reached: 0,
    exchange: (view: HttpRequestView) => {
      wrapper.reached++;
      return handler.exchange(view);
    },
    close: () => handler.close(),
  });
  return wrapper;
}

async function serve(options: Omit<ServeHttpOptions, 'port'> = {}) {
  const handler = counted(createHttpHandler(createFixtureServer(), QUIET));
  const handle = await serveHttp(handler, { port: 0, ...options });
  return {
    handler,
    handle,
    port: Number(new URL(handle.url).port),
    [Symbol.asyncDispose]: () => handle.close(),
  };
}

/** A bare node:http server on the listener (for protections that are node:http options we set). */
async function bareServer(options: Parameters<typeof createServer>[0]) {
  const handler = counted(createHttpHandler(createFixtureServer(), QUIET));
  const server: Server = createServer(options, createNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    handler,
    port: (server.address() as AddressInfo).port,
    async [Symbol.asyncDispose]() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await handler.close();
    },
  };
}

const STATUS = /^HTTP\/1\.1 (\d{3})/;
const statusOf = (text: string): number => Number(STATUS.exec(text)?.[1]);

describe('slowloris: a request sent one byte at a time', { timeout: 60_000 }, () => {
  test('a slow head gets 408 and the connection closed at headersTimeoutMs; without the limit the same client is served', async () => {
    await using guarded = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 5_000 });
    await using open = await serve({ headersTimeoutMs: Infinity, requestTimeoutMs: Infinity });
    await using slow = await RawConnection.open(guarded.port);
    await using patient = await RawConnection.open(open.port);
    const bytes = discoverRequest();
    const head = bytes.slice(0, bytes.indexOf('\r\n\r\n'));
    // Both get the same bytes at the same pace, until the guarded server gives up.
    let sent = 0;
    for (const byte of head) {
      if (slow.isClosed) break;
      slow.write(byte);
      patient.write(byte);
      sent++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await slow.closed;
    assert.ok(sent < head.length, 'the guarded server closed the connection before the head was complete');
    assert.equal(statusOf(slow.received), 408);
    assert.equal(guarded.handler.reached, 0, 'no request reached the handler');
    assert.equal(patient.isClosed, false, 'the unguarded server still holds the slow connection');
    patient.write(bytes.slice(sent));
    assert.equal(statusOf(await patient.until(/\r\n\r\n\{.*\}$/s)), 200);
  });

  test('a slow body gets 408 and the connection closed at requestTimeoutMs; without the limit the same client is served', async () => {
    await using guarded = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    await using open = await serve({ headersTimeoutMs: Infinity, requestTimeoutMs: Infinity });
    await using slow = await RawConnection.open(guarded.port);
    await using patient = await RawConnection.open(open.port);
    const bytes = discoverRequest();
    const bodyAt = bytes.indexOf('\r\n\r\n') + 4;
    slow.write(bytes.slice(0, bodyAt));
    patient.write(bytes.slice(0, bodyAt));
    let sent = bodyAt;
    for (const byte of bytes.slice(bodyAt)) {
      if (slow.isClosed) break;
      slow.write(byte);
      patient.write(byte);
      sent++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await slow.closed;
    assert.ok(sent < bytes.length, 'the guarded server closed the connection before the body was complete');
    assert.equal(statusOf(slow.received), 408);
    assert.equal(patient.isClosed, false, 'the unguarded server still holds the slow connection');
    patient.write(bytes.slice(sent));
    assert.equal(statusOf(await patient.until(/\r\n\r\n\{.*\}$/s)), 200);
  });

  test('the defaults are well under Node’s own (60 s head, 300 s request)', async () => {
    await using served = await serve();
    assert.equal(served.handle.server.headersTimeout, 10_000);
    assert.equal(served.handle.server.requestTimeout, 30_000);
  });
});

describe('malformed and hostile request heads', { timeout: 60_000 }, () => {
  test('a head over maxHeaderBytes is 431 and closed, unseen by the handler; a larger limit serves it', async () => {
    const big: [string, string] = ['X-Padding', 'p'.repeat(20_000)];
    await using guarded = await serve();
    await using conn = await RawConnection.open(guarded.port);
    conn.write(discoverRequest([big]));
    await conn.closed;
    assert.equal(statusOf(conn.received), 431);
    assert.equal(guarded.handler.reached, 0);
    await using roomy = await serve({ maxHeaderBytes: 64 * 1024 });
    await using conn2 = await RawConnection.open(roomy.port);
    conn2.write(discoverRequest([big]));
    assert.equal(statusOf(await conn2.until(/\r\n\r\n\{.*\}$/s)), 200);
  });

  for (const [name, first, second] of [
    ['Content-Type', 'application/json', 'text/plain'],
    ['MCP-Protocol-Version', '2026-07-28', '2025-11-25'],
    ['Mcp-Session-Id', 'a', 'b'],
  ] as const) {
    test(`a repeated ${name} is 400 naming the header`, async () => {
      await using guarded = await serve();
      await using conn = await RawConnection.open(guarded.port);
      const headers = STATELESS.filter(([header]) => header !== name);
      const body = DISCOVER;
      conn.write(
        rawRequest(
          'POST',
          '/mcp',
          [...headers, [name, first], [name, second], ['Content-Length', String(body.length)]],
          body,
        ),
      );
      const text = await conn.until(/\r\n\r\n\{.*\}$/s);
      assert.equal(statusOf(text), 400);
      assert.match(text, new RegExp(`the ${name.toLowerCase()} header must appear once`));
    });
  }

  test('without joinDuplicateHeaders Node keeps the first Content-Type and drops the second: the request is served', async () => {
    // The unprotected behaviour our adapter turns off: the handler never sees the repetition.
    await using bare = await bareServer({});
    await using conn = await RawConnection.open(bare.port);
    conn.write(discoverRequest([['Content-Type', 'text/plain']]));
    assert.equal(statusOf(await conn.until(/\r\n\r\n\{.*\}$/s)), 200);
  });

  test('Content-Length with Transfer-Encoding is 400 from the parser and closed; no request reaches the handler', async () => {
    const smuggle = rawRequest(
      'POST',
      '/mcp',
      [...STATELESS, ['Content-Length', '4'], ['Transfer-Encoding', 'chunked']],
      `${DISCOVER.length.toString(16)}\r\n${DISCOVER}\r\n0\r\n\r\n`,
    );
    await using guarded = await serve();
    await using conn = await RawConnection.open(guarded.port);
    conn.write(smuggle);
    await conn.closed;
    assert.equal(statusOf(conn.received), 400);
    assert.equal(guarded.handler.reached, 0);
    // Node's lenient parser (never enabled by serveHttp) lets the same bytes through.
    await using lenient = await bareServer({ insecureHTTPParser: true });
    await using conn2 = await RawConnection.open(lenient.port);
    conn2.write(smuggle);
    await conn2.until(/^HTTP\/1\.1 \d{3}/);
    assert.equal(lenient.handler.reached, 1);
  });

  test('two different Content-Length values are 400 and closed, unseen by the handler', async () => {
    await using guarded = await serve();
    await using conn = await RawConnection.open(guarded.port);
    conn.write(
      rawRequest(
        'POST',
        '/mcp',
        [...STATELESS, ['Content-Length', String(DISCOVER.length)], ['Content-Length', '2']],
        DISCOVER,
      ),
    );
    await conn.closed;
    assert.equal(statusOf(conn.received), 400);
    assert.equal(guarded.handler.reached, 0);
  });
});

describe('valid JSON nested 100,000 levels deep', { timeout: 60_000 }, () => {
  const depth = 100_000;
  const deepArray = '['.repeat(depth) + ']'.repeat(depth);
  const deepObject = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

  test('in tool arguments, in initialize capabilities, or as the whole body: a clear answer, no crash, the server serves on', async () => {
    const errors: Error[] = [];
    const handler = createHttpHandler(createFixtureServer(), {
      keepAliveMs: 0,
      onError: (e) => errors.push(e),
    });
    await using handle = await serveHttp(handler, { port: 0 });
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(handle.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });
    const meta =
      '{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},' +
      '"io.modelcontextprotocol/clientInfo":{"name":"deep","version":"1"}}';
    const call = await post(
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"message":${deepArray}},"_meta":${meta}}}`,
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'echo' },
    );
    assert.equal(call.status, 200);
    const result = (await call.json()) as { result: { isError: boolean; content: Array<{ text: string }> } };
    assert.equal(result.result.isError, true);
    assert.match(result.result.content[0]?.text ?? '', /message: must be string/);

    const init = await post(
      `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":${deepObject}},"clientInfo":{"name":"deep","version":"1"}}}`,
    );
    assert.equal(init.status, 200);
    assert.equal(
      ((await init.json()) as { result: { protocolVersion: string } }).result.protocolVersion,
      '2025-11-25',
    );

    const bare = await post(deepArray);
    assert.equal(bare.status, 400);
    assert.equal(((await bare.json()) as { error: { code: number } }).error.code, -32600);

    const after = await post(DISCOVER, {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'server/discover',
    });
    assert.equal(after.status, 200);
    assert.deepEqual(errors, [], 'nothing failed inside the handler');
  });
});

// A client that opens handshake-era sessions without end (issue 21): over real sockets on 127.0.0.1
// (mcpwire/node, small caps), a client past its own cap loses its own longest-idle session and no one
// else's; at the global cap the longest-idle session goes and the newcomer is admitted; with
// authentication the cap counts per principal, not per address; an evicted session releases its
// server session and ends its streams.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { describe, test } from 'node:test';
import { createHttpHandler, type ChannelServer, type HttpHandlerOptions } from 'mcpwire/http';
import { serveHttp, type HttpServerHandle } from 'mcpwire/node';
import { Server } from 'mcpwire/server';

const VERSION = '2025-11-25';
/** Client X and client Y: two source addresses on the loopback network. */
const X = { address: '127.0.0.1' };
const Y = { address: '127.0.0.2' };

/** Where a request comes from: its source address, and a bearer token if any. */
interface Source {
  address?: string;
  token?: string;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request from `source`, on a connection of its own; `response` resolves with the response head. */
function start(
  url: string,
  init: { method?: string; body?: object; session?: string; accept?: string },
  source: Source,
): { request: ReturnType<typeof httpRequest>; response: Promise<IncomingMessage> } {
  const headers: Record<string, string> = { Accept: init.accept ?? 'application/json' };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  if (init.session !== undefined) {
    headers['Mcp-Session-Id'] = init.session;
    headers['MCP-Protocol-Version'] = VERSION;
  }
  if (source.token !== undefined) headers.Authorization = `Bearer ${source.token}`;
  const request = httpRequest(url, {
    method: init.method ?? 'POST',
    headers,
    agent: false,
    ...(source.address === undefined ? {} : { localAddress: source.address }),
  });
  const response = new Promise<IncomingMessage>((resolve, reject) => {
    request.on('response', (incoming) => {
      // A connection the test or the server's close cuts is expected here, not a failure.
      incoming.on('error', () => {});
      resolve(incoming);
    });
    request.on('error', reject);
  });
  request.end(init.body === undefined ? undefined : JSON.stringify(init.body));
  return { request, response };
}

async function send(
  url: string,
  init: { body: object; session?: string; accept?: string },
  source: Source,
): Promise<Reply> {
  const response = await start(url, init, source).response;
  response.setEncoding('utf8');
  let body = '';
  response.on('data', (chunk: string) => (body += chunk));
  await once(response, 'end');
  return { status: response.statusCode ?? 0, headers: response.headers, body };
}

/** Opens a session from `source` (initialize, then notifications/initialized); resolves with its id. */
async function openSession(url: string, source: Source): Promise<string> {
  const params = {
    protocolVersion: VERSION,
    capabilities: { elicitation: {} },
    clientInfo: { name: 'c', version: '1' },
  };
  const reply = await send(url, { body: { jsonrpc: '2.0', id: 1, method: 'initialize', params } }, source);
  assert.equal(reply.status, 200, `initialize from ${JSON.stringify(source)}: ${reply.body}`);
  const session = reply.headers['mcp-session-id'];
  assert.ok(typeof session === 'string', 'initialize answered with a session id');
  const ack = await send(
    url,
    { body: { jsonrpc: '2.0', method: 'notifications/initialized' }, session },
    source,
  );
  assert.equal(ack.status, 202, ack.body);
  return session;
}

/** The status of a ping in `session`: 200 while it lives, 404 once it is gone. */
async function ping(url: string, session: string, source: Source): Promise<number> {
  return (await send(url, { body: { jsonrpc: '2.0', id: 7, method: 'ping' }, session }, source)).status;
}

/** Opens the session's GET stream; resolves once it is open, with `ended`, a promise of its end. */
async function openStream(
  url: string,
  session: string,
  source: Source,
): Promise<{ ended: Promise<unknown> }> {
  const response = await start(url, { method: 'GET', session, accept: 'text/event-stream' }, source).response;
  assert.equal(response.statusCode, 200);
  response.resume();
  const ended = once(response, 'end');
  ended.catch(() => {}); // awaited only for the sessions the test evicts
  return { ended };
}

/** Starts `tools/call ask` in `session` and resolves once the server asks back: the request is in flight. */
async function startAsking(url: string, session: string, source: Source) {
  const body = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'ask', arguments: {} } };
  const call = start(url, { body, session, accept: 'application/json, text/event-stream' }, source);
  const response = await call.response;
  response.setEncoding('utf8');
  let text = '';
  await new Promise<void>((resolve) => {
    response.on('data', (chunk: string) => {
      text += chunk;
      if (text.includes('elicitation/create')) resolve();
    });
  });
  return { [Symbol.dispose]: () => call.request.destroy() };
}

/** A server with `ask` (it waits for the client's answer) and a count of its live sessions. */
function countedServer(): { server: ChannelServer; live: () => number } {
  const inner = new Server({ name: 'caps', version: '1.0.0' });
  inner.tool({ name: 'ask' }, async (_args, ctx) => {
    await ctx.elicit({
      mode: 'form',
      message: 'Go on?',
      requestedSchema: { type: 'object', properties: {} },
    });
    return 'asked';
  });
  let live = 0;
  const server: ChannelServer = {
    connect(channel) {
      live++;
      return inner.connect({
        ...(channel.info === undefined ? {} : { info: channel.info }),
        open: (receiver) =>
          channel.open({
            handleFrame: (frame) => receiver.handleFrame(frame),
            handleClose: (error) => {
              live--;
              receiver.handleClose(error);
            },
          }),
        send: (message, options) => channel.send(message, options),
        close: () => channel.close(),
      });
    },
  };
  return { server, live: () => live };
}

async function serve(options: HttpHandlerOptions): Promise<HttpServerHandle & { live: () => number }> {
  const { server, live } = countedServer();
  const handle = await serveHttp(createHttpHandler(server, { keepAliveMs: 0, ...options }), { port: 0 });
  return Object.assign(handle, { live });
}

describe('session caps against a client that opens sessions without end', { timeout: 60_000 }, () => {
  test('past its own cap, client X loses its own oldest idle session; client Y is still served', async () => {
    await using handle = await serve({ maxSessions: 4, maxSessionsPerClient: 3 });
    const { url } = handle;
    const first = await openSession(url, X);
    const firstStream = await openStream(url, first, X);
    const second = await openSession(url, X);
    const rest = [await openSession(url, X), await openSession(url, X), await openSession(url, X)];
    const y = await openSession(url, Y);
    assert.equal(await ping(url, first, X), 404, 'X’s oldest idle session was evicted by X’s own newcomers');
    assert.equal(await ping(url, second, X), 404);
    for (const session of rest) assert.equal(await ping(url, session, X), 200, 'X’s newest sessions work');
    assert.equal(await ping(url, y, Y), 200, 'Y initialised and is served');
    await firstStream.ended; // the evicted session's GET stream ended
    assert.equal(handle.live(), 4, 'three of X and one of Y');
  });

  test('at the global cap the longest-idle session is evicted and the newcomer admitted', async () => {
    await using handle = await serve({ maxSessions: 3 });
    const { url } = handle;
    const a = await openSession(url, X);
    const b = await openSession(url, Y);
    const c = await openSession(url, X);
    assert.equal(await ping(url, a, X), 200, 'a is now the most recently used');
    const d = await openSession(url, Y);
    assert.equal(await ping(url, b, Y), 404, 'b, the longest idle, was evicted');
    for (const [session, source] of [
      [a, X],
      [c, X],
      [d, Y],
    ] as const) {
      assert.equal(await ping(url, session, source), 200);
    }
    assert.equal(handle.live(), 3);
  });

  test('a session with a request in flight is not evicted; when every session has one, 503', async () => {
    await using handle = await serve({ maxSessions: 2 });
    const { url } = handle;
    const busy = await openSession(url, X);
    using _asking = await startAsking(url, busy, X);
    const idle = await openSession(url, X);
    const newcomer = await openSession(url, Y);
    assert.equal(await ping(url, idle, X), 404, 'the idle session went, though the busy one is older');
    assert.equal(await ping(url, busy, X), 200);
    using _asking2 = await startAsking(url, newcomer, Y);
    const params = { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'c', version: '1' } };
    const refused = await send(url, { body: { jsonrpc: '2.0', id: 1, method: 'initialize', params } }, Y);
    assert.equal(refused.status, 503, refused.body);
    assert.match(refused.body, /Too many sessions \(the limit is 2\), each with a request in progress/);
    assert.equal(refused.headers['retry-after'], '30', 'the idle sweep runs every 30 min / 60');
  });

  test('with authentication the cap counts per principal: two principals on one address each get theirs', async () => {
    await using handle = await serve({
      maxSessionsPerClient: 2,
      // The test authorizer of the HTTP auth tests: the bearer token names the principal.
      authenticate: (request) => {
        const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
        return Promise.resolve(token === undefined ? undefined : { principal: token });
      },
    });
    const { url } = handle;
    const alice = { ...X, token: 'alice' };
    const bob = { ...X, token: 'bob' };
    const a = [await openSession(url, alice), await openSession(url, alice)];
    const b = [await openSession(url, bob), await openSession(url, bob)];
    for (const session of a) assert.equal(await ping(url, session, alice), 200, 'alice’s own two');
    for (const session of b) assert.equal(await ping(url, session, bob), 200, 'bob’s own two');
    const third = await openSession(url, alice);
    assert.equal(await ping(url, a[0]!, alice), 404, 'alice’s third evicted her own oldest');
    for (const session of [a[1]!, third]) assert.equal(await ping(url, session, alice), 200);
    for (const session of b) assert.equal(await ping(url, session, bob), 200, 'bob kept both');
  });

  test('an evicted session releases its server session and its streams', async () => {
    await using handle = await serve({ maxSessions: 3 });
    const { url } = handle;
    const ended: Promise<unknown>[] = [];
    for (let n = 0; n < 9; n++) {
      const session = await openSession(url, X);
      ended.push((await openStream(url, session, X)).ended);
    }
    assert.equal(handle.live(), 3, 'only the three newest server sessions are open');
    await Promise.all(ended.slice(0, 6)); // the six evicted sessions' GET streams ended
    await handle.close();
    assert.equal(handle.live(), 0);
  });
});

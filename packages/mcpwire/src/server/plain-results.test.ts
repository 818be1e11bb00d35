// The serve path's fast path (ServerCore.dispatch, PLAIN_HANDLERS): a synchronous tool's result is
// answered without a promise only where nothing could tell. Whatever is registered (middleware, even
// after the first call; an extension's wrap: extensions/tasks/task-tool-call.test.ts) sees exactly what
// it saw before: a promise.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../jsonrpc/message.ts';
import { callInBothEras, connectRawPeer } from '../../test/support/task-peer.ts';
import { Server } from './server.ts';

const ECHO = { name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } };

function echoServer(options: ConstructorParameters<typeof Server>[1] = {}): Server {
  const server = new Server({ name: 'plain', version: '1' }, options);
  server.tool(ECHO, (args) => ({ content: [{ type: 'text', text: String(args.message) }] }));
  return server;
}

function textOf(result: JsonObject): unknown {
  return (result.content as Array<{ text?: unknown }>)[0]?.text;
}

test('middleware registered after the first call sees every later call, and next() is a promise', async () => {
  const server = echoServer();
  const client = connectRawPeer(server);
  await client.initialize();
  const before = await client.peer.request('tools/call', { name: 'echo', arguments: { message: 'first' } });
  assert.equal(textOf(before), 'first');
  const seen: Array<{ method: string; isPromise: boolean }> = [];
  server.use(({ method }, next) => {
    const result = next();
    seen.push({ method, isPromise: result instanceof Promise });
    return result.then((value) => ({ ...value, content: [{ type: 'text', text: 'through middleware' }] }));
  });
  const handshake = await client.peer.request('tools/call', { name: 'echo', arguments: { message: 'x' } });
  const stateless = await connectRawPeer(server).stateless('tools/call', {
    name: 'echo',
    arguments: { message: 'y' },
  });
  assert.equal(textOf(handshake), 'through middleware');
  assert.equal(textOf(stateless), 'through middleware');
  assert.deepEqual(seen, [
    { method: 'tools/call', isPromise: true },
    { method: 'tools/call', isPromise: true },
  ]);
  await server.close();
});

test('a tool that returns a thenable (not a Promise) is answered with what it resolves to, in both eras', async () => {
  const server = new Server({ name: 'plain', version: '1' });
  server.tool(
    ECHO,
    (args) =>
      ({
        then(resolve: (value: unknown) => void) {
          resolve({ content: [{ type: 'text', text: `later ${String(args.message)}` }] });
        },
      }) as never,
  );
  const { handshake, stateless } = await callInBothEras(server, 'echo');
  assert.equal(textOf(handshake), 'later a');
  assert.equal(textOf(stateless), 'later b');
  assert.equal(stateless.resultType, 'complete');
  await server.close();
});

test('a synchronous result is still adapted to an older revision and decorated in the stateless era', async () => {
  const server = new Server({ name: 'plain', version: '1' });
  server.tool({ name: 'link' }, () => ({
    content: [{ type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' }],
  }));
  const old = connectRawPeer(server);
  await old.peer.request('initialize', {
    protocolVersion: '2025-03-26',
    capabilities: {},
    clientInfo: { name: 'old', version: '1' },
  });
  await old.peer.notify('notifications/initialized');
  const adapted = await old.peer.request('tools/call', { name: 'link', arguments: {} });
  assert.equal((adapted.content as Array<{ type: string }>)[0]?.type, 'text');
  const stateless = await connectRawPeer(server).stateless('tools/call', { name: 'link', arguments: {} });
  assert.equal(stateless.resultType, 'complete');
  assert.deepEqual((stateless._meta as JsonObject)['io.modelcontextprotocol/serverInfo'], {
    name: 'plain',
    version: '1',
  });
  assert.equal((stateless.content as Array<{ type: string }>)[0]?.type, 'resource_link');
  await server.close();
});

test('a synchronous tool’s progress and log notifications still go out before its response', async () => {
  const server = new Server({ name: 'plain', version: '1' }, { capabilities: { logging: {} } });
  server.tool({ name: 'chatty' }, (_args, ctx) => {
    void ctx.sendProgress(1, { total: 2 });
    void ctx.log('info', 'working');
    return 'done';
  });
  const client = connectRawPeer(server);
  await client.initialize();
  await client.peer.request('logging/setLevel', { level: 'debug' });
  const order: string[] = [];
  const result = client.peer
    .request('tools/call', { name: 'chatty', arguments: {}, _meta: { progressToken: 't' } })
    .then((value) => {
      order.push(`response with ${client.notifications.length} notifications`);
      return value;
    });
  assert.equal(textOf(await result), 'done');
  assert.deepEqual(
    client.notifications.map((n) => n.method),
    ['notifications/progress', 'notifications/message'],
  );
  assert.deepEqual(order, ['response with 2 notifications']);
  await server.close();
});

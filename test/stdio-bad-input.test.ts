// Bad input over real stdio (BASE-9, STDIO-1..3) to `mcpwire serve everything`: each gets the exact
// JSON-RPC error and the next valid request is still served. (The client's side, a server printing
// stray lines, is packages/mcpwire/test/stdio-noisy-server.test.ts.)

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { RawServerProcess } from './support/raw-server-process.ts';

const servers: RawServerProcess[] = [];
after(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function start(): Promise<RawServerProcess> {
  const server = new RawServerProcess(['serve', 'everything']);
  servers.push(server);
  return server;
}

/** Sends raw text, then expects exactly one error response with `code` (and `id` when given). */
async function expectError(server: RawServerProcess, text: string, code: number, id?: number): Promise<void> {
  const before = server.received.length;
  await server.writeRaw(text);
  const response = await server.waitFor(
    (message, index = server.received.indexOf(message)) => index >= before && message.error !== undefined,
  );
  assert.equal(response.error.code, code, `for ${text.slice(0, 80)}`);
  assert.equal(response.id, id);
  const ping = await server.request('ping');
  assert.deepEqual(ping.result, {}, 'the next valid request is still served');
}

test('before initialize: only initialize and ping; anything else is -32600', async () => {
  const server = await start();
  await expectError(server, '{"jsonrpc":"2.0","id":101,"method":"tools/list"}\n', -32600, 101);
  await server.initialize();
});

test('LIFE-11: a feature the connection did not negotiate is -32601 (tasks on 2025-06-18)', async () => {
  const server = await start();
  // The server declares tasks only from 2025-11-25, so this connection has none.
  await server.initialize({}, '2025-06-18');
  await expectError(server, '{"jsonrpc":"2.0","id":105,"method":"tasks/list","params":{}}\n', -32601, 105);
});

test('malformed JSON, bad envelopes, unknown methods, bad params and wrong-direction methods', async () => {
  const server = await start();
  await server.initialize({});
  await expectError(server, '{"jsonrpc":"2.0","id":101,"method":\n', -32700);
  await expectError(server, '{"jsonrpc":"1.0","id":102,"method":"ping"}\n', -32600, 102);
  await expectError(server, '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n', -32600);
  await expectError(server, '{"jsonrpc":"2.0","id":103,"method":"no/such/method"}\n', -32601, 103);
  await expectError(
    server,
    '{"jsonrpc":"2.0","id":104,"method":"tools/call","params":{"name":5}}\n',
    -32602,
    104,
  );
  // Sampling is the server's to send, not the client's.
  await expectError(
    server,
    '{"jsonrpc":"2.0","id":106,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}\n',
    -32601,
    106,
  );
  await expectError(server, '[{"jsonrpc":"2.0","id":107,"method":"ping"}]\n', -32600);
});

test('a line over the 64 MiB limit is refused, answered on its id, without being buffered; the stream keeps serving', async () => {
  const server = await start();
  await server.initialize({});
  const huge = `{"jsonrpc":"2.0","id":109,"method":"tools/call","params":{"name":"echo","arguments":{"message":"${'x'.repeat(65 * 1024 * 1024)}"}}}\n`;
  await expectError(server, huge, -32600, 109);
  const echo = await server.request('tools/call', { name: 'echo', arguments: { message: 'still here' } });
  assert.deepEqual(echo.result.content, [{ type: 'text', text: 'still here' }]);
});

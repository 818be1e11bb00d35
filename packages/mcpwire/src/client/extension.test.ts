// The open method table, with a Client and a Server on the two ends: an extension's methods are
// checked and served like core ones, every method (initialize, ping, discover) passes the same
// middleware, and malformed extensions are refused at construction.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from './client.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { defineExtension, extensionGate } from '../protocol/extension.ts';
import { describeMethod } from '../protocol/method-spec.ts';
import { MethodTable } from '../protocol/method-table.ts';
import { createMemoryPair } from '../transports/memory.ts';
import type { ServerExtensionPart } from '../server/extension.ts';
import { Server } from '../server/server.ts';

const ID = 'com.example/echo';

/** A tiny extension: `echo/say {text}` answers `{said}`; declared as `{ loud: false }`. */
function echoExtension(overrides: Partial<ServerExtensionPart> = {}) {
  return defineExtension({
    id: ID,
    methods: {
      'echo/say': describeMethod<{ text: string }, { said: string }>()({
        kind: 'request',
        sender: 'client',
        gate: extensionGate('server', ID),
        since: '2024-11-05',
        params: { text: 'string' },
      }),
    },
    server: {
      handlers: {
        'echo/say': (params: JsonObject) => Promise.resolve({ said: params.text as string }),
      },
      settings: () => ({ loud: false }),
      ...overrides,
    },
  });
}

async function connect(server: Server, era: 'handshake' | 'auto'): Promise<Client> {
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client({ name: 'ext-test', version: '1' }, { era, eraCache: false });
  await client.connect(clientEnd);
  return client;
}

for (const era of ['handshake', 'auto'] as const) {
  test(`${era}: an extension's method is declared, params-checked and served behind the middleware (S26-EXT-1)`, async () => {
    const server = new Server({ name: 'ext', version: '1' }, { extensions: [echoExtension()] });
    const seen: string[] = [];
    server.use((request, next) => {
      seen.push(request.method);
      return next();
    });
    const client = await connect(server, era);
    assert.deepEqual(client.serverCapabilities?.extensions, { [ID]: { loud: false } });
    assert.deepEqual(
      await client.request('echo/say', { text: 'hi' }),
      era === 'handshake'
        ? { said: 'hi' }
        : {
            resultType: 'complete',
            said: 'hi',
            _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'ext', version: '1' } },
          },
    );
    await assert.rejects(
      client.request('echo/say', { text: 42 }),
      (error: unknown) =>
        error instanceof RpcError && error.code === -32602 && /"text" must be a string/.test(error.message),
    );
    await client.ping().catch(() => {});
    await client.close();
    // One handler table: the handshake (initialize or server/discover) and ping reach the middleware too.
    const first = era === 'handshake' ? 'initialize' : 'server/discover';
    assert.deepEqual(seen.slice(0, 2), [first, 'echo/say']);
    if (era === 'handshake') assert.ok(seen.includes('ping'), 'ping passes the middleware');
  });
}

test('an extension method is unknown (-32601) to a server without the extension', async () => {
  const client = await connect(new Server({ name: 'plain', version: '1' }), 'auto');
  await assert.rejects(
    client.request('echo/say', { text: 'hi' }),
    (error: unknown) => error instanceof RpcError && error.code === -32601,
  );
  await client.close();
});

test('malformed extensions are refused when defined or when the Server takes them', () => {
  assert.throws(() => defineExtension({ id: 'no-prefix', methods: {} }), /Invalid extension id "no-prefix"/);
  assert.throws(
    () => new Server({ name: 'x', version: '1' }, { extensions: [echoExtension({ handlers: {} })] }),
    /describes "echo\/say" but gives the server no handler/,
  );
  const clash = defineExtension({
    id: 'com.example/clash',
    methods: { ping: { kind: 'request', sender: 'both', since: '2024-11-05' } },
  });
  assert.throws(
    () => MethodTable.core.with(clash.methods, 'Extension "com.example/clash"'),
    /describes "ping", which this table already has/,
  );
});

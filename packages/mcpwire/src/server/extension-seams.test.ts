// The generic seams an extension uses on a Server (issue 12), with a made-up extension: wrapping a
// core handler, capabilities declared in one revision only, a gate that differs in the stateless
// era, requests sent on a connection after the request that started them, and a stateless-era
// method whose own params are named `inputResponses`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { checkInbound } from '../protocol/inbound-check.ts';
import { defineExtension } from '../protocol/extension.ts';
import type { MethodSpec } from '../protocol/methods.ts';
import { connectRawPeer } from '../../test/support/task-peer.ts';
import type { ServerExtensionPart } from './extension.ts';
import type { HandshakeConnection } from './method-handlers.ts';
import { Server } from './server.ts';

function createServer(part: Partial<ServerExtensionPart>) {
  const server: ServerExtensionPart = { handlers: {}, settings: () => ({}), ...part };
  return new Server(
    { name: 'seams', version: '1' },
    { extensions: [defineExtension({ id: 'com.example/seams', methods: {}, server })] },
  );
}

test('wraps: an extension wraps a core handler; calls it passes on reach the core unchanged', async () => {
  const seen: string[] = [];
  const server = createServer({
    wraps: {
      'tools/call': (next) => (params, ctx, origin) => {
        if (params.name === 'intercepted') return Promise.resolve({ content: [], wrapped: true });
        seen.push(params.name as string);
        return next(params, ctx, origin);
      },
    },
  });
  server.tool({ name: 'plain' }, () => 'from the core');
  const client = connectRawPeer(server);
  await client.initialize();
  const plain = await client.peer.request('tools/call', { name: 'plain', arguments: {} });
  assert.deepEqual(plain.content, [{ type: 'text', text: 'from the core' }]);
  assert.equal((await client.peer.request('tools/call', { name: 'intercepted' })).wrapped, true);
  assert.deepEqual(seen, ['plain']);
  assert.throws(
    () => createServer({ wraps: { 'no/such-method': (next) => next } }),
    /wraps "no\/such-method", which this server does not serve/,
  );
  await server.close();
});

test('capabilities(version): declared in initialize of that revision only, never in server/discover', async () => {
  const server = createServer({
    capabilities: (version) => (version === '2025-11-25' ? { experimental: { seams: {} } } : undefined),
  });
  const current = connectRawPeer(server);
  const init = await current.initialize();
  assert.deepEqual((init.capabilities as JsonObject).experimental, { seams: {} });
  const older = connectRawPeer(server);
  const olderInit = await older.peer.request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'old', version: '1' },
  });
  assert.equal((olderInit.capabilities as JsonObject).experimental, undefined);
  const discovered = await connectRawPeer(server).stateless('server/discover', {}, {});
  assert.equal((discovered.capabilities as JsonObject).experimental, undefined);
  assert.deepEqual((discovered.capabilities as JsonObject).extensions, { 'com.example/seams': {} });
  await server.close();
});

test('statelessGate: the stateless era checks it instead of the row’s gate', () => {
  const spec: MethodSpec = {
    kind: 'request',
    sender: 'client',
    gate: { side: 'server', path: ['handshakeFeature'] },
    statelessGate: { side: 'server', path: ['extensions', 'com.example/seams'] },
    since: '2025-11-25',
  };
  const request = { method: 'x/y', params: {} };
  const scope = (era: 'handshake' | 'stateless', ownCapabilities: object) => ({
    receiver: 'server' as const,
    era,
    protocolVersion: era === 'handshake' ? '2025-11-25' : '2026-07-28',
    ownCapabilities,
  });
  assert.equal(checkInbound(spec, request, scope('handshake', { handshakeFeature: {} })), spec);
  assert.throws(() => checkInbound(spec, request, scope('stateless', { handshakeFeature: {} })), RpcError);
  const extended = { extensions: { 'com.example/seams': {} } };
  assert.equal(checkInbound(spec, request, scope('stateless', extended)), spec);
  assert.throws(() => checkInbound(spec, request, scope('handshake', extended)), RpcError);
});

test('HandshakeConnection.sendRequest/sendNotification: work that outlives its request still reaches the client', async () => {
  let connection: HandshakeConnection | undefined;
  const server = createServer({
    wraps: {
      'tools/call': () => (_params, _ctx, origin) => {
        connection = origin.connection;
        return Promise.resolve({ content: [] });
      },
    },
  });
  server.tool({ name: 'any' }, () => '');
  const client = connectRawPeer(server, () => ({ roots: [] }));
  await client.initialize({ roots: {} });
  await client.peer.request('tools/call', { name: 'any' });
  assert.ok(connection, 'a handshake-era request has its connection');
  assert.deepEqual(await connection.sendRequest('roots/list', {}), { roots: [] });
  await connection.sendNotification('notifications/message', { level: 'info', data: 'later' });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(
    client.requests.map((request) => request.method),
    ['roots/list'],
  );
  assert.deepEqual(client.notifications.at(-1)?.params, { level: 'info', data: 'later' });
  await server.close();
});

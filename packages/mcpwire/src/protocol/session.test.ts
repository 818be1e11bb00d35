// Session rules both ways: lifecycle (LIFE-5/6), negotiated capabilities (LIFE-11), cancellation
// (CANCEL-*), progress (PROG-*) and timeouts (LIFE-15), over an in-memory channel pair.

import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { RequestCancelledError, RequestTimeoutError } from '../jsonrpc/errors.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { Peer } from '../jsonrpc/peer.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { CapabilityNotNegotiatedError, ProtocolStateError } from './capabilities.ts';
import { Session, type InboundRequest } from './session.ts';

const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => queueMicrotask(resolve));
};

function pair(serverHandler: (request: InboundRequest) => Promise<JsonObject> | JsonObject) {
  const [a, b] = createMemoryPair();
  const notifications: Array<[string, JsonObject]> = [];
  const server = new Session({
    role: 'server',
    channel: b,
    handleRequest: serverHandler,
    handleNotification: (m, p) => notifications.push([m, p]),
  });
  const client = new Session({ role: 'client', channel: a, handleRequest: () => ({}) });
  server.start();
  client.start();
  return { server, client, notifications };
}

function operate(
  server: Session,
  client: Session,
  serverCaps: JsonObject,
  clientCaps: JsonObject = {},
): void {
  for (const s of [server, client]) {
    s.protocolVersion = '2025-11-25';
    s.setState('operating');
  }
  server.ownCapabilities = serverCaps;
  server.peerCapabilities = clientCaps;
  client.ownCapabilities = clientCaps;
  client.peerCapabilities = serverCaps;
}

test('before initialize the server answers only initialize and ping', async () => {
  const { client } = pair(() => ({ tools: [] }));
  // The client-side check would refuse locally, so send raw through notifyUnchecked's sibling: a ping works.
  assert.deepEqual(await client.request('ping', undefined), {});
  await assert.rejects(client.request('tools/list', {}), ProtocolStateError);
});

test('a server rejects requests before initialized with -32600 and unknown methods with -32601', async () => {
  const { server, client } = pair(() => ({ tools: [] }));
  client.protocolVersion = '2025-11-25';
  client.setState('operating');
  client.peerCapabilities = { tools: {} };
  await assert.rejects(
    client.request('tools/list', {}),
    (e: unknown) => e instanceof RpcError && e.code === -32600,
  );
  operate(server, client, { tools: {} });
  assert.deepEqual(await client.request('tools/list', {}), { tools: [] });
  await assert.rejects(
    client.request('no/such', {}),
    (e: unknown) => e instanceof RpcError && e.code === -32601,
  );
});

test('capabilities are enforced both ways', async () => {
  const { server, client } = pair(() => ({ prompts: [] }));
  operate(server, client, { tools: {} }, {});
  // Outbound: the client refuses locally what the server did not declare.
  await assert.rejects(client.request('prompts/list', {}), CapabilityNotNegotiatedError);
  await assert.rejects(
    server.request('sampling/createMessage', { messages: [], maxTokens: 5 }),
    CapabilityNotNegotiatedError,
  );
  // Inbound: the server rejects an unnegotiated method that arrives anyway.
  client.peerCapabilities = { tools: {}, prompts: {} };
  await assert.rejects(
    client.request('prompts/list', {}),
    (e: unknown) => e instanceof RpcError && e.code === -32601 && /prompts/.test(e.message),
  );
});

test('bad params are -32602 naming the field inbound, and refused locally outbound', async () => {
  const [a, b] = createMemoryPair();
  const server = new Session({ role: 'server', channel: b, handleRequest: () => ({ tools: [] }) });
  server.start();
  server.protocolVersion = '2025-11-25';
  server.ownCapabilities = { tools: {} };
  server.setState('operating');
  const raw = new Peer({
    send: (m) => a.send(m),
    handler: { handleRequest: () => ({}), handleNotification: () => {} },
  });
  a.open(raw);
  await assert.rejects(
    raw.request('tools/call', { arguments: {} }),
    (e: unknown) => e instanceof RpcError && e.code === -32602 && /"name"/.test(e.message),
  );
  const { server: s2, client } = pair(() => ({ tools: [] }));
  operate(s2, client, { tools: {} });
  await assert.rejects(client.request('tools/call', { arguments: {} }), TypeError);
  client.protocolVersion = '2026-07-28';
  await assert.rejects(client.request('ping', undefined), ProtocolStateError);
});

test('aborting a request sends notifications/cancelled; the handler sees its signal fire', async () => {
  let seen: AbortSignal | undefined;
  const { server, client } = pair((request) => {
    seen = request.signal;
    return new Promise<JsonObject>(() => {});
  });
  operate(server, client, { tools: {} });
  const controller = new AbortController();
  const pending = client.request('tools/call', { name: 'slow' }, { signal: controller.signal });
  await flush();
  controller.abort('user pressed stop');
  await assert.rejects(pending, RequestCancelledError);
  await flush();
  assert.equal(seen?.aborted, true);
  assert.equal(seen?.reason, 'user pressed stop');
});

test('progress is routed to the caller, non-increasing updates dropped', async () => {
  const { server, client } = pair(async (request) => {
    const token = (request.params._meta as JsonObject).progressToken as number;
    for (const progress of [1, 2, 2, 1, 3])
      await server.notify('notifications/progress', { progressToken: token, progress, total: 3 });
    return { content: [] };
  });
  operate(server, client, { tools: {} });
  const seen: number[] = [];
  const result = await client.request(
    'tools/call',
    { name: 'p' },
    { onProgress: (p) => seen.push(p.progress) },
  );
  await flush();
  assert.deepEqual(result, { content: [] });
  assert.deepEqual(seen, [1, 2, 3]);
});

test('timeouts cancel, progress restarts the clock, and the hard maximum still applies', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  let token = 0;
  const { server, client } = pair((request) => {
    token = (request.params._meta as JsonObject | undefined)?.progressToken as number;
    return new Promise<JsonObject>(() => {});
  });
  operate(server, client, { tools: {} });

  const plain = client.request('tools/call', { name: 'a' }, { timeoutMs: 1000 });
  t.mock.timers.tick(1001);
  await assert.rejects(plain, RequestTimeoutError);

  const kept = client.request(
    'tools/call',
    { name: 'b' },
    { timeoutMs: 1000, maxTotalTimeoutMs: 2500, onProgress: () => {} },
  );
  await flush();
  for (let i = 1; i <= 2; i++) {
    t.mock.timers.tick(900);
    await server.notify('notifications/progress', { progressToken: token, progress: i });
    await flush();
  }
  // 1,800 ms have passed with progress every 900 ms: still alive; the hard maximum (2,500) ends it.
  t.mock.timers.tick(800);
  await assert.rejects(kept, RequestTimeoutError);
  mock.timers.reset();
});

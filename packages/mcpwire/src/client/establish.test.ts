// Client.connect settles the era on one connection (2026-07-28 checklist section 3.2): a Transport is
// connected once whatever the probe meets, a step that gets no answer or loses the connection is named
// in the error, and a verdict is remembered once the connection is established. Time is a fake clock.

import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { ConnectionClosedError, RequestTimeoutError } from '../jsonrpc/errors.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import type { Channel, Transport } from '../transports/channel.ts';
import { createRawServer, type RawAnswer, type RawServer } from '../../test/support/raw-server.ts';
import { Client } from './client.ts';
import { DEFAULT_INITIALIZE_TIMEOUT_MS, DEFAULT_PROBE_TIMEOUT_MS } from './client-options.ts';
import { createEraCache, type EraKeyed } from './era-probe.ts';
import { ConnectClosedError, ConnectTimeoutError } from './errors.ts';

const info = { name: 'establish-test', version: '1.0.0' };
const KEY = 'raw-server';

const never = (): Promise<JsonObject> => new Promise<JsonObject>(() => {});

const handshakeInit = (params: JsonObject): JsonObject => ({
  protocolVersion: params.protocolVersion as string,
  capabilities: {},
  serverInfo: { name: 'old', version: '1' },
});

/** A Transport whose every `connect` starts a new raw server (a new process, over stdio). */
function countingTransport(answer: RawAnswer): Transport & EraKeyed & { servers: RawServer[] } {
  const servers: RawServer[] = [];
  const connect = () => {
    const server = createRawServer(answer);
    servers.push(server);
    return Promise.resolve(server.channel);
  };
  return { key: KEY, servers, connect };
}

/** Lets the memory channel's deliveries and the client's continuations run; the fake clock stands still. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Starts `connect` and records how it settles, so a test can look before the clock runs out. */
function startConnect(client: Client, transport: Transport): { outcome: { error?: unknown; done: boolean } } {
  const outcome: { error?: unknown; done: boolean } = { done: false };
  client.connect(transport).then(
    () => (outcome.done = true),
    (error: unknown) => Object.assign(outcome, { done: true, error }),
  );
  return { outcome };
}

function useFakeClock(t: TestContext): void {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
}

test('a server that ignores the probe is connected once: initialize follows on the same connection, the verdict is cached', async (t) => {
  useFakeClock(t);
  const transport = countingTransport((method, params) =>
    method === 'initialize' ? handshakeInit(params) : never(),
  );
  const cache = createEraCache();
  const client = new Client(info, { eraCache: cache });
  const { outcome } = startConnect(client, transport);
  await settle();
  assert.deepEqual(transport.servers[0]?.received, ['server/discover']);
  t.mock.timers.tick(DEFAULT_PROBE_TIMEOUT_MS);
  await settle();
  assert.deepEqual(outcome, { done: true });
  assert.equal(client.era, 'handshake');
  assert.equal(transport.servers.length, 1, 'one connection: over stdio, one process');
  // The probe stays open through initialize (a slow start may still answer it), then is cancelled.
  assert.deepEqual(transport.servers[0]?.received, [
    'server/discover',
    'initialize',
    'notifications/initialized',
    'notifications/cancelled',
  ]);
  assert.deepEqual(cache.get(KEY), { era: 'handshake' });
  await client.close();

  await client.connect(transport);
  assert.equal(transport.servers.length, 2);
  assert.deepEqual(transport.servers[1]?.received[0], 'initialize', 'the remembered verdict skips the probe');
  await client.close();
});

test('a server that never answers fails connect within 10 s by default, at the step that got no answer (LIFE-15)', async (t) => {
  useFakeClock(t);
  const transport = countingTransport(never);
  const client = new Client(info, { eraCache: false });
  const { outcome } = startConnect(client, transport);
  await settle();
  t.mock.timers.tick(DEFAULT_PROBE_TIMEOUT_MS);
  await settle();
  assert.deepEqual(transport.servers[0]?.received, ['server/discover', 'initialize']);
  t.mock.timers.tick(DEFAULT_INITIALIZE_TIMEOUT_MS - 1);
  await settle();
  assert.equal(outcome.done, false, 'initialize still has 1 ms');
  t.mock.timers.tick(1);
  await settle();

  const { error } = outcome;
  assert.ok(error instanceof ConnectTimeoutError, String(error));
  assert.equal(error.code, 'CONNECT_TIMEOUT');
  assert.equal(error.step, 'initialize');
  assert.equal(error.timeoutMs, DEFAULT_INITIALIZE_TIMEOUT_MS);
  // Neutral: no option name, since a CLI that maps this error names its own flag instead.
  assert.match(error.message, /^initialize: no answer within 6 s; the server may still be starting/);
  assert.doesNotMatch(error.message, /TimeoutMs/);
  assert.ok(error.cause instanceof RequestTimeoutError);
  assert.ok(DEFAULT_PROBE_TIMEOUT_MS + DEFAULT_INITIALIZE_TIMEOUT_MS <= 10_000);
  // LIFE-12: initialize is never cancelled (the probe is, once given up); no second connection.
  assert.deepEqual(transport.servers[0]?.received, [
    'server/discover',
    'initialize',
    'notifications/cancelled',
  ]);
  assert.equal(transport.servers.length, 1);
});

test('a stateless-era server slow to start: its late discover answer settles the era, though initialize was sent (S26 section 3.4)', async (t) => {
  useFakeClock(t);
  let answered: (() => void) | undefined;
  const discovered = new Promise<void>((resolve) => (answered = resolve));
  const transport = countingTransport(async (method) => {
    if (method === 'server/discover') {
      await discovered;
      return {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        ttlMs: 0,
        cacheScope: 'private',
      };
    }
    // The first request decided the stateless era: the initialize that followed is refused.
    await discovered;
    throw new RpcError(-32600, 'Invalid Request: this connection speaks 2026-07-28');
  });
  const cache = createEraCache();
  const client = new Client(info, { eraCache: cache });
  const { outcome } = startConnect(client, transport);
  await settle();
  t.mock.timers.tick(DEFAULT_PROBE_TIMEOUT_MS);
  await settle();
  assert.deepEqual(transport.servers[0]?.received, ['server/discover', 'initialize']);
  assert.equal(outcome.done, false);
  answered?.();
  await settle();
  assert.deepEqual(outcome, { done: true });
  assert.equal(client.era, 'stateless');
  assert.equal(client.protocolVersion, '2026-07-28');
  assert.deepEqual(cache.get(KEY), { era: 'stateless', version: '2026-07-28' });
  assert.equal(transport.servers.length, 1);
  await client.close();
});

test('a connection that closes during the probe fails connect with ConnectClosedError: no second connection, no verdict', async () => {
  const transport = countingTransport((method, _params, server) => {
    if (method === 'server/discover') void server.close();
    return never();
  });
  const cache = createEraCache();
  await assert.rejects(new Client(info, { eraCache: cache }).connect(transport), (error: unknown) => {
    assert.ok(error instanceof ConnectClosedError, String(error));
    assert.ok(error instanceof ConnectionClosedError);
    assert.equal(error.code, 'CONNECTION_CLOSED');
    assert.equal(error.step, 'server/discover');
    assert.ok(error.cause instanceof ConnectionClosedError);
    assert.match(
      error.message,
      /^server\/discover: the connection closed before the server answered: .*\n\(if it is a handshake-era server .*era "handshake"\)$/,
    );
    return true;
  });
  assert.equal(transport.servers.length, 1);
  assert.equal(cache.get(KEY), undefined, 'a closed connection says nothing about the era');
});

test('era "stateless" meeting silence fails with ConnectTimeoutError naming server/discover, without initialize', async (t) => {
  useFakeClock(t);
  const server = createRawServer(never);
  const client = new Client(info, { era: 'stateless', probeTimeoutMs: 300, eraCache: false });
  const { outcome } = startConnect(client, { connect: () => Promise.resolve(server.channel) });
  await settle();
  t.mock.timers.tick(300);
  await settle();
  const { error } = outcome;
  assert.ok(error instanceof ConnectTimeoutError, String(error));
  assert.equal(error.step, 'server/discover');
  assert.match(error.message, /^server\/discover: no answer within 300 ms; .*era "auto" or "handshake"/);
  assert.deepEqual(server.received, ['server/discover', 'notifications/cancelled']);
});

test('silence on a request/response channel (info.isRequestResponse) is an outage: ConnectTimeoutError, no initialize (issue 23)', async (t) => {
  useFakeClock(t);
  const server = createRawServer(never);
  // What the client needs to know of a transport, without knowing which one it is.
  const channel: Channel = {
    open: (receiver) => server.channel.open(receiver),
    send: (message, options) => server.channel.send(message, options),
    close: () => server.channel.close(),
    info: { isRequestResponse: true },
  };
  const client = new Client(info, { probeTimeoutMs: 300, eraCache: false });
  const { outcome } = startConnect(client, { connect: () => Promise.resolve(channel) });
  await settle();
  t.mock.timers.tick(300);
  await settle();
  const { error } = outcome;
  assert.ok(error instanceof ConnectTimeoutError, String(error));
  assert.equal(error.step, 'server/discover');
  assert.match(error.message, /silence is an outage/);
  assert.equal(server.received.includes('initialize'), false, String(server.received));
});

test('era "stateless" waits for discover as long as initialize would, not the probe\'s 4 s: a slow start is no verdict', async (t) => {
  useFakeClock(t);
  let answer: (() => void) | undefined;
  const server = createRawServer(
    (method) =>
      new Promise<JsonObject>((resolve) => {
        if (method !== 'server/discover') return;
        answer = () =>
          resolve({
            resultType: 'complete',
            supportedVersions: ['2026-07-28'],
            capabilities: {},
            ttlMs: 0,
            cacheScope: 'private',
          });
      }),
  );
  const client = new Client(info, { era: 'stateless', initializeTimeoutMs: 20_000, eraCache: false });
  const { outcome } = startConnect(client, { connect: () => Promise.resolve(server.channel) });
  await settle();
  t.mock.timers.tick(DEFAULT_PROBE_TIMEOUT_MS * 4);
  await settle();
  assert.equal(outcome.done, false, 'still waiting after four probe timeouts');
  answer?.();
  await settle();
  assert.deepEqual(outcome, { done: true });
  assert.equal(client.protocolVersion, '2026-07-28');
  assert.deepEqual(server.received, ['server/discover']);
  await client.close();
});

test('initializeTimeoutMs bounds initialize, before requestTimeoutMs', async (t) => {
  useFakeClock(t);
  const server = createRawServer(never);
  const client = new Client(info, { era: 'handshake', initializeTimeoutMs: 1500, requestTimeoutMs: 60_000 });
  const { outcome } = startConnect(client, { connect: () => Promise.resolve(server.channel) });
  await settle();
  t.mock.timers.tick(1500);
  await settle();
  assert.ok(outcome.error instanceof ConnectTimeoutError, String(outcome.error));
  assert.match(outcome.error.message, /^initialize: no answer within 1\.5 s/);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestCancelledError, RequestTimeoutError } from '../jsonrpc/errors.ts';
import type { JsonObject, Message } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { ProtocolStateError } from '../protocol/capabilities.ts';
import { Session } from '../protocol/session.ts';
import { Server } from '../server/server.ts';
import type { Channel } from '../transports/channel.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { Client } from './client.ts';
import {
  ConnectTimeoutError,
  InvalidResultError,
  NotConnectedError,
  UnsupportedProtocolVersionError,
} from './errors.ts';
import { ignoreConnection } from '../../../../test/support/wire-check.ts';

/** A server driven by hand: answers initialize with `answer(params)` and records notification methods. */
function startRawServer(channel: Channel, answer?: (params: JsonObject) => JsonObject | Promise<JsonObject>) {
  const notifications: string[] = [];
  let markClosed!: () => void;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  const session: Session = new Session({
    role: 'server',
    channel,
    handleRequest: (request) => {
      const version = request.params.protocolVersion as string;
      session.protocolVersion = version;
      session.setState('initializing');
      return (
        answer?.(request.params) ?? {
          protocolVersion: version,
          capabilities: {},
          serverInfo: { name: 'raw', version: '0' },
        }
      );
    },
    handleNotification: (method) => void notifications.push(method),
    handleClose: () => markClosed(),
  });
  ignoreConnection(session); // a deliberately misbehaving server
  session.start();
  return { session, notifications, closed };
}

/** Records every message sent through `channel`. */
function tap(channel: Channel): { channel: Channel; sent: Message[] } {
  const sent: Message[] = [];
  return {
    sent,
    channel: {
      open: (receiver) => channel.open(receiver),
      send: (message) => {
        sent.push(...(Array.isArray(message) ? message : [message]));
        return channel.send(message);
      },
      close: () => channel.close(),
    },
  };
}

const clientInfo = { name: 'test-client', version: '1.0.0' };

test('connect negotiates the latest revision with a real server and sends notifications/initialized', async () => {
  const server = new Server({ name: 'srv', version: '2.0.0' }, { instructions: 'Use the tools.' });
  server.tool({ name: 'noop' }, () => 'ok');
  const seen: JsonObject[] = [];
  server.use((request, next) => {
    if (request.method === 'initialize') seen.push(request.params);
    return next();
  });
  const [clientEnd, serverEnd] = createMemoryPair();
  const serverSession = server.connect(serverEnd);
  const client = new Client(clientInfo, {
    era: 'handshake',
    handlers: { sampling: () => ({ role: 'assistant', content: { type: 'text', text: '' }, model: 'm' }) },
  });
  await client.connect(clientEnd);

  assert.equal(client.protocolVersion, '2025-11-25');
  assert.deepEqual(client.serverInfo, { name: 'srv', version: '2.0.0' });
  assert.equal(client.instructions, 'Use the tools.');
  assert.deepEqual(client.serverCapabilities?.tools, { listChanged: true });
  assert.equal(client.isConnected, true);
  assert.deepEqual(seen, [{ protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo }]);
  await client.ping();
  assert.equal(serverSession.session.state, 'operating', 'the server received notifications/initialized');
  await client.close();
  assert.equal(client.isConnected, false);
});

test('a pinned revision is requested and accepted', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client(clientInfo, {
    era: 'handshake',
    protocolVersion: '2025-06-18',
    handlers: { elicitation: () => ({ action: 'decline' }) },
  });
  await client.connect(clientEnd);
  assert.equal(client.protocolVersion, '2025-06-18');
  await client.close();
});

test('a pinned revision outside the handshake era is refused at construction', () => {
  assert.throws(() => new Client(clientInfo, { protocolVersion: '2023-01-01' }), TypeError);
});

test('a server answering an unsupported revision: connect rejects with UnsupportedProtocolVersionError and closes (LIFE-9)', async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  const raw = startRawServer(serverEnd, () => ({
    protocolVersion: '2099-01-01',
    capabilities: {},
    serverInfo: { name: 'future', version: '9' },
  }));
  const client = new Client(clientInfo, { era: 'handshake' });
  await assert.rejects(client.connect(clientEnd), (error: unknown) => {
    assert.ok(error instanceof UnsupportedProtocolVersionError);
    assert.equal(error.code, 'UNSUPPORTED_PROTOCOL_VERSION');
    assert.equal(error.requested, '2025-11-25');
    assert.equal(error.received, '2099-01-01');
    assert.match(error.message, /2025-11-25.*2099-01-01/);
    return true;
  });
  await raw.closed;
  assert.deepEqual(raw.notifications, [], 'no notifications/initialized after a failed negotiation');
  assert.equal(client.isConnected, false);
  await assert.rejects(client.ping(), { code: 'CONNECTION_CLOSED' });
});

test('with a pinned revision, another supported revision in the answer is refused too', async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  const raw = startRawServer(serverEnd, () => ({
    protocolVersion: '2025-11-25',
    capabilities: {},
    serverInfo: { name: 'raw', version: '0' },
  }));
  const client = new Client(clientInfo, { protocolVersion: '2025-03-26' });
  await assert.rejects(client.connect(clientEnd), {
    code: 'UNSUPPORTED_PROTOCOL_VERSION',
    received: '2025-11-25',
  });
  await raw.closed;
});

test('an older supported revision in the answer is accepted (LIFE-8)', async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  startRawServer(serverEnd, () => ({
    protocolVersion: '2024-11-05',
    capabilities: {},
    serverInfo: { name: 'old', version: '0' },
  }));
  const client = new Client(clientInfo, { era: 'handshake' });
  await client.connect(clientEnd);
  assert.equal(client.protocolVersion, '2024-11-05');
  await client.close();
});

test('an initialize result without serverInfo is an InvalidResultError', async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  const raw = startRawServer(serverEnd, () => ({ protocolVersion: '2025-11-25', capabilities: {} }));
  await assert.rejects(
    new Client(clientInfo, { era: 'handshake' }).connect(clientEnd),
    (error: unknown) => error instanceof InvalidResultError && error.method === 'initialize',
  );
  await raw.closed;
});

test('an error response to initialize surfaces as the RpcError and closes the connection', async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  const raw = startRawServer(serverEnd, () => {
    throw new RpcError(-32602, 'Unsupported protocol version', {
      supported: ['2024-11-05'],
      requested: '2025-11-25',
    });
  });
  await assert.rejects(
    new Client(clientInfo, { era: 'handshake' }).connect(clientEnd),
    (error: unknown) => error instanceof RpcError && error.code === -32602,
  );
  await raw.closed;
});

test('connect accepts a Transport and refuses a second connect while connected', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client(clientInfo, { era: 'handshake' });
  await client.connect({ connect: () => Promise.resolve(clientEnd) });
  await assert.rejects(client.connect(createMemoryPair()[0]), ProtocolStateError);
  await client.close();
});

test('requests before connect reject with NotConnectedError', async () => {
  const client = new Client(clientInfo, { era: 'handshake' });
  await assert.rejects(
    client.listTools(),
    (error: unknown) => error instanceof NotConnectedError && error.code === 'NOT_CONNECTED',
  );
});

test('aborting connect cancels initialize locally, without notifications/cancelled (LIFE-12), and closes', async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  let markAsked!: () => void;
  const asked = new Promise<void>((resolve) => (markAsked = resolve));
  const raw = startRawServer(serverEnd, () => {
    markAsked();
    return new Promise<JsonObject>(() => {});
  });
  const controller = new AbortController();
  const wire = tap(clientEnd);
  const connecting = new Client(clientInfo, { era: 'handshake' }).connect(wire.channel, {
    signal: controller.signal,
  });
  await asked;
  controller.abort('user gave up');
  await assert.rejects(connecting, RequestCancelledError);
  await raw.closed;
  assert.deepEqual(
    wire.sent.map((message) => ('method' in message ? message.method : 'response')),
    ['initialize'],
  );
});

test('an already aborted signal rejects before anything is sent', async () => {
  const [clientEnd] = createMemoryPair();
  await assert.rejects(
    new Client(clientInfo, { era: 'handshake' }).connect(clientEnd, {
      signal: AbortSignal.abort(),
    }),
    {
      name: 'AbortError',
    },
  );
});

test('requestTimeoutMs bounds initialize too: a ConnectTimeoutError naming the step (LIFE-15)', async () => {
  const [clientEnd, serverEnd] = createMemoryPair();
  const raw = startRawServer(serverEnd, () => new Promise<JsonObject>(() => {}));
  await assert.rejects(
    new Client(clientInfo, { era: 'handshake', requestTimeoutMs: 10 }).connect(clientEnd),
    (error: unknown) =>
      error instanceof ConnectTimeoutError &&
      error.step === 'initialize' &&
      error.cause instanceof RequestTimeoutError &&
      /^initialize: no answer within 10 ms/.test(error.message),
  );
  await raw.closed;
});

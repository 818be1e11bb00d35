// The official v2 SDK client (@modelcontextprotocol/client 2.4, StreamableHTTPClientTransport), pinned to the
// handshake revision 2025-06-18, drives our everything server over Streamable HTTP on a real socket: a session
// with its GET stream, the whole tour of our-server-tour.ts, and list_changed on the GET stream.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { registerOurServerTour } from '../our-server-tour.ts';
import { HttpWireLog, startOurHttpServer, type OurHttpServer } from './http-hosts.ts';
import { createV2HandshakePeer } from './official-peers.ts';

const PINNED_VERSION = '2025-06-18';
const wire = new HttpWireLog();
const { client, peer, connect } = createV2HandshakePeer('interop-official-v2-http', PINNED_VERSION);
let server: OurHttpServer;
let transport: StreamableHTTPClientTransport;

before(async () => {
  server = await startOurHttpServer();
  transport = new StreamableHTTPClientTransport(new URL(server.url), { fetch: wire.fetch });
  await connect(transport);
});

after(async () => {
  await client.close();
  await server.close();
});

test(`v2 over HTTP, pinned to ${PINNED_VERSION}: a handshake-era session with a GET stream`, async () => {
  assert.equal(client.getProtocolEra(), 'legacy');
  assert.equal(client.getNegotiatedProtocolVersion(), PINNED_VERSION);
  assert.equal(peer.tap.protocolVersion, PINNED_VERSION);
  assert.equal(client.getDiscoverResult(), undefined);
  await peer.ping();
  const [initialize, ...rest] = wire.exchanges;
  assert.deepEqual(initialize?.rpc, ['initialize']);
  const sessionId = initialize.assignedSessionId;
  assert.ok(sessionId, 'the initialize response assigns Mcp-Session-Id');
  assert.equal(transport.sessionId, sessionId);
  for (const entry of rest) {
    assert.equal(entry.sessionId, sessionId, wire.lines().join('\n'));
    assert.equal(entry.protocolVersion, PINNED_VERSION, wire.lines().join('\n'));
  }
  assert.ok(
    rest.some((entry) => entry.method === 'GET' && entry.status === 200),
    `the client opened the session's GET stream:\n${wire.lines().join('\n')}`,
  );
});

registerOurServerTour('v2 client over Streamable HTTP', () => peer);

test('v2 over HTTP: the list_changed notifications arrived on the GET stream', () => {
  assert.ok(
    wire.getStreamMethods.includes('notifications/tools/list_changed'),
    `messages on the GET stream: ${JSON.stringify(wire.getStreamMethods)}`,
  );
  assert.ok(
    wire.getStreamMethods.includes('notifications/prompts/list_changed'),
    `messages on the GET stream: ${JSON.stringify(wire.getStreamMethods)}`,
  );
});

test('v2 over HTTP: terminateSession DELETEs the session', async () => {
  const sessionId = transport.sessionId;
  assert.ok(sessionId);
  await transport.terminateSession();
  const deleted = wire.exchanges.at(-1);
  assert.equal(deleted?.method, 'DELETE');
  assert.equal(deleted.sessionId, sessionId);
  assert.ok(deleted.status >= 200 && deleted.status < 300, `DELETE answered ${deleted.status}`);
});

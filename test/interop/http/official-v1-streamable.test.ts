// The official v1 SDK client (@modelcontextprotocol/sdk 1.32, StreamableHTTPClientTransport) drives our
// everything server over Streamable HTTP on a real socket: a handshake-era session with its GET stream, the
// whole tour of our-server-tour.ts, a list_changed notification on the GET stream, and DELETE of the session.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { registerOurServerTour } from '../our-server-tour.ts';
import { HttpWireLog, startOurHttpServer, type OurHttpServer } from './http-hosts.ts';
import { createV1Peer } from './official-peers.ts';

const wire = new HttpWireLog();
const { client, peer, connect } = createV1Peer('interop-official-v1-http');
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

test('v1 over HTTP: initialize opens a session; every later request carries its id and revision', async () => {
  assert.equal(peer.tap.protocolVersion, '2025-11-25');
  await peer.ping();
  const [initialize, ...rest] = wire.exchanges;
  assert.deepEqual(initialize?.rpc, ['initialize']);
  assert.equal(initialize.status, 200);
  const sessionId = initialize.assignedSessionId;
  assert.ok(sessionId, 'the initialize response assigns Mcp-Session-Id');
  assert.equal(transport.sessionId, sessionId);
  for (const entry of rest) {
    assert.equal(entry.sessionId, sessionId, wire.lines().join('\n'));
    assert.equal(entry.protocolVersion, '2025-11-25', wire.lines().join('\n'));
  }
  assert.ok(
    rest.some((entry) => entry.method === 'GET' && entry.status === 200),
    `the client opened the session's GET stream:\n${wire.lines().join('\n')}`,
  );
});

registerOurServerTour('v1 client over Streamable HTTP', () => peer);

test('v1 over HTTP: the tools list_changed of test_trigger_tool_change arrived on the GET stream', () => {
  // An event unrelated to any pending request goes to the session's standalone stream (2025-11-25 §2.8.2).
  assert.ok(
    wire.getStreamMethods.includes('notifications/tools/list_changed'),
    `messages on the GET stream: ${JSON.stringify(wire.getStreamMethods)}`,
  );
  assert.ok(
    wire.getStreamMethods.includes('notifications/prompts/list_changed'),
    `messages on the GET stream: ${JSON.stringify(wire.getStreamMethods)}`,
  );
});

test('v1 over HTTP: terminateSession DELETEs the session; the old id is then 404', async () => {
  const sessionId = transport.sessionId;
  assert.ok(sessionId);
  await transport.terminateSession();
  const deleted = wire.exchanges.at(-1);
  assert.equal(deleted?.method, 'DELETE');
  assert.equal(deleted.sessionId, sessionId);
  assert.ok(deleted.status >= 200 && deleted.status < 300, `DELETE answered ${deleted.status}`);
  const stale = await fetch(server.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'ping' }),
  });
  await stale.body?.cancel();
  assert.equal(stale.status, 404);
});

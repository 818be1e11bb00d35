// The official v1 SDK client (@modelcontextprotocol/sdk 1.32, SSEClientTransport) drives our everything server
// over the deprecated HTTP+SSE transport (2024-11-05) on a real socket: GET /sse, POSTs to the endpoint it
// names, and the whole tour of our-server-tour.ts.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

import { registerOurServerTour } from '../our-server-tour.ts';
import { HttpWireLog, startOurHttpServer, type OurHttpServer } from './http-hosts.ts';
import { createV1Peer } from './official-peers.ts';

const wire = new HttpWireLog();
const { client, peer, connect } = createV1Peer('interop-official-v1-sse');
let server: OurHttpServer;

before(async () => {
  server = await startOurHttpServer();
  await connect(new SSEClientTransport(new URL(server.sseUrl), { fetch: wire.fetch }));
});

after(async () => {
  await client.close();
  await server.close();
});

test('v1 over HTTP+SSE: one GET /sse stream, then POSTs to the endpoint it named, each 202', () => {
  assert.equal(peer.tap.protocolVersion, '2025-11-25');
  const [stream, ...posts] = wire.exchanges;
  assert.equal(stream?.method, 'GET');
  assert.equal(stream.status, 200);
  assert.deepEqual(
    posts.slice(0, 2).map((entry) => [entry.method, entry.rpc, entry.status]),
    [
      ['POST', ['initialize'], 202],
      ['POST', ['notifications/initialized'], 202],
    ],
  );
  assert.ok(
    posts.every((entry) => entry.method === 'POST' && entry.status === 202),
    wire.lines().join('\n'),
  );
});

registerOurServerTour('v1 client over HTTP+SSE', () => peer);

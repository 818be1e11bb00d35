// The official v2 SDK client (@modelcontextprotocol/client 2.x), pinned to the handshake revision 2025-06-18,
// drives `mcpwire serve everything` over a real stdio child process through the same tour as the v1 client.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { createV2HandshakePeer } from './http/official-peers.ts';
import { registerOurServerTour } from './our-server-tour.ts';
import { OUR_EVERYTHING_SERVER } from './stdio-peers.ts';

/** A handshake-era revision other than the v1 client's, so the two official clients cover two revisions. */
const PINNED_VERSION = '2025-06-18';

// The peer pins `versionNegotiation.mode: 'legacy'`: only the 2025 `initialize` handshake, never the
// 2026-07-28 `server/discover` probe, offering and accepting exactly the pinned revision.
const { client, peer, connect } = createV2HandshakePeer('interop-official-v2', PINNED_VERSION);

before(async () => {
  const transport = new StdioClientTransport({ ...OUR_EVERYTHING_SERVER, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => peer.stderr.write(chunk.toString('utf8')));
  await connect(transport);
});

after(async () => {
  await client.close();
});

test(`v2 client: pinned to ${PINNED_VERSION}, the handshake negotiates it in the handshake era`, () => {
  assert.equal(client.getNegotiatedProtocolVersion(), PINNED_VERSION);
  assert.equal(client.getProtocolEra(), 'legacy');
  assert.equal(peer.tap.protocolVersion, PINNED_VERSION);
  // No 2026-07-28 discovery happened on this connection.
  assert.equal(client.getDiscoverResult(), undefined);
});

registerOurServerTour('v2 client', () => peer);

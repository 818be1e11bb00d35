// The official v1 SDK client (@modelcontextprotocol/sdk 1.x) drives `mcpwire serve everything` over a real
// stdio child process: every tool, resource, template, prompt and completion, and each server->client round trip.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { createV1Peer } from './http/official-peers.ts';
import { registerOurServerTour } from './our-server-tour.ts';
import { OUR_EVERYTHING_SERVER } from './stdio-peers.ts';

// v1 1.32 always requests its latest revision; there is no option to pin another.
const { client, peer, connect } = createV1Peer('interop-official-v1');

before(async () => {
  const transport = new StdioClientTransport({ ...OUR_EVERYTHING_SERVER, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => peer.stderr.write(chunk.toString('utf8')));
  await connect(transport);
});

after(async () => {
  await client.close();
});

test('v1 client: the handshake negotiates 2025-11-25, the latest revision both sides speak', () => {
  assert.equal(peer.tap.protocolVersion, '2025-11-25');
});

registerOurServerTour('v1 client', () => peer);

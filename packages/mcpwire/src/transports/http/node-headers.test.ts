// The Node adapter's header view against node:http's own `headers` object, for requests sent as raw
// bytes over 127.0.0.1: any case, repeated headers joined or dropped as Node does, absent ones null.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { RawConnection, rawRequest } from '../../../test/support/raw-socket.ts';
import { NodeHeaders } from './node-headers.ts';

const NAMES = [
  'mcp-session-id',
  'mcp-protocol-version',
  'content-type',
  'accept',
  'origin',
  'host',
  'content-length',
  'mcp-method',
  'mcp-name',
  'mcp-param-city',
  'user-agent',
  'authorization',
  'absent',
];

const HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['HOST', '127.0.0.1'],
  ['Content-Type', 'application/json'],
  ['content-type', 'text/plain'],
  ['Accept', 'application/json'],
  ['accept', 'text/event-stream'],
  ['Mcp-Session-Id', 'a'],
  ['MCP-SESSION-ID', 'b'],
  ['MCP-Protocol-Version', '2025-11-25'],
  ['Origin', 'http://localhost'],
  ['Mcp-Method', 'tools/call'],
  ['mcp-name', 'echo'],
  ['Mcp-Param-City', 'Paris'],
  ['User-Agent', 'test'],
  ['Content-Length', '0'],
];

/** What the view and Node's `headers` say for every name in NAMES, for one raw request. */
async function readBoth(isJoining: boolean): Promise<{ ours: unknown[]; node: unknown[] }> {
  let seen: IncomingMessage | undefined;
  const server = createServer({ joinDuplicateHeaders: isJoining }, (incoming, outgoing) => {
    seen = incoming;
    outgoing.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await using connection = await RawConnection.open((server.address() as AddressInfo).port);
    connection.write(rawRequest('POST', '/mcp', HEADERS));
    await connection.until(/\r\n\r\n/);
  } finally {
    server.close();
  }
  const incoming = seen!;
  // The view first: it must not lean on the `headers` object being built already.
  const view = new NodeHeaders(incoming);
  const ours = NAMES.map((name) => [name, view.get(name), view.get(name.toUpperCase())]);
  const node = NAMES.map((name) => {
    const value = incoming.headers[name];
    const text = typeof value === 'string' ? value : null;
    return [name, text, text];
  });
  return { ours, node };
}

test('the header view reads what node:http reads when the server joins repeated headers', async () => {
  const { ours, node } = await readBoth(true);
  assert.deepEqual(ours, node);
  assert.deepEqual(ours[0], ['mcp-session-id', 'a, b', 'a, b']);
  assert.deepEqual(ours[2], ['content-type', 'application/json, text/plain', 'application/json, text/plain']);
});

test('the header view reads what node:http reads when it keeps the first of a repeated header', async () => {
  const { ours, node } = await readBoth(false);
  assert.deepEqual(ours, node);
  // Node keeps the first Content-Type but still joins what it has no rule for.
  assert.deepEqual(ours[2], ['content-type', 'application/json', 'application/json']);
  assert.deepEqual(ours[3], [
    'accept',
    'application/json, text/event-stream',
    'application/json, text/event-stream',
  ]);
});

// A server's stray non-JSON line on stdout (STDIO-1..3, BASE-9) is a reported protocol error for the
// client over real stdio: never a crash, and never an answer sent back to the server.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { Client } from '../src/client/index.ts';
import { StdioClientTransport } from '../src/transports/stdio/index.ts';

test('a server printing non-JSON lines: the client reports a protocol error, keeps working, answers nothing back', async () => {
  const errors: Error[] = [];
  const received: string[] = [];
  const client = new Client(
    { name: 'c', version: '1' },
    { era: 'handshake', onError: (error) => errors.push(error) },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(import.meta.dirname, 'fixtures/stdio/noisy-server.mjs')],
    stderr: (text) => received.push(...text.split('\n').filter((line) => line.startsWith('got: '))),
  });
  await client.connect(transport);
  const tools = await client.listTools();
  assert.deepEqual(
    tools.tools.map((tool) => tool.name),
    ['a'],
  );
  await client.close();
  assert.ok(
    errors.some((error) => /Parse error/.test(error.message)),
    errors.map((e) => e.message).join('; '),
  );
  assert.equal(errors.length, 2);
  // Only the client's own requests reached the server: no error responses for the stray lines.
  assert.ok(
    received.every((line) => !line.includes('"error"')),
    received.join('\n'),
  );
});

// Messages over the stdio line limit's old 4 MiB, both ways, between mcpwire and the official v1
// SDK (which has no limit); and past our limit, an error naming the size and the limit, at once.
// Each request may wait 60 s, each test 20 s: a request that hangs fails the test, not a timing bound.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client, RpcError } from 'mcpwire/client';
import { StdioClientTransport } from 'mcpwire/stdio';
import { CHILD_STARTUP_WAIT, sourceCommand } from '../support/node-options.ts';
import { REPO_ROOT, StderrTail } from './stdio-peers.ts';

const SIX_MB = 6_000_000;
const LONG = { timeout: 20_000 };
const info = { name: 'large-messages-test', version: '1.0.0' };
const OFFICIAL_SERVER = {
  command: process.execPath,
  args: [join(REPO_ROOT, 'test/interop/fixtures/official-v1-large-server.mjs')],
  cwd: REPO_ROOT,
};
const ourServer = (...args: string[]) =>
  sourceCommand(join(REPO_ROOT, 'test/interop/fixtures/our-large-server.ts'), ...args);

function textOf(result: object): string {
  const [first] = (result as { content: Array<{ type: string; text: string }> }).content;
  return first!.text;
}

async function ourClient(
  command: { command: string; args: string[]; cwd: string; env?: Record<string, string> },
  maxMessageBytes?: number,
): Promise<Client & AsyncDisposable> {
  const stderr = new StderrTail();
  const client = new Client(info, { requestTimeoutMs: 60_000, eraCache: false, ...CHILD_STARTUP_WAIT });
  await client.connect(
    new StdioClientTransport({
      ...command,
      stderr: stderr.write,
      ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
    }),
  );
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

describe('6 MB messages over stdio with the official v1 SDK', { concurrency: 2 }, () => {
  test('our client <-> the official server: a 6 MB result and a 6 MB request', LONG, async () => {
    await using client = await ourClient(OFFICIAL_SERVER);
    const big = await client.callTool({ name: 'big', arguments: { bytes: SIX_MB } });
    assert.equal(textOf(big).length, SIX_MB);
    const size = await client.callTool({ name: 'size', arguments: { text: 'y'.repeat(SIX_MB) } });
    assert.equal(textOf(size), String(SIX_MB));
  });

  test('the official client <-> our server: a 6 MB result and a 6 MB request', LONG, async () => {
    const client = new OfficialClient(info);
    await client.connect(new OfficialStdioClientTransport({ ...ourServer(), stderr: 'ignore' }));
    try {
      const options = { timeout: 60_000 };
      const big = await client.callTool({ name: 'big', arguments: { bytes: SIX_MB } }, undefined, options);
      assert.equal(textOf(big).length, SIX_MB);
      const size = await client.callTool(
        { name: 'size', arguments: { text: 'y'.repeat(SIX_MB) } },
        undefined,
        options,
      );
      assert.equal(textOf(size), String(SIX_MB));
    } finally {
      await client.close();
    }
  });
});

describe(
  'past the limit: the request fails at once, naming the size and the limit',
  { concurrency: 2 },
  () => {
    test(
      'our server with a 1 MB limit answers the request id with -32600 and keeps serving',
      LONG,
      async () => {
        await using client = await ourClient(ourServer('1000000'));
        await assert.rejects(
          client.callTool({ name: 'size', arguments: { text: 'y'.repeat(2_000_000) } }),
          (error: unknown) => {
            assert.ok(error instanceof RpcError, String(error));
            assert.equal(error.code, -32600);
            assert.match(error.message, /\b1000000 bytes\b/);
            assert.match(error.message, /\b2000\d{3} bytes\b|at least \d+ bytes/);
            return true;
          },
        );
        const size = await client.callTool({ name: 'size', arguments: { text: 'still serving' } });
        assert.equal(textOf(size), '13');
      },
    );

    test('our client with a 1 MB limit fails the request whose id it reads (our server)', LONG, async () => {
      await using client = await ourClient(ourServer(), 1_000_000);
      await assert.rejects(
        client.callTool({ name: 'big', arguments: { bytes: 2_000_000 } }),
        (error: unknown) => {
          assert.equal((error as { code?: unknown }).code, 'MESSAGE_TOO_LARGE', String(error));
          assert.match((error as Error).message, /\b1000000 bytes\b/);
          return true;
        },
      );
      const size = await client.callTool({ name: 'size', arguments: { text: 'still open' } });
      assert.equal(textOf(size), '10');
    });

    test(
      'our client with a 1 MB limit fails every pending request when the id comes last (official server)',
      LONG,
      async () => {
        await using client = await ourClient(OFFICIAL_SERVER, 1_000_000);
        await assert.rejects(
          client.callTool({ name: 'big', arguments: { bytes: 2_000_000 } }),
          (error: unknown) => {
            assert.equal((error as { code?: unknown }).code, 'MESSAGE_TOO_LARGE', String(error));
            assert.match((error as Error).message, /\b1000000 bytes\b/);
            return true;
          },
        );
      },
    );
  },
);

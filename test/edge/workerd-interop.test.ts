// Issue 14, "what it must show" 2: the official v2 client (@modelcontextprotocol/client, automatic era
// negotiation) and our Client complete a session against the server bundled for and hosted in workerd
// (miniflare), over real HTTP on 127.0.0.1: tools listed, a JSON Schema tool called with bad and good
// arguments, the zod tool called, and the eliciting tool answered through the client's own handler.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  Client as OfficialClient,
  StreamableHTTPClientTransport as OfficialHttpTransport,
} from '@modelcontextprotocol/client';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { bundleFor } from './edge-bundle.ts';
import { textOf, type Loose } from './http-script.ts';
import { startRuntime, type RuntimeHost } from './runtime-host.ts';

const TIMEOUT = 120_000;
const home = mkdtempSync(join(tmpdir(), 'mcpwire-edge-interop-'));
let host: RuntimeHost;

before(async () => {
  const bundle = await bundleFor('worker.ts', 'workerd', { outDir: home });
  host = await startRuntime('workerd', bundle.file, home);
});

after(async () => {
  await host?.[Symbol.asyncDispose]();
  rmSync(home, { recursive: true, force: true });
});

test(
  'the official v2 client completes a session against the workerd-hosted server',
  { timeout: TIMEOUT },
  async () => {
    const client = new OfficialClient(
      { name: 'official-v2', version: '2.0.0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
    );
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { ok: true } };
    });
    await client.connect(new OfficialHttpTransport(new URL(host.url)));
    try {
      assert.equal(client.getServerVersion()?.name, 'edge-echo');
      const { tools } = await client.listTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['echo', 'shout', 'confirm'],
      );
      const bad = (await client.callTool({ name: 'echo', arguments: { text: 5 } })) as Loose;
      assert.equal(bad.isError, true);
      assert.equal(textOf(bad), 'Invalid arguments for tool "echo": /text: must be string');
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'echo: hi');
      assert.equal(textOf(await client.callTool({ name: 'shout', arguments: { text: 'hi' } })), 'HI');
      assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed');
      assert.deepEqual(asked, ['Go ahead?']);
    } finally {
      await client.close();
    }
  },
);

for (const era of ['stateless', 'handshake'] as const) {
  test(
    `our client completes a ${era}-era session against the workerd-hosted server`,
    { timeout: TIMEOUT },
    async () => {
      const asked: string[] = [];
      const client = new Client(
        { name: 'mcpwire-client', version: '1.0.0' },
        {
          era,
          eraCache: false,
          handlers: {
            elicitation: (params) => {
              asked.push(params.message);
              return { action: 'accept', content: { ok: true } };
            },
          },
        },
      );
      await client.connect(new StreamableHttpClientTransport(host.url));
      try {
        assert.equal(client.era, era);
        const tools = await client.listAllTools();
        assert.deepEqual(
          tools.map((tool) => tool.name),
          ['echo', 'shout', 'confirm'],
        );
        const bad = await client.callTool({ name: 'echo', arguments: { text: 5 } });
        assert.equal(textOf(bad), 'Invalid arguments for tool "echo": /text: must be string');
        assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'echo: hi');
        assert.equal(textOf(await client.callTool({ name: 'shout', arguments: { text: 'hi' } })), 'HI');
        assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed');
        assert.deepEqual(asked, ['Go ahead?']);
      } finally {
        await client.close();
      }
    },
  );
}

// MCP Apps against the official v2 client (`@modelcontextprotocol/client`): `mcpwire serve github` over a
// real stdio child, in both eras. A client declaring `io.modelcontextprotocol/ui` reads show_issue_board's
// `_meta.ui` and the `ui://` view through the SDK's own result schemas; one that does not sees a plain tool.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { ourCliCommand } from '../support/node-options.ts';
import { StderrTail } from './stdio-peers.ts';

const GITHUB_SERVER = ourCliCommand('serve', 'github', '--db', ':memory:');

const ERAS = [
  { name: 'stateless era (auto negotiation, 2026-07-28)', options: {} },
  { name: 'handshake era (2025-11-25)', options: { versionNegotiation: { mode: 'legacy' as const } } },
];
const APPS = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };

/** The official client on a fresh `mcpwire serve github`; `work` runs with it, then both close. */
async function withClient(
  options: Record<string, unknown>,
  work: (client: Client, stderr: StderrTail) => Promise<void>,
): Promise<void> {
  const stderr = new StderrTail();
  const client = new Client({ name: 'interop-official-v2-apps', version: '2.0.0' }, options);
  const transport = new StdioClientTransport({ ...GITHUB_SERVER, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk.toString('utf8')));
  await client.connect(transport);
  try {
    await work(client, stderr);
  } finally {
    await client.close();
  }
}

for (const era of ERAS) {
  test(`official v2 client declaring MCP Apps, ${era.name}: reads the board's _meta.ui and its view`, async () => {
    await withClient({ ...era.options, capabilities: { extensions: APPS } }, async (client, stderr) => {
      assert.deepEqual(
        client.getServerCapabilities()?.extensions?.['io.modelcontextprotocol/ui'],
        {},
        `the server declares the extension (stderr: ${stderr.toString()})`,
      );
      const { tools } = await client.listTools();
      const board = tools.find((tool) => tool.name === 'show_issue_board');
      assert.ok(board, tools.map((tool) => tool.name).join(', '));
      assert.deepEqual(board._meta, { ui: { resourceUri: 'ui://github/issue-board' } });
      const uri = (board._meta!.ui as { resourceUri: string }).resourceUri;
      const { contents } = await client.readResource({ uri });
      assert.equal(contents.length, 1);
      const [view] = contents;
      assert.equal(view!.uri, uri);
      assert.equal(view!.mimeType, 'text/html;profile=mcp-app');
      assert.ok('text' in view! && view.text.startsWith('<!DOCTYPE html>'));
      assert.deepEqual(view!._meta, {
        ui: {
          csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
          prefersBorder: true,
        },
      });
      const { resources } = await client.listResources();
      assert.deepEqual(
        resources.filter((resource) => resource.uri.startsWith('ui://')).map((resource) => resource.mimeType),
        ['text/html;profile=mcp-app'],
      );
      const result = await client.callTool({
        name: 'show_issue_board',
        arguments: { owner: 'acme', repo: 'webapp', perColumn: 1 },
      });
      assert.equal(result.isError, undefined);
      assert.equal((result.structuredContent as { repository: string }).repository, 'acme/webapp');
    });
  });

  test(`official v2 client without MCP Apps, ${era.name}: a plain tool, no view listed, a text result`, async () => {
    await withClient(era.options, async (client) => {
      const { tools } = await client.listTools();
      const board = tools.find((tool) => tool.name === 'show_issue_board');
      assert.ok(board);
      assert.equal(board._meta, undefined);
      const { resources } = await client.listResources();
      assert.ok(resources.every((resource) => !resource.uri.startsWith('ui://')));
      const result = await client.callTool({
        name: 'show_issue_board',
        arguments: { owner: 'acme', repo: 'webapp', perColumn: 1 },
      });
      const [first] = result.content as Array<{ type: string; text: string }>;
      assert.equal(first!.type, 'text');
      assert.match(first!.text, /^Issue board of acme\/webapp\n\nbug \(\d+, first 1\)\n {2}#\d+ /);
    });
  });
}

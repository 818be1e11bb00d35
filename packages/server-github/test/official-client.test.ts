// The official v2 SDK client (@modelcontextprotocol/client) drives the github server over a real
// stdio process: it negotiates, lists the tools with their schemas, calls read and write tools
// (validating structuredContent against outputSchema itself, TOOL-3), reads a resource and gets a
// prompt, so hosts built on the official SDK can use this server.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { SOURCE_CONDITIONS, testChildEnv } from '../../../test/support/node-options.ts';
import { TempDir } from './support/peers.ts';

const dir = new TempDir();
const client = new Client(
  { name: 'official-v2', version: '2.0.0' },
  { versionNegotiation: { mode: 'legacy' } },
);

before(async () => {
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [
        ...SOURCE_CONDITIONS,
        '--import',
        'tsx',
        join(import.meta.dirname, 'fixtures', 'serve-github.ts'),
        dir.file('github.sqlite3'),
      ],
      cwd: join(import.meta.dirname, '..', '..', '..'),
      env: testChildEnv(),
      stderr: 'ignore',
    }),
  );
});

after(async () => {
  await client.close();
  dir[Symbol.dispose]();
});

test('the official client lists every tool with its schemas and annotations', async () => {
  const { tools } = await client.listTools();
  const names = tools.map((tool) => tool.name);
  for (const name of [
    'search_issues',
    'list_issues',
    'get_issue',
    'create_issue',
    'update_issue',
    'add_issue_comment',
    'list_pull_requests',
    'get_pull_request',
    'get_pull_request_files',
    'get_pull_request_diff',
    'search_code',
    'get_file_contents',
    'summarize_issue',
  ])
    assert.ok(names.includes(name), name);
  const search = tools.find((tool) => tool.name === 'search_issues')!;
  assert.deepEqual(search.inputSchema.required, ['query']);
  assert.equal(search.annotations?.readOnlyHint, true);
});

test('the official client calls read and write tools and gets structured results', async () => {
  const found = await client.callTool({
    name: 'search_issues',
    arguments: { query: 'is:closed label:bug', owner: 'acme', repo: 'webapp', perPage: 3 },
  });
  assert.equal(found.isError, undefined);
  const items = (found.structuredContent as { items: Array<{ state: string }> }).items;
  assert.equal(items.length, 3);
  assert.ok(items.every((item) => item.state === 'closed'));
  const created = await client.callTool({
    name: 'create_issue',
    arguments: { owner: 'octo-labs', repo: 'telemetry', title: 'From the official client' },
  });
  const number = (created.structuredContent as { number: number }).number;
  const comment = await client.callTool({
    name: 'add_issue_comment',
    arguments: { owner: 'octo-labs', repo: 'telemetry', issue_number: number, body: 'Hello' },
  });
  assert.equal((comment.structuredContent as { body: string }).body, 'Hello');
  const bad = await client.callTool({
    name: 'get_issue',
    arguments: { owner: 'octo-labs', repo: 'telemetry', issue_number: 123456 },
  });
  assert.equal(bad.isError, true);
  const resource = await client.readResource({ uri: `github://repos/octo-labs/telemetry/issues/${number}` });
  assert.match(JSON.stringify(resource.contents), /From the official client/);
  const prompt = await client.getPrompt({
    name: 'triage_issue',
    arguments: { owner: 'octo-labs', repo: 'telemetry', issue_number: String(number) },
  });
  assert.equal(prompt.messages.length, 2);
});

// The official Inspector v2 CLI (under the Node 22 in test/conformance) uses `mcpwire serve github` over
// stdio: it lists and calls tools, reads an issue resource and gets a prompt, each in its own process.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { SOURCE_CONDITIONS } from '../support/node-options.ts';
import { ROOT } from '../support/raw-server-process.ts';

const run = promisify(execFile);
const NODE22 = join(ROOT, 'test/conformance/node_modules/.bin/node');
const INSPECTOR = join(
  ROOT,
  'test/conformance/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js',
);
const INSTALL_HINT = 'run `npm ci --prefix test/conformance` (npm test does it in its pretest step)';

/** `mcpwire serve github` from source on a fresh in-memory database, as the Inspector starts it. */
const SERVER = [
  process.execPath,
  ...SOURCE_CONDITIONS,
  `--import=${import.meta.resolve('tsx')}`,
  join(ROOT, 'packages/cli/src/main.ts'),
  'serve',
  'github',
  '--db',
  ':memory:',
];

/** Runs `inspector --cli <args> -- <server>` and parses its JSON output. */
async function inspect(args: readonly string[]): Promise<Record<string, unknown>> {
  assert.ok(existsSync(NODE22) && existsSync(INSPECTOR), `Inspector v2 is not installed: ${INSTALL_HINT}`);
  const { stdout } = await run(NODE22, [INSPECTOR, '--cli', ...args, '--', ...SERVER], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('the official Inspector CLI against mcpwire serve github', { concurrency: 2 }, () => {
  test('tools/list shows the GitHub tools with their schemas and annotations', async () => {
    const { tools } = (await inspect(['--method', 'tools/list'])) as {
      tools: Array<{ name: string; inputSchema: { required?: string[] }; annotations?: object }>;
    };
    const getIssue = tools.find((tool) => tool.name === 'get_issue');
    assert.deepEqual(getIssue?.inputSchema.required, ['owner', 'repo', 'issue_number']);
    assert.ok(tools.some((tool) => tool.name === 'search_issues'));
  });

  test('tools/call get_issue returns the issue as structured content', async () => {
    const result = (await inspect([
      '--method',
      'tools/call',
      '--tool-name',
      'get_issue',
      '--tool-arg',
      'owner=acme',
      '--tool-arg',
      'repo=webapp',
      '--tool-arg',
      'issue_number=1',
    ])) as { isError?: boolean; structuredContent: { number: number } };
    assert.notEqual(result.isError, true);
    assert.equal(result.structuredContent.number, 1);
  });

  test('resources/read and prompts/get', async () => {
    const read = (await inspect([
      '--method',
      'resources/read',
      '--uri',
      'github://repos/acme/webapp/issues/2',
    ])) as {
      contents: Array<{ mimeType: string; text: string }>;
    };
    assert.equal(read.contents[0]?.mimeType, 'text/markdown');
    assert.match(read.contents[0]?.text ?? '', /acme\/webapp#2/);
    const prompt = (await inspect([
      '--method',
      'prompts/get',
      '--prompt-name',
      'triage_issue',
      '--prompt-args',
      'owner=acme',
      'repo=webapp',
      'issue_number=1',
    ])) as { messages: unknown[] };
    assert.ok(prompt.messages.length > 0);
  });
});

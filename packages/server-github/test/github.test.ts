// The github server in-process, through the library's Client over the in-memory channel pair, in both
// eras: a created issue is listed, readable as a resource and summarised by the prompt; an unknown
// issue is a tool error, not a protocol error; servers share no state.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createMemoryPair, type TextContent } from 'mcpwire';
import { Client } from 'mcpwire/client';
import { createGithubServer } from '../src/github.ts';

async function connect(era: 'legacy' | 'modern'): Promise<Client> {
  const [clientEnd, serverEnd] = createMemoryPair();
  createGithubServer().connect(serverEnd);
  const client = new Client({ name: 'test-host', version: '1' }, { era });
  await client.connect(clientEnd);
  return client;
}

function textOf(result: { content: readonly { type: string }[] }): string {
  return result.content
    .filter((block): block is TextContent => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

for (const era of ['legacy', 'modern'] as const) {
  test(`${era} era: create_issue, then list_issues, the issue resource and summarize_issue see it`, async () => {
    const client = await connect(era);
    const created = await client.callTool({
      name: 'create_issue',
      arguments: { title: 'Crash on empty query' },
    });
    assert.equal(created.isError, undefined);
    const number = Number(/#(\d+)/.exec(textOf(created))?.[1]);
    assert.ok(number > 0, textOf(created));

    const listed = await client.callTool({ name: 'list_issues', arguments: {} });
    const issues = (listed.structuredContent as { issues: Array<{ number: number; title: string }> }).issues;
    assert.deepEqual(
      issues.find((issue) => issue.number === number),
      { number, title: 'Crash on empty query', state: 'open' },
    );

    const read = await client.readResource({ uri: `github://issues/${number}` });
    assert.match(JSON.stringify(read.contents), /Crash on empty query/);
    const prompt = await client.getPrompt({ name: 'summarize_issue', arguments: { number: String(number) } });
    assert.match(JSON.stringify(prompt.messages), /Crash on empty query/);
    await client.close();
  });

  test(`${era} era: an unknown issue is a tool error naming it`, async () => {
    const client = await connect(era);
    const result = await client.callTool({ name: 'get_issue', arguments: { number: 9999 } });
    assert.equal(result.isError, true);
    assert.match(textOf(result), /9999/);
    await client.close();
  });
}

test('two servers share no issues', async () => {
  const first = await connect('legacy');
  const second = await connect('legacy');
  await first.callTool({ name: 'create_issue', arguments: { title: 'Only in the first' } });
  const listed = await second.callTool({ name: 'list_issues', arguments: { state: 'all' } });
  assert.doesNotMatch(textOf(listed), /Only in the first/);
  await Promise.all([first.close(), second.close()]);
});

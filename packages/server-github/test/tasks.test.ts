// The github server's slow searches as tasks (issue 12), through our Client in both eras: listed
// with `taskSupport: "optional"` (TASK-3), run as a task for a client that asks, with the same
// result as a direct call; the other tools stay direct.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { tasks, TasksClient } from 'mcpwire/extensions/tasks';
import { connectClient, createMemoryServer, ERAS } from './support/peers.ts';

const QUERY = { query: 'is:open label:bug', perPage: 3 };

for (const era of ERAS) {
  test(`${era}: search_issues and search_code run as tasks and end with the direct call's result; get_issue stays direct (TASK-3, S26-TASK-2)`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era, { extensions: [tasks()] });
    const listed = await client.listAllTools();
    const support = Object.fromEntries(listed.map((tool) => [tool.name, tool.execution?.taskSupport]));
    assert.equal(support.search_issues, 'optional');
    assert.equal(support.search_code, 'optional');
    assert.equal(support.get_issue, undefined);
    const taskClient = new TasksClient(client, { defaultPollIntervalMs: 50 });
    assert.equal(taskClient.isSupported, true);
    // Without the extension declared, the stateless era never makes a task (S26-TASK-3).
    const plain = await connectClient(server, era);
    const direct = await plain.callTool({ name: 'search_issues', arguments: QUERY });
    assert.ok(Array.isArray(direct.content), 'a direct result');
    await plain.close();

    const search = await taskClient.callToolAsTask('search_issues', QUERY);
    assert.equal(typeof search.id, 'string', 'a task was made');
    const result = await search.result();
    assert.equal(search.status, 'completed');
    assert.deepEqual(result.structuredContent, direct.structuredContent);

    const code = await taskClient.callToolAsTask('search_code', { query: 'router' });
    assert.equal(typeof code.id, 'string');
    assert.ok(((await code.result()).structuredContent as { total_count: number }).total_count > 0);

    const issue = await taskClient.callToolAsTask('get_issue', {
      owner: 'acme',
      repo: 'webapp',
      issue_number: 1,
    });
    assert.equal(issue.id, undefined, 'a tool without task support is called directly');
    assert.notEqual((await issue.result()).isError, true);
    await client.close();
  });
}

test('handshake: a search run as a task reports its stages as progress on the task (PROG-5)', async () => {
  await using server = createMemoryServer();
  const client = await connectClient(server, 'handshake', { extensions: [tasks()] });
  const search = await new TasksClient(client).callToolAsTask('search_issues', QUERY);
  const messages: string[] = [];
  search.onProgress((progress) => messages.push(progress.message ?? ''));
  await search.result();
  // Every stage, also those reported before the handle existed or before it was listened to.
  assert.equal(messages.length, 4, messages.join(', '));
  assert.deepEqual(messages.slice(0, 2), [
    'Parsing the query',
    'Matching issues, pull requests and comments',
  ]);
  assert.match(messages[2]!, /^Loading 3 of \d+ matches$/);
  assert.equal(messages[3], 'Done');
  await client.close();
});

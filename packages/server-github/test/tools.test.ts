// The github tools through our Client in both eras (in-memory pair): names and annotations as the
// official GitHub MCP server has them, search syntax and pagination, progress (PROG-1..3), the
// issue/pull request reads, files and code search, and the writes. Output is checked against
// each tool's outputSchema by the server (TOOL-3) and the client.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Progress } from 'mcpwire/client';
import { call, callOk, connectClient, createMemoryServer, ERAS, textOf } from './support/peers.ts';

const WEBAPP = { owner: 'acme', repo: 'webapp' };

interface IssueItem {
  number: number;
  state: string;
  labels: Array<{ name: string }>;
  assignees: Array<{ login: string }>;
  user: { login: string };
  repository: string;
  pull_request?: object;
}

test('TOOL-1, TOOL-2, TOOL-6: every tool is listed with input and output schemas and truthful annotations', async () => {
  await using server = createMemoryServer();
  const client = await connectClient(server, 'handshake');
  const tools = await client.listAllTools();
  const names = tools.map((tool) => tool.name).sort();
  assert.deepEqual(names, [
    'add_issue_comment',
    'create_issue',
    'get_file_contents',
    'get_issue',
    'get_issue_comments',
    'get_pull_request',
    'get_pull_request_diff',
    'get_pull_request_files',
    'list_issues',
    'list_pull_requests',
    'search_code',
    'search_issues',
    'show_issue_board',
    'summarize_issue',
    'update_issue',
  ]);
  for (const tool of tools) {
    assert.equal(tool.annotations?.openWorldHint, false, `${tool.name} touches only the local database`);
    const writes = ['create_issue', 'update_issue', 'add_issue_comment'].includes(tool.name);
    assert.equal(tool.annotations?.readOnlyHint, !writes, `${tool.name} readOnlyHint`);
    if (tool.name !== 'get_pull_request_diff')
      assert.ok(tool.outputSchema, `${tool.name} has an outputSchema`);
  }
  const update = tools.find((tool) => tool.name === 'update_issue')!;
  assert.deepEqual([update.annotations?.destructiveHint, update.annotations?.idempotentHint], [true, true]);
  const create = tools.find((tool) => tool.name === 'create_issue')!;
  assert.deepEqual([create.annotations?.destructiveHint, create.annotations?.idempotentHint], [false, false]);
  await client.close();
});

for (const era of ERAS) {
  test(`${era} era: search_issues applies every qualifier and pages with page/perPage`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const query = 'is:open is:issue label:bug repo:acme/webapp';
    const all = await callOk<{ total_count: number; items: IssueItem[] }>(client, 'search_issues', {
      query,
      perPage: 100,
    });
    assert.ok(all.total_count > 5, `seeded open bugs: ${all.total_count}`);
    for (const item of all.items) {
      assert.equal(item.state, 'open');
      assert.equal(item.repository, 'acme/webapp');
      assert.equal(item.pull_request, undefined);
      assert.ok(item.labels.some((label) => label.name === 'bug'));
    }
    const first = await callOk<{ items: IssueItem[] }>(client, 'search_issues', {
      query,
      page: 1,
      perPage: 2,
    });
    const second = await callOk<{ items: IssueItem[] }>(client, 'search_issues', {
      query,
      page: 2,
      perPage: 2,
    });
    assert.deepEqual(
      [...first.items, ...second.items].map((item) => item.number),
      all.items.slice(0, 4).map((item) => item.number),
    );

    const author = all.items[0]!.user.login;
    const byAuthor = await callOk<{ items: IssueItem[] }>(client, 'search_issues', {
      query: `author:${author} repo:acme/webapp`,
    });
    assert.ok(byAuthor.items.length > 0 && byAuthor.items.every((item) => item.user.login === author));
    const assigned = await callOk<{ items: IssueItem[] }>(client, 'search_issues', {
      query: 'assignee:dana is:closed',
      perPage: 100,
    });
    assert.ok(
      assigned.items.length > 0 &&
        assigned.items.every(
          (item) => item.state === 'closed' && item.assignees.some((user) => user.login === 'dana'),
        ),
    );
    const pulls = await callOk<{ items: IssueItem[] }>(client, 'search_issues', {
      query: 'is:pr is:merged',
      ...WEBAPP,
    });
    assert.ok(
      pulls.items.length > 0 &&
        pulls.items.every((item) => item.pull_request !== undefined && item.repository === 'acme/webapp'),
    );
    await client.close();
  });

  test(`${era} era: search_issues free text matches titles, bodies and comments (FTS5)`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const created = await callOk<{ number: number }>(client, 'create_issue', {
      ...WEBAPP,
      title: 'Quokka widget overflows',
      body: 'The zebrafish panel too.',
    });
    await callOk(client, 'add_issue_comment', {
      ...WEBAPP,
      issue_number: created.number,
      body: 'Seen with the axolotl theme',
    });
    for (const word of ['quokka', 'zebrafish', 'axolotl']) {
      const found = await callOk<{ items: IssueItem[] }>(client, 'search_issues', { query: word });
      assert.deepEqual(
        found.items.map((item) => item.number),
        [created.number],
        word,
      );
    }
    const titleOnly = await callOk<{ total_count: number }>(client, 'search_issues', {
      query: 'axolotl in:title',
    });
    assert.equal(titleOnly.total_count, 0);
    await client.close();
  });

  test(`${era} era: search_issues reports increasing progress when asked (PROG-1, PROG-3)`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const seen: Progress[] = [];
    const result = await client.callTool(
      { name: 'search_issues', arguments: { query: 'is:open checkout' } },
      { onProgress: (progress) => seen.push(progress) },
    );
    assert.equal(result.isError, undefined);
    assert.ok(seen.length >= 2, `progress notifications: ${seen.length}`);
    assert.ok(seen.every((step, index) => index === 0 || step.progress > seen[index - 1]!.progress));
    assert.ok(seen.every((step) => step.total === 4));
    await client.close();
  });

  test(`${era} era: get_issue takes an issue or a pull request number, as GitHub does`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const issue = await call(client, 'get_issue', { ...WEBAPP, issue_number: 1 });
    assert.equal((issue.structuredContent as unknown as IssueItem).number, 1);
    assert.ok(
      issue.content.some(
        (block) => block.type === 'resource_link' && block.uri === 'github://repos/acme/webapp/issues/1',
      ),
    );
    const { pull_requests: pulls } = await callOk<{ pull_requests: Array<{ number: number }> }>(
      client,
      'list_pull_requests',
      { ...WEBAPP, state: 'all' },
    );
    const asIssue = await callOk<IssueItem>(client, 'get_issue', {
      ...WEBAPP,
      issue_number: pulls[0]!.number,
    });
    assert.ok(asIssue.pull_request, 'a pull request number returns the pull request as an issue');
    await client.close();
  });
}

test('list_issues filters by state and labels and returns issues only', async () => {
  await using server = createMemoryServer();
  const client = await connectClient(server, 'handshake');
  const closed = await callOk<{ total_count: number; issues: IssueItem[] }>(client, 'list_issues', {
    ...WEBAPP,
    state: 'closed',
    labels: ['bug'],
    perPage: 100,
  });
  assert.ok(closed.issues.length > 0);
  assert.ok(
    closed.issues.every(
      (item) =>
        item.state === 'closed' &&
        item.pull_request === undefined &&
        item.labels.some((l) => l.name === 'bug'),
    ),
  );
  const all = await callOk<{ total_count: number }>(client, 'list_issues', { ...WEBAPP, state: 'all' });
  const open = await callOk<{ total_count: number }>(client, 'list_issues', WEBAPP);
  assert.ok(
    all.total_count > open.total_count && all.total_count >= 100,
    `webapp issues: ${all.total_count}`,
  );
  await client.close();
});

test('pull request tools: branches, changed files with patches, and the diff as an embedded resource', async () => {
  await using server = createMemoryServer();
  const client = await connectClient(server, 'stateless');
  const { pull_requests: pulls } = await callOk<{
    pull_requests: Array<{ number: number; head: { ref: string } }>;
  }>(client, 'list_pull_requests', { ...WEBAPP, state: 'all' });
  assert.ok(pulls.length >= 10, `seeded pull requests: ${pulls.length}`);
  const number = pulls[0]!.number;
  const pull = await callOk<{ base: { ref: string }; changed_files: number; additions: number }>(
    client,
    'get_pull_request',
    { ...WEBAPP, pullNumber: number },
  );
  assert.equal(pull.base.ref, 'main');
  const { files } = await callOk<{ files: Array<{ filename: string; patch: string; additions: number }> }>(
    client,
    'get_pull_request_files',
    { ...WEBAPP, pullNumber: number },
  );
  assert.equal(files.length, pull.changed_files);
  assert.equal(
    files.reduce((sum, file) => sum + file.additions, 0),
    pull.additions,
  );
  assert.ok(files.every((file) => file.patch.startsWith('@@ -')));
  const diff = await call(client, 'get_pull_request_diff', { ...WEBAPP, pullNumber: number });
  const block = diff.content[0];
  assert.ok(block?.type === 'resource' && 'text' in block.resource);
  assert.equal(block.resource.mimeType, 'text/x-diff');
  assert.equal(block.resource.uri, `github://repos/acme/webapp/pulls/${number}/diff`);
  assert.match(block.resource.text, new RegExp(`^diff --git a/${files[0]!.filename.replace(/[.]/g, '\\.')}`));
  const onBranch = await call(client, 'get_file_contents', {
    ...WEBAPP,
    path: files[0]!.filename,
    ref: pulls[0]!.head.ref,
  });
  const main = await call(client, 'get_file_contents', { ...WEBAPP, path: files[0]!.filename });
  assert.notEqual(
    JSON.stringify(onBranch.content[1]),
    JSON.stringify(main.content[1]),
    'the head branch has its own version',
  );
  const notPull = await call(client, 'get_pull_request', { ...WEBAPP, pullNumber: 1 });
  assert.equal(notPull.isError, true);
  await client.close();
});

test('search_code and get_file_contents: hits with line numbers, files as embedded resources, directories as listings', async () => {
  await using server = createMemoryServer();
  const client = await connectClient(server, 'handshake');
  const hits = await callOk<{
    items: Array<{
      path: string;
      repository: { full_name: string };
      matches: Array<{ line: number; text: string }>;
    }>;
  }>(client, 'search_code', { query: 'loadSession repo:acme/webapp' });
  const session = hits.items.find((hit) => hit.path === 'src/auth/session.ts');
  assert.ok(session && session.matches.some((match) => match.text.includes('loadSession') && match.line > 0));
  const python = await callOk<{ items: Array<{ path: string }> }>(client, 'search_code', {
    query: 'metrics language:python',
  });
  assert.ok(python.items.length > 0 && python.items.every((hit) => hit.path.endsWith('.py')));
  const file = await call(client, 'get_file_contents', { ...WEBAPP, path: 'src/auth/session.ts' });
  const embedded = file.content.find((block) => block.type === 'resource');
  assert.ok(
    embedded?.type === 'resource' &&
      'text' in embedded.resource &&
      embedded.resource.text.includes('loadSession'),
  );
  const root = await callOk<{ type: string; entries: Array<{ name: string }> }>(client, 'get_file_contents', {
    ...WEBAPP,
    path: '/',
  });
  assert.equal(root.type, 'dir');
  assert.ok(
    root.entries.some((entry) => entry.name === 'README.md') &&
      root.entries.some((entry) => entry.name === 'src'),
  );
  await client.close();
});

for (const era of ERAS) {
  test(`${era} era: create_issue, update_issue and add_issue_comment write what they say`, async () => {
    await using server = createMemoryServer();
    const client = await connectClient(server, era);
    const created = await callOk<IssueItem & { title: string }>(client, 'create_issue', {
      ...WEBAPP,
      title: 'Crash on empty query',
      labels: ['bug'],
      assignees: ['dana'],
    });
    assert.equal(created.state, 'open');
    assert.deepEqual(
      created.labels.map((label) => label.name),
      ['bug'],
    );
    assert.deepEqual(created.assignees, [{ login: 'dana' }]);
    assert.equal(created.user.login, 'mcp-user');
    const updated = await callOk<{ updated: boolean; issue: IssueItem & { title: string } }>(
      client,
      'update_issue',
      {
        ...WEBAPP,
        issue_number: created.number,
        title: 'Crash on an empty query',
        labels: ['bug', 'help wanted'],
        assignees: [],
      },
    );
    assert.equal(updated.updated, true);
    assert.equal(updated.issue.title, 'Crash on an empty query');
    assert.deepEqual(
      updated.issue.labels.map((label) => label.name),
      ['bug', 'help wanted'],
    );
    assert.deepEqual(updated.issue.assignees, []);
    const comment = await callOk<{ id: number; body: string }>(client, 'add_issue_comment', {
      ...WEBAPP,
      issue_number: created.number,
      body: 'On it.',
    });
    const { comments } = await callOk<{ comments: Array<{ id: number; body: string }> }>(
      client,
      'get_issue_comments',
      { ...WEBAPP, issue_number: created.number },
    );
    assert.deepEqual(
      comments.map(({ id, body }) => ({ id, body })),
      [{ id: comment.id, body: 'On it.' }],
    );
    const next = await callOk<{ number: number }>(client, 'create_issue', { ...WEBAPP, title: 'Second' });
    assert.equal(next.number, created.number + 1, 'issues and pull requests share one number sequence');
    const unknownLabel = await call(client, 'create_issue', {
      ...WEBAPP,
      title: 'x',
      labels: ['no-such-label'],
    });
    assert.equal(unknownLabel.isError, true);
    assert.match(textOf(unknownLabel), /Unknown label "no-such-label" in acme\/webapp/);
    await client.close();
  });
}

// `mcpwire serve github` driven through the real command as a user would: raw stdio (only the wire on
// stdout), the one-shot commands list/call/read/get/complete over stdio, over HTTP and through a host
// config file, with --json and exit codes; and the database file outliving the process.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { RawServerProcess } from '../../../test/support/raw-server-process.ts';
import { MCPWIRE, runCli } from './support/cli-process.ts';
import { startOurHttpServer } from './support/http-servers.ts';

const work = mkdtempSync(join(tmpdir(), 'mcpwire-serve-github-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A fresh seeded database per command, so tests never share state or touch the user's data. */
const GITHUB = ['--', ...MCPWIRE, 'serve', 'github', '--db', ':memory:'];
const REPO = ['owner=acme', 'repo=webapp'];

describe('mcpwire serve github', { concurrency: 4 }, () => {
  test('over raw stdio: initialize, then tools/list with the official GitHub server names', async () => {
    await using server = new RawServerProcess(['serve', 'github', '--db', ':memory:']);
    const init = await server.initialize();
    assert.equal(init.serverInfo.name, 'mcpwire-github');
    const { tools } = (await server.request('tools/list')).result;
    const names = tools.map((tool: { name: string }) => tool.name);
    for (const name of ['search_issues', 'get_issue', 'create_issue', 'update_issue', 'add_issue_comment'])
      assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
    assert.deepEqual(server.stderr.join('').match(/^\{/m), null, 'nothing JSON-like on stderr');
  });

  test('list and call over stdio: --json results, a tool error exits 1, a bad argument exits 2', async () => {
    const listed = await runCli(['list', 'tools', '--json', ...GITHUB]);
    assert.equal(listed.code, 0, listed.stderr);
    const { tools } = JSON.parse(listed.stdout) as { tools: Array<{ name: string; annotations?: object }> };
    assert.ok(tools.some((tool) => tool.name === 'search_issues'));

    const found = await runCli([
      'call',
      'search_issues',
      'query=is:open repo:acme/webapp',
      '--json',
      ...GITHUB,
    ]);
    assert.equal(found.code, 0, found.stderr);
    const result = JSON.parse(found.stdout) as {
      structuredContent: { total_count: number; items: unknown[] };
    };
    assert.ok(result.structuredContent.total_count > 0);
    assert.ok(result.structuredContent.items.length > 0);

    const missing = await runCli(['call', 'get_issue', ...REPO, 'issue_number=99999', ...GITHUB]);
    assert.equal(missing.code, 1, missing.stderr);
    assert.match(missing.stderr, /99999/);

    const badType = await runCli(['call', 'get_issue', ...REPO, 'issue_number=first', ...GITHUB]);
    assert.equal(badType.code, 2, badType.stderr);
  });

  test('read an issue resource, get a prompt and complete a template argument', async () => {
    const read = await runCli(['read', 'github://repos/acme/webapp/issues/1', ...GITHUB]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /#1\b/);

    const prompt = await runCli(['get', 'triage_issue', ...REPO, 'issue_number=1', '--json', ...GITHUB]);
    assert.equal(prompt.code, 0, prompt.stderr);
    assert.ok((JSON.parse(prompt.stdout) as { messages: unknown[] }).messages.length > 0);

    const completed = await runCli([
      'complete',
      'github://repos/{owner}/{repo}/issues/{number}',
      'repo',
      'web',
      '--context',
      'owner=acme',
      ...GITHUB,
    ]);
    assert.equal(completed.code, 0, completed.stderr);
    assert.match(completed.stdout, /^webapp$/m);
  });

  test('over HTTP: a comment written by one command is read back by another', async () => {
    await using server = await startOurHttpServer(['github', '--db', ':memory:']);
    const comment = await runCli([
      'call',
      server.url,
      'add_issue_comment',
      ...REPO,
      'issue_number=2',
      'body=Seen on HTTP too',
    ]);
    assert.equal(comment.code, 0, comment.stderr);
    const read = await runCli([
      'call',
      server.url,
      'get_issue_comments',
      ...REPO,
      'issue_number=2',
      '--json',
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /Seen on HTTP too/);
  });

  test('through a host config file; the database file outlives the process', async () => {
    const db = join(work, 'tracker.sqlite3');
    const config = join(work, 'claude_desktop_config.json');
    const [command, ...args] = MCPWIRE;
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: { tracker: { command, args: [...args, 'serve', 'github', '--db', '${TRACKER_DB}'] } },
      }),
    );
    const env = { TRACKER_DB: db };
    const created = await runCli(
      ['call', 'tracker', 'create_issue', ...REPO, 'title=Survives a restart', '--json', '--config', config],
      { env },
    );
    assert.equal(created.code, 0, created.stderr);
    const { number } = (JSON.parse(created.stdout) as { structuredContent: { number: number } })
      .structuredContent;
    const again = await runCli(
      ['call', 'tracker', 'get_issue', ...REPO, `issue_number=${number}`, '--json', '--config', config],
      { env },
    );
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /Survives a restart/);
  });
});

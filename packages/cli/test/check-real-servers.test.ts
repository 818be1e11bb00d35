// `mcpwire check` (every client, with sample calls) against three real servers: the official
// @modelcontextprotocol/server-everything (a root devDependency), @modelcontextprotocol/server-filesystem
// (test/peers), both pinned versions, and our `mcpwire serve github`. The (rule, definition) pairs found
// must be exactly those docs/check.md's "Three real servers" tables list, in JSON and in text, so the
// documented findings and their judgements cannot silently go stale.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { peerBin } from '../../../test/support/peers.ts';
import { MCPWIRE, OFFICIAL_EVERYTHING, ROOT, runCli } from './support/cli-process.ts';
import { startOurHttpServer } from './support/http-servers.ts';

const work = mkdtempSync(join(tmpdir(), 'mcpwire-check-real-'));
after(() => rmSync(work, { recursive: true, force: true }));
writeFileSync(join(work, 'a.txt'), 'hello\n');

/** Each server: the heading of its part of docs/check.md, the --call operands and the target. */
const SERVERS: ReadonlyArray<{ heading: string; calls: string[]; target: string[] }> = [
  {
    heading: '`@modelcontextprotocol/server-everything`',
    calls: ['get-structured-content location="New York"', 'echo message=hello'],
    target: ['--', ...OFFICIAL_EVERYTHING],
  },
  {
    heading: '`@modelcontextprotocol/server-filesystem`',
    calls: [
      `read_text_file path='${join(work, 'a.txt')}'`,
      'list_allowed_directories',
      `get_file_info path='${join(work, 'a.txt')}'`,
    ],
    target: ['--', peerBin('mcp-server-filesystem'), work],
  },
  {
    heading: '`mcpwire serve github`',
    calls: [
      'search_issues query="is:open repo:acme/webapp"',
      'get_issue owner=acme repo=webapp issue_number=1',
    ],
    target: ['--', ...MCPWIRE, 'serve', 'github', '--db', ':memory:'],
  },
];

/** `rule definition` for each row of the docs' table under `heading`, sorted. */
function documentedFindings(heading: string): string[] {
  const docs = readFileSync(join(ROOT, 'docs', 'check.md'), 'utf8');
  const section = docs.slice(docs.indexOf('\n## Three real servers\n'));
  const part = section.split('\n### ').find((each) => each.startsWith(heading));
  assert.ok(part !== undefined, `docs/check.md has a part "### ${heading}" under "Three real servers"`);
  const body = part.split('\n## ')[0]!;
  const pairs: string[] = [];
  for (const row of body.split('\n').filter((line) => line.startsWith('| `'))) {
    const [rule, definitions] = row.split('|').slice(1, 3);
    const ruleId = /`([^`]+)`/.exec(rule!)?.[1];
    for (const [, name] of definitions!.matchAll(/`([^`]+)`/g)) pairs.push(`${ruleId} ${name}`);
  }
  return pairs.sort();
}

describe('mcpwire check against three real servers', { concurrency: 3 }, () => {
  for (const { heading, calls, target } of SERVERS) {
    test(`${heading}: the findings docs/check.md lists, no more, no fewer (JSON and text)`, async () => {
      const args = ['check', ...calls.flatMap((call) => ['--call', call])];
      const json = await runCli([...args, '--format', 'json', ...target], { timeoutMs: 120_000 });
      assert.ok(json.code === 0 || json.code === 1, `exit ${json.code}: ${json.stderr}`);
      const report = JSON.parse(json.stdout) as { findings: Array<{ rule: string; name: string }> };
      const found = report.findings.map((finding) => `${finding.rule} ${finding.name}`).sort();
      assert.deepEqual(found, documentedFindings(heading));
      const text = await runCli([...args, ...target], { timeoutMs: 120_000 });
      assert.equal(text.code, json.code, text.stderr);
      const lines = text.stdout.split('\n').filter((line) => /^(error|warning|note) /.test(line));
      assert.deepEqual(
        lines
          .map((line) => line.split(' ').slice(1, 4))
          .map(([rule, , name]) => `${rule} ${name?.replace(/:$/, '')}`)
          .sort(),
        found,
      );
    });
  }

  test('over HTTP: check --call makes a real call of server-github (an issue is filed) and checks its result', async () => {
    await using server = await startOurHttpServer(['github', '--db', ':memory:']);
    const title = 'Filed by mcpwire check';
    const checked = await runCli([
      'check',
      '--format',
      'json',
      '--call',
      `create_issue owner=acme repo=webapp title='${title}' labels='["bug"]'`,
      server.url,
    ]);
    assert.equal(checked.code, 0, checked.stderr);
    assert.deepEqual((JSON.parse(checked.stdout) as { findings: unknown[] }).findings, []);
    // The call was real: the server holds the issue after check has gone.
    const listed = await runCli(['call', server.url, 'list_issues', 'owner=acme', 'repo=webapp', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const { structuredContent } = JSON.parse(listed.stdout) as {
      structuredContent: { issues: Array<{ title: string; labels: Array<{ name: string }> }> };
    };
    const filed = structuredContent.issues.filter((issue) => issue.title === title);
    assert.deepEqual(
      filed.map((issue) => issue.labels.map((label) => label.name)),
      [['bug']],
    );
  });
});

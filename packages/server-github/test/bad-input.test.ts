// Bad input never reaches SQL as SQL and never hurts the database (TOOL-11: validate all tool
// inputs): unknown owners and repositories, numbers out of range, SQL- and FTS-looking strings,
// malformed queries and huge strings each get an isError result naming what was wrong
// (TOOL-7, SEP-1303), and afterwards the data is intact and still writable.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createGithubServer } from '../src/github.ts';
import { call, callOk, connectClient, TempDir, textOf } from './support/peers.ts';

const WEBAPP = { owner: 'acme', repo: 'webapp' };
const SQL = [
  "'; DROP TABLE issues; --",
  '1 OR 1=1',
  '" OR ""="',
  'acme/*',
  "webapp' UNION SELECT login FROM users --",
];

/** Every table's row count and the FTS index check: what must not change under bad input. */
function fingerprint(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' ORDER BY name")
      .all() as Array<{ name: string }>;
    const counts = tables.map(
      ({ name }) => `${name}=${(db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n}`,
    );
    return [...counts, String(db.pragma('integrity_check', { simple: true }))].join(' ');
  } finally {
    db.close();
  }
}

/** Each case: the tool, its arguments, and what the error must name. */
const CASES: Array<[string, Record<string, unknown>, RegExp]> = [
  [
    'get_issue',
    { owner: 'nobody', repo: 'webapp', issue_number: 1 },
    /Unknown owner "nobody": the owners are acme, octo-labs, priya/,
  ],
  [
    'get_issue',
    { owner: 'acme', repo: 'nothing', issue_number: 1 },
    /Unknown repository "nothing" of owner "acme": its repositories are api-gateway, design-system, webapp/,
  ],
  [
    'get_issue',
    { ...WEBAPP, issue_number: 100000 },
    /No issue or pull request #100000 in acme\/webapp \(numbers run from 1 to \d+\)/,
  ],
  ['get_issue', { ...WEBAPP, issue_number: 0 }, /issue_number/],
  ['get_issue', { ...WEBAPP, issue_number: 2 ** 40 }, /issue_number/],
  ['get_issue', { ...WEBAPP, issue_number: '1; DROP TABLE issues' }, /issue_number/],
  ['get_pull_request', { ...WEBAPP, pullNumber: 1.5 }, /pullNumber/],
  ['list_issues', { ...WEBAPP, perPage: 1000 }, /perPage/],
  ['search_issues', { query: 'label:' }, /"label:" needs a value/],
  ['search_issues', { query: 'is:sideways' }, /is:"sideways" is not supported/],
  ['search_issues', { query: 'repo:justone' }, /"repo:" takes owner\/name/],
  ['search_issues', { query: 'colour:red' }, /unknown qualifier "colour:"/],
  ['search_issues', { query: 'open "quote' }, /unbalanced double quote/],
  ['search_issues', { query: 'x'.repeat(257) }, /query/],
  ['search_issues', { query: 'bug', page: 40, perPage: 30 }, /first 1000 search results/],
  ['search_code', { query: 'repo:acme/webapp' }, /at least one word/],
  ['search_code', { query: 'x language:cobol' }, /unknown language:cobol/],
  ['get_file_contents', { ...WEBAPP, path: '../../etc/passwd' }, /No file or directory/],
  [
    'get_file_contents',
    { ...WEBAPP, path: 'README.md', ref: 'no-such-branch' },
    /No branch "no-such-branch"/,
  ],
  ['create_issue', { ...WEBAPP, title: '' }, /title/],
  ['create_issue', { ...WEBAPP, title: 't'.repeat(257) }, /title/],
  ['create_issue', { ...WEBAPP, title: 'ok', body: 'b'.repeat(70_000) }, /body/],
  [
    'create_issue',
    { ...WEBAPP, title: 'ok', assignees: ['ghost-user'] },
    /Unknown user "ghost-user" in "assignees"/,
  ],
  ['create_issue', { ...WEBAPP, title: 'ok', extra: 1 }, /extra|additional/],
  ['add_issue_comment', { ...WEBAPP, issue_number: 1, body: '' }, /body/],
  [
    'update_issue',
    { ...WEBAPP, issue_number: 1, labels: ['bug', "x' OR '1'='1"] },
    /Unknown label "x' OR '1'='1"/,
  ],
];

test('TOOL-7, TOOL-11: every bad input is a tool error naming the problem; the database is unchanged', async () => {
  using dir = new TempDir();
  const file = dir.file('github.sqlite3');
  await using server = createGithubServer({ db: file });
  const client = await connectClient(server, 'handshake');
  const before = fingerprint(file);
  for (const [name, args, expected] of CASES) {
    const result = await call(client, name, args);
    assert.equal(result.isError, true, `${name} ${JSON.stringify(args).slice(0, 80)} should fail`);
    assert.match(textOf(result), expected, `${name} ${JSON.stringify(args).slice(0, 80)}`);
  }
  assert.equal(fingerprint(file), before);
  assert.match(before, /ok$/);
  await client.close();
});

test('SQL- and FTS-looking strings are data: unknown names, literal search terms, stored verbatim', async () => {
  using dir = new TempDir();
  const file = dir.file('github.sqlite3');
  await using server = createGithubServer({ db: file });
  const client = await connectClient(server, 'stateless');
  for (const value of SQL) {
    const asOwner = await call(client, 'list_issues', { owner: value, repo: 'webapp' });
    assert.equal(asOwner.isError, true);
    assert.match(textOf(asOwner), /Unknown owner|\/owner: must NOT have more than 39 characters/);
    const asRepo = await call(client, 'list_issues', { owner: 'acme', repo: value });
    assert.match(textOf(asRepo), /Unknown repository/);
    const searched = await callOk<{ total_count: number }>(client, 'search_issues', {
      query: `"${value.replace(/"/g, '')}"`,
    });
    assert.equal(typeof searched.total_count, 'number');
  }
  for (const query of [
    'NEAR(login reset)',
    'title:login',
    'login OR *',
    'AND',
    '{title}: login',
    '^login',
    '%_%',
  ]) {
    const result = await call(client, query.includes(':') ? 'search_code' : 'search_issues', {
      query: query.includes(':') ? `"${query}"` : query,
    });
    assert.equal(result.isError, undefined, `${query}: ${textOf(result)}`);
  }
  const title = 'Robert\'); DROP TABLE issues; -- " {title}: NEAR(*)';
  const created = await callOk<{ number: number; title: string }>(client, 'create_issue', {
    ...WEBAPP,
    title,
    body: SQL.join('\n'),
  });
  assert.equal(created.title, title);
  const found = await callOk<{ items: Array<{ number: number }> }>(client, 'search_issues', {
    query: 'Robert DROP',
    ...WEBAPP,
  });
  assert.deepEqual(
    found.items.map((item) => item.number),
    [created.number],
  );
  await client.close();
  const db = new Database(file, { readonly: true });
  assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  assert.equal(
    (db.prepare('SELECT title FROM issues WHERE title = ?').get(title) as { title: string }).title,
    title,
  );
  db.close();
});

test('a huge argument is refused by the schema before any work, and the server keeps serving', async () => {
  await using server = createGithubServer({ db: ':memory:' });
  const client = await connectClient(server, 'handshake');
  const huge = 'A'.repeat(1_000_000);
  for (const args of [
    { owner: huge, repo: 'webapp' },
    { owner: 'acme', repo: 'webapp', labels: [huge] },
  ]) {
    const result = await call(client, 'list_issues', args);
    assert.equal(result.isError, true);
    assert.ok(textOf(result).length < 2000, 'the error does not echo the whole input');
  }
  const still = await callOk<{ total_count: number }>(client, 'list_issues', WEBAPP);
  assert.ok(still.total_count > 0);
  await client.close();
});

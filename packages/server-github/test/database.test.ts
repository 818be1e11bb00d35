// The database underneath: the default path per platform, WAL and foreign keys, migrations recorded
// in schema_migrations and user_version, a deterministic seed of realistic size on first start
// only, data that survives a restart, and a refusal to open a database newer than the code.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createGithubServer, defaultDatabasePath } from '../src/github.ts';
import { openDatabase } from '../src/database/open-database.ts';
import { MIGRATIONS } from '../src/migrations/migrations.ts';
import { callOk, connectClient, TempDir } from './support/peers.ts';

test('the default path follows each platform convention (XDG on Linux)', () => {
  const home = '/home/ada';
  assert.equal(
    defaultDatabasePath({ env: { XDG_DATA_HOME: '/data' }, platform: 'linux', home }),
    '/data/mcpwire/github.sqlite3',
  );
  assert.equal(
    defaultDatabasePath({ env: {}, platform: 'linux', home }),
    '/home/ada/.local/share/mcpwire/github.sqlite3',
  );
  // XDG: a relative XDG_DATA_HOME is invalid and ignored.
  assert.equal(
    defaultDatabasePath({ env: { XDG_DATA_HOME: 'rel' }, platform: 'linux', home }),
    '/home/ada/.local/share/mcpwire/github.sqlite3',
  );
  assert.equal(
    defaultDatabasePath({ env: {}, platform: 'darwin', home: '/Users/ada' }),
    '/Users/ada/Library/Application Support/mcpwire/github.sqlite3',
  );
  assert.match(
    defaultDatabasePath({ env: { LOCALAPPDATA: 'C:\\Users\\ada\\AppData\\Local' }, platform: 'win32', home }),
    /AppData.Local.mcpwire.github\.sqlite3$/,
  );
});

test('a new database gets WAL, foreign keys, every migration recorded, and the seed (in a created folder)', () => {
  using dir = new TempDir();
  const file = dir.file('nested/folder/github.sqlite3');
  const db = openDatabase(file);
  try {
    assert.ok(existsSync(file));
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
    assert.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.at(-1)!.version);
    const applied = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    assert.deepEqual(
      applied,
      MIGRATIONS.map(({ version, name }) => ({ version, name })),
    );
    const count = (table: string): number =>
      (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.ok(count('repositories') >= 5 && count('users') >= 15);
    assert.ok(count('issues') >= 300, `issues: ${count('issues')}`);
    assert.ok(count('comments') >= 500 && count('pull_requests') >= 30 && count('pull_request_files') >= 30);
    assert.ok(count('issue_labels') > 0 && count('issue_assignees') > 0 && count('files') >= 30);
    assert.throws(
      () =>
        db
          .prepare('INSERT INTO comments (issue_id, author_id, body, created_at) VALUES (999999, 1, ?, ?)')
          .run('x', 'now'),
      /FOREIGN KEY/,
    );
  } finally {
    db.close();
  }
});

test('the seed is deterministic: two new databases hold the same rows', () => {
  const digest = (): string => {
    const db = openDatabase(':memory:');
    try {
      const rows = db.prepare('SELECT number, title, body, state, created_at FROM issues ORDER BY id').all();
      const patches = db
        .prepare('SELECT filename, patch FROM pull_request_files ORDER BY pull_request_id, filename')
        .all();
      return createHash('sha256')
        .update(JSON.stringify([rows, patches]))
        .digest('hex');
    } finally {
      db.close();
    }
  };
  assert.equal(digest(), digest());
});

test('data survives a restart; reopening neither re-migrates nor re-seeds', async () => {
  using dir = new TempDir();
  const file = dir.file('github.sqlite3');
  let number: number;
  {
    await using server = createGithubServer({ db: file });
    const client = await connectClient(server, 'handshake');
    ({ number } = await callOk<{ number: number }>(client, 'create_issue', {
      owner: 'acme',
      repo: 'webapp',
      title: 'Survives restarts',
    }));
    await callOk(client, 'add_issue_comment', {
      owner: 'acme',
      repo: 'webapp',
      issue_number: number,
      body: 'Still here',
    });
    await client.close();
  }
  await using server = createGithubServer({ db: file });
  const client = await connectClient(server, 'stateless');
  const issue = await callOk<{ title: string; comments: number }>(client, 'get_issue', {
    owner: 'acme',
    repo: 'webapp',
    issue_number: number,
  });
  assert.deepEqual([issue.title, issue.comments], ['Survives restarts', 1]);
  await client.close();
  await server.close();
  const db = new Database(file, { readonly: true });
  assert.equal(
    (db.prepare('SELECT count(*) AS n FROM schema_migrations').get() as { n: number }).n,
    MIGRATIONS.length,
  );
  assert.equal(
    (db.prepare("SELECT count(*) AS n FROM repositories WHERE name = 'webapp'").get() as { n: number }).n,
    1,
  );
  db.close();
});

test('a database from a newer schema is refused, not guessed at', () => {
  using dir = new TempDir();
  const file = dir.file('future.sqlite3');
  const future = new Database(file);
  future.pragma('user_version = 99');
  future.close();
  assert.throws(() => openDatabase(file), /schema version 99, newer than this server's 1/);
});

test('close() is idempotent and closes the database', async () => {
  const server = createGithubServer({ db: ':memory:' });
  await Promise.all([server.close(), server.close()]);
  await server.close();
  assert.equal(server.databasePath, ':memory:');
});

// Fills an empty database with the seeded world: accounts, repositories with labels, files and
// branches, and a timeline of issues and pull requests with comments. Runs inside the caller's
// transaction; the same SEED always gives the same rows.

import type { Db } from '../database/db.ts';
import { LABELS } from './issue-text.ts';
import { Random } from './random.ts';
import { ORGANIZATIONS, REPOSITORIES, USERS, type RepositorySpec } from './repository-specs.ts';
import { seedIssue, type SeedContext, type SeededRepository } from './seed-issues.ts';
import { seedPullRequest } from './seed-pull-requests.ts';
import { createRepositoryFiles } from './source-text.ts';

/** The generator's seed: change it and every seeded row changes. */
export const SEED = 0x9e3779b9;

/** Seeds the whole world. Call inside a transaction on a migrated, empty database. */
export function seedDatabase(db: Db): void {
  const random = new Random(SEED);
  let now = Date.UTC(2024, 0, 8, 9, 0, 0);
  const tick = (minHours: number, maxHours: number): string => {
    now += random.integer(minHours * 60, maxHours * 60) * 60_000;
    return new Date(now).toISOString();
  };
  const userIds = insertAccounts(db, tick);
  const context: SeedContext = { db, random, userIds, logins: USERS.map((user) => user.login), tick };
  for (const spec of REPOSITORIES) seedRepository(context, spec);
}

function insertAccounts(db: Db, tick: SeedContext['tick']): Map<string, number> {
  const insert = db.prepare('INSERT INTO users (login, name, type, created_at) VALUES (?, ?, ?, ?)');
  const ids = new Map<string, number>();
  for (const account of [...ORGANIZATIONS, ...USERS]) {
    const { lastInsertRowid } = insert.run(account.login, account.name, account.type, tick(1, 24));
    ids.set(account.login, Number(lastInsertRowid));
  }
  return ids;
}

function seedRepository(context: SeedContext, spec: RepositorySpec): void {
  const { db, random } = context;
  const ownerId = context.userIds.get(spec.owner)!;
  const { lastInsertRowid } = db
    .prepare('INSERT INTO repositories (owner_id, name, description, created_at) VALUES (?, ?, ?, ?)')
    .run(ownerId, spec.name, spec.description, context.tick(1, 12));
  const id = Number(lastInsertRowid);
  const insertLabel = db.prepare(
    'INSERT INTO labels (repository_id, name, color, description) VALUES (?, ?, ?, ?)',
  );
  const labelIds = new Map(
    LABELS.map(([name, color, description]) => [
      name,
      Number(insertLabel.run(id, name, color, description).lastInsertRowid),
    ]),
  );
  const files = createRepositoryFiles(spec, random);
  const insertFile = db.prepare(
    'INSERT INTO files (repository_id, ref, path, content, sha) VALUES (?, ?, ?, ?, ?)',
  );
  for (const file of files) insertFile.run(id, 'main', file.path, file.content, random.hex(40));
  db.prepare('INSERT INTO branches (repository_id, name, head_sha) VALUES (?, ?, ?)').run(
    id,
    'main',
    random.hex(40),
  );
  const repository: SeededRepository = {
    id,
    spec,
    labelIds,
    defaultFiles: new Map(files.map((file) => [file.path, file.content])),
  };
  const pullCount = Math.max(3, Math.round(spec.issueCount / 9));
  const kinds = random.sample(
    [...Array<'issue'>(spec.issueCount).fill('issue'), ...Array<'pull'>(pullCount).fill('pull')],
    spec.issueCount + pullCount,
  );
  kinds.forEach((kind, index) => {
    const number = index + 1;
    if (kind === 'issue') seedIssue(context, repository, number);
    else seedPullRequest(context, repository, number);
  });
  db.prepare('UPDATE repositories SET next_number = ? WHERE id = ?').run(kinds.length + 1, id);
}

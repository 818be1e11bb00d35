// Repositories and owners: resolving `owner/repo` to a row (or a clear error naming what exists),
// the acting user, and the candidate lists that completion offers.

import type { Db } from '../database/db.ts';
import { GithubInputError, quote } from './not-found.ts';

/** A repository row with its owner's login. */
export interface RepositoryRow {
  id: number;
  owner: string;
  name: string;
  description: string;
  defaultBranch: string;
}

/** `owner/name`, as GitHub writes a repository. */
export function fullName(repository: RepositoryRow): string {
  return `${repository.owner}/${repository.name}`;
}

const SELECT_REPOSITORY = `SELECT r.id, u.login AS owner, r.name, r.description, r.default_branch AS defaultBranch
  FROM repositories r JOIN users u ON u.id = r.owner_id`;

/** The repository `owner/repo` (case-insensitive, as on GitHub), or undefined. */
export function findRepository(db: Db, owner: string, repo: string): RepositoryRow | undefined {
  return db.prepare(`${SELECT_REPOSITORY} WHERE u.login = ? AND r.name = ?`).get(owner, repo) as
    RepositoryRow | undefined;
}

/** The repository `owner/repo`; throws GithubInputError naming the owners or repositories that exist. */
export function requireRepository(db: Db, owner: string, repo: string): RepositoryRow {
  const found = findRepository(db, owner, repo);
  if (found) return found;
  const names = listRepositoryNames(db, owner, '');
  if (names.length === 0)
    throw new GithubInputError(
      `Unknown owner ${quote(owner)}: the owners are ${listOwners(db, '').join(', ')}`,
    );
  throw new GithubInputError(
    `Unknown repository ${quote(repo)} of owner ${quote(owner)}: its repositories are ${names.join(', ')}`,
  );
}

/** Logins that own at least one repository and start with `prefix` (case-insensitive), sorted. */
export function listOwners(db: Db, prefix: string): string[] {
  const rows = db
    .prepare(
      `SELECT DISTINCT u.login FROM users u JOIN repositories r ON r.owner_id = u.id
              WHERE substr(lower(u.login), 1, length(?)) = lower(?) ORDER BY u.login`,
    )
    .all(prefix, prefix) as Array<{ login: string }>;
  return rows.map((row) => row.login);
}

/** Names of `owner`'s repositories that start with `prefix`, sorted; none for an unknown owner. */
export function listRepositoryNames(db: Db, owner: string, prefix: string): string[] {
  const rows = db
    .prepare(
      `SELECT r.name FROM repositories r JOIN users u ON u.id = r.owner_id
              WHERE u.login = ? AND substr(lower(r.name), 1, length(?)) = lower(?) ORDER BY r.name`,
    )
    .all(owner, prefix, prefix) as Array<{ name: string }>;
  return rows.map((row) => row.name);
}

/** The id of user `login`, or undefined. */
export function findUserId(db: Db, login: string): number | undefined {
  const row = db.prepare('SELECT id FROM users WHERE login = ?').get(login) as { id: number } | undefined;
  return row?.id;
}

/** The id of the acting account `login`, created on first use (the server's own "authenticated user"). */
export function ensureUser(db: Db, login: string): number {
  db.prepare(`INSERT OR IGNORE INTO users (login, name, type, created_at) VALUES (?, ?, 'User', ?)`).run(
    login,
    login,
    new Date().toISOString(),
  );
  return findUserId(db, login)!;
}

/** The ids of `logins`; throws GithubInputError naming the first unknown one. */
export function requireUserIds(db: Db, logins: readonly string[], field: string): number[] {
  return logins.map((login) => {
    const id = findUserId(db, login);
    if (id === undefined) throw new GithubInputError(`Unknown user ${quote(login)} in "${field}"`);
    return id;
  });
}

/** The label ids of `names` in `repository`; throws GithubInputError listing the repository's labels. */
export function requireLabelIds(db: Db, repository: RepositoryRow, names: readonly string[]): number[] {
  const find = db.prepare('SELECT id FROM labels WHERE repository_id = ? AND name = ?');
  return names.map((name) => {
    const row = find.get(repository.id, name) as { id: number } | undefined;
    if (row) return row.id;
    const known = db
      .prepare('SELECT name FROM labels WHERE repository_id = ? ORDER BY name')
      .all(repository.id) as Array<{ name: string }>;
    throw new GithubInputError(
      `Unknown label ${quote(name)} in ${fullName(repository)}: its labels are ${known.map((label) => label.name).join(', ')}`,
    );
  });
}

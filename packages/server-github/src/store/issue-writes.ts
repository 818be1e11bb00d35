// Writes to issues: create, update, comment. Each is one immediate transaction (the write lock is
// taken first, so concurrent writers queue instead of failing mid-way), and every value is bound.

import type { Db } from '../database/db.ts';
import { highestNumber, findIssueId } from './issue-records.ts';
import { GithubInputError } from './not-found.ts';
import { ensureUser, fullName, requireLabelIds, requireUserIds, type RepositoryRow } from './repositories.ts';

/** The fields of a new issue. */
export interface NewIssue {
  title: string;
  body?: string;
  labels?: readonly string[];
  assignees?: readonly string[];
}

/** Changes to an issue; absent fields stay as they are, lists replace the old ones. */
export interface IssueChanges {
  title?: string;
  body?: string;
  state?: 'open' | 'closed';
  stateReason?: 'completed' | 'not_planned' | 'reopened';
  labels?: readonly string[];
  assignees?: readonly string[];
}

/** A comment as the tools return it. */
export interface CommentRecord {
  id: number;
  issue_number: number;
  body: string;
  user: { login: string };
  created_at: string;
}

/** Opens an issue as `actor` under the repository's next number; returns the new issue's id. */
export function createIssue(db: Db, repository: RepositoryRow, actor: string, fields: NewIssue): number {
  return db
    .transaction(() => {
      const authorId = ensureUser(db, actor);
      const labelIds = requireLabelIds(db, repository, fields.labels ?? []);
      const assigneeIds = requireUserIds(db, fields.assignees ?? [], 'assignees');
      const { number } = db
        .prepare(
          'UPDATE repositories SET next_number = next_number + 1 WHERE id = ? RETURNING next_number - 1 AS number',
        )
        .get(repository.id) as { number: number };
      const now = new Date().toISOString();
      const { lastInsertRowid } = db
        .prepare(
          `INSERT INTO issues (repository_id, number, title, body, state, author_id, created_at, updated_at)
                  VALUES (?, ?, ?, ?, 'open', ?, ?, ?)`,
        )
        .run(repository.id, number, fields.title, fields.body ?? '', authorId, now, now);
      const issueId = Number(lastInsertRowid);
      replaceLinks(db, issueId, labelIds, assigneeIds);
      return issueId;
    })
    .immediate();
}

/** Applies `changes` to issue (or pull request) `number`; returns its id. */
export function updateIssue(
  db: Db,
  repository: RepositoryRow,
  number: number,
  changes: IssueChanges,
): number {
  return db
    .transaction(() => {
      const issueId = requireIssueId(db, repository, number);
      const now = new Date().toISOString();
      const set = db.prepare(
        `UPDATE issues SET title = coalesce(?, title), body = coalesce(?, body), updated_at = ? WHERE id = ?`,
      );
      set.run(changes.title ?? null, changes.body ?? null, now, issueId);
      if (changes.state === 'closed')
        db.prepare(
          `UPDATE issues SET state = 'closed', state_reason = ?, closed_at = coalesce(closed_at, ?) WHERE id = ?`,
        ).run(changes.stateReason ?? 'completed', now, issueId);
      if (changes.state === 'open')
        db.prepare(
          `UPDATE issues SET state = 'open', state_reason = CASE WHEN state = 'closed' THEN 'reopened' ELSE state_reason END, closed_at = NULL WHERE id = ?`,
        ).run(issueId);
      const labelIds = changes.labels && requireLabelIds(db, repository, changes.labels);
      const assigneeIds = changes.assignees && requireUserIds(db, changes.assignees, 'assignees');
      replaceLinks(db, issueId, labelIds, assigneeIds);
      return issueId;
    })
    .immediate();
}

/** Adds a comment by `actor` to issue (or pull request) `number`. */
export function addComment(
  db: Db,
  repository: RepositoryRow,
  number: number,
  actor: string,
  body: string,
): CommentRecord {
  return db
    .transaction(() => {
      const issueId = requireIssueId(db, repository, number);
      const authorId = ensureUser(db, actor);
      const now = new Date().toISOString();
      const { lastInsertRowid } = db
        .prepare('INSERT INTO comments (issue_id, author_id, body, created_at) VALUES (?, ?, ?, ?)')
        .run(issueId, authorId, body, now);
      db.prepare('UPDATE issues SET updated_at = ? WHERE id = ?').run(now, issueId);
      return {
        id: Number(lastInsertRowid),
        issue_number: number,
        body,
        user: { login: actor },
        created_at: now,
      };
    })
    .immediate();
}

/** One page of the comments of issue `issueId`, oldest first, and how many there are. */
export function listComments(
  db: Db,
  issueId: number,
  page: { page: number; perPage: number },
): { total: number; comments: CommentRecord[] } {
  const { total } = db.prepare('SELECT count(*) AS total FROM comments WHERE issue_id = ?').get(issueId) as {
    total: number;
  };
  const rows = db
    .prepare(
      `SELECT c.id, i.number, c.body, u.login, c.created_at AS createdAt FROM comments c
              JOIN issues i ON i.id = c.issue_id JOIN users u ON u.id = c.author_id
              WHERE c.issue_id = ? ORDER BY c.id LIMIT ? OFFSET ?`,
    )
    .all(issueId, page.perPage, (page.page - 1) * page.perPage) as Array<{
    id: number;
    number: number;
    body: string;
    login: string;
    createdAt: string;
  }>;
  const comments = rows.map((row) => ({
    id: row.id,
    issue_number: row.number,
    body: row.body,
    user: { login: row.login },
    created_at: row.createdAt,
  }));
  return { total, comments };
}

/** The id of issue or pull request `number`; throws GithubInputError saying which numbers exist. */
export function requireIssueId(db: Db, repository: RepositoryRow, number: number): number {
  const id = findIssueId(db, repository.id, number);
  if (id !== undefined) return id;
  const highest = highestNumber(db, repository.id);
  throw new GithubInputError(
    `No issue or pull request #${number} in ${fullName(repository)} (numbers run from 1 to ${highest})`,
  );
}

function replaceLinks(
  db: Db,
  issueId: number,
  labelIds: number[] | undefined,
  assigneeIds: number[] | undefined,
): void {
  if (labelIds) {
    db.prepare('DELETE FROM issue_labels WHERE issue_id = ?').run(issueId);
    const insert = db.prepare('INSERT OR IGNORE INTO issue_labels (issue_id, label_id) VALUES (?, ?)');
    for (const id of labelIds) insert.run(issueId, id);
  }
  if (assigneeIds) {
    db.prepare('DELETE FROM issue_assignees WHERE issue_id = ?').run(issueId);
    const insert = db.prepare('INSERT OR IGNORE INTO issue_assignees (issue_id, user_id) VALUES (?, ?)');
    for (const id of assigneeIds) insert.run(issueId, id);
  }
}

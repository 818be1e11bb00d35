// Seeded issues: the row, its labels, assignees and comments, and its state. Pull requests are
// issues too (one number sequence per repository), so their rows come from here as well.

import type { Db } from '../database/db.ts';
import { createCommentText, createIssueText } from './issue-text.ts';
import type { Random } from './random.ts';
import type { RepositorySpec } from './repository-specs.ts';

/** What the per-repository steps share: the connection, the generator, accounts and the clock. */
export interface SeedContext {
  db: Db;
  random: Random;
  userIds: ReadonlyMap<string, number>;
  logins: readonly string[];
  /** Moves the seeded clock forward by `minHours`..`maxHours` and returns the new time. */
  tick(minHours: number, maxHours: number): string;
}

/** One seeded repository as the steps see it. */
export interface SeededRepository {
  id: number;
  spec: RepositorySpec;
  labelIds: ReadonlyMap<string, number>;
  defaultFiles: ReadonlyMap<string, string>;
}

/** One issue row with its labels, assignees and comments; returns its id. */
export function seedIssue(context: SeedContext, repository: SeededRepository, number: number): number {
  const { random } = context;
  const text = createIssueText(random, repository.spec.areas);
  const issueId = insertIssueRow(context, repository, {
    number,
    title: text.title,
    body: text.body,
    isPullRequest: false,
  });
  const insertLabel = context.db.prepare(
    'INSERT OR IGNORE INTO issue_labels (issue_id, label_id) VALUES (?, ?)',
  );
  for (const label of text.labels) insertLabel.run(issueId, repository.labelIds.get(label)!);
  const insertAssignee = context.db.prepare('INSERT INTO issue_assignees (issue_id, user_id) VALUES (?, ?)');
  for (const login of random.sample(repository.spec.maintainers, random.integer(0, 2)))
    insertAssignee.run(issueId, context.userIds.get(login)!);
  return issueId;
}

/** The issue row and its comments, then its state; shared by issues and pull requests. */
export function insertIssueRow(
  context: SeedContext,
  repository: SeededRepository,
  fields: { number: number; title: string; body: string; isPullRequest: boolean; state?: 'open' | 'closed' },
): number {
  const { db, random } = context;
  const createdAt = context.tick(1, 20);
  const author = context.userIds.get(random.pick(context.logins))!;
  const { lastInsertRowid } = db
    .prepare(
      `INSERT INTO issues (repository_id, number, title, body, state, author_id, is_pull_request, created_at, updated_at)
              VALUES (?, ?, ?, ?, 'open', ?, ?, ?, ?)`,
    )
    .run(
      repository.id,
      fields.number,
      fields.title,
      fields.body,
      author,
      fields.isPullRequest ? 1 : 0,
      createdAt,
      createdAt,
    );
  const issueId = Number(lastInsertRowid);
  let updatedAt = createdAt;
  const insertComment = db.prepare(
    'INSERT INTO comments (issue_id, author_id, body, created_at) VALUES (?, ?, ?, ?)',
  );
  for (let count = random.integer(0, 5); count > 0; count--) {
    updatedAt = laterThan(updatedAt, random);
    const body = createCommentText(
      random,
      random.pick(repository.spec.areas),
      random.integer(1, Math.max(1, fields.number)),
    );
    insertComment.run(issueId, context.userIds.get(random.pick(context.logins))!, body, updatedAt);
  }
  const state = fields.state ?? (random.chance(0.55) ? 'closed' : 'open');
  if (state === 'closed') {
    updatedAt = laterThan(updatedAt, random);
    const reason = fields.isPullRequest ? null : random.chance(0.8) ? 'completed' : 'not_planned';
    db.prepare("UPDATE issues SET state = 'closed', state_reason = ?, closed_at = ? WHERE id = ?").run(
      reason,
      updatedAt,
      issueId,
    );
  }
  db.prepare('UPDATE issues SET updated_at = ? WHERE id = ?').run(updatedAt, issueId);
  return issueId;
}

/** A time 1 to 72 hours after `iso` (activity on an issue after it was opened). */
export function laterThan(iso: string, random: Random): string {
  return new Date(Date.parse(iso) + random.integer(60, 72 * 60) * 60_000).toISOString();
}

// Issues as the tools return them: GitHub's REST shape (a subset), built from rows in batches so a
// page of thirty issues costs four queries, not a hundred.

import type { Db } from '../database/db.ts';
import { issueUri } from '../uris.ts';

/** An account as GitHub embeds it. */
export interface UserRef {
  login: string;
}

/** A label as GitHub embeds it. */
export interface LabelRef {
  name: string;
  color: string;
}

/** An issue, or a pull request seen as an issue (then `pull_request` is present). */
export interface IssueRecord {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: 'completed' | 'not_planned' | 'reopened' | null;
  repository: string;
  user: UserRef;
  labels: LabelRef[];
  assignees: UserRef[];
  comments: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  /** The issue's resource (`github://repos/{owner}/{repo}/issues/{number}`). */
  uri: string;
  pull_request?: { merged_at: string | null; draft: boolean };
}

interface IssueRow {
  id: number;
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  stateReason: IssueRecord['state_reason'];
  owner: string;
  repo: string;
  login: string;
  comments: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  isPullRequest: 0 | 1;
  mergedAt: string | null;
  isDraft: 0 | 1 | null;
}

const SELECT_ISSUES = `SELECT i.id, i.number, i.title, i.body, i.state, i.state_reason AS stateReason,
    o.login AS owner, r.name AS repo, a.login, i.created_at AS createdAt, i.updated_at AS updatedAt,
    i.closed_at AS closedAt, i.is_pull_request AS isPullRequest, p.merged_at AS mergedAt, p.is_draft AS isDraft,
    (SELECT count(*) FROM comments c WHERE c.issue_id = i.id) AS comments
  FROM issues i
  JOIN repositories r ON r.id = i.repository_id
  JOIN users o ON o.id = r.owner_id
  JOIN users a ON a.id = i.author_id
  LEFT JOIN pull_requests p ON p.issue_id = i.id`;

/** The issues with `ids`, in the order of `ids` (unknown ids are skipped). */
export function loadIssues(db: Db, ids: readonly number[]): IssueRecord[] {
  if (ids.length === 0) return [];
  const list = JSON.stringify(ids);
  // The ids travel as one bound JSON array (json_each), never spliced into the SQL.
  const rows = db
    .prepare(`${SELECT_ISSUES} WHERE i.id IN (SELECT value FROM json_each(?))`)
    .all(list) as IssueRow[];
  const labels = groupBy(
    db
      .prepare(
        `SELECT il.issue_id AS issueId, l.name, l.color FROM issue_labels il JOIN labels l ON l.id = il.label_id
                WHERE il.issue_id IN (SELECT value FROM json_each(?)) ORDER BY l.name`,
      )
      .all(list) as Array<LabelRef & { issueId: number }>,
  );
  const assignees = groupBy(
    db
      .prepare(
        `SELECT ia.issue_id AS issueId, u.login FROM issue_assignees ia JOIN users u ON u.id = ia.user_id
                WHERE ia.issue_id IN (SELECT value FROM json_each(?)) ORDER BY u.login`,
      )
      .all(list) as Array<UserRef & { issueId: number }>,
  );
  const byId = new Map(
    rows.map((row) => [row.id, toRecord(row, labels.get(row.id) ?? [], assignees.get(row.id) ?? [])]),
  );
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The issue id of number `number` in repository `repositoryId` (issue or pull request), or undefined. */
export function findIssueId(db: Db, repositoryId: number, number: number): number | undefined {
  const row = db
    .prepare('SELECT id FROM issues WHERE repository_id = ? AND number = ?')
    .get(repositoryId, number) as { id: number } | undefined;
  return row?.id;
}

/** The highest number used in the repository (issues and pull requests share the sequence). */
export function highestNumber(db: Db, repositoryId: number): number {
  const row = db.prepare('SELECT max(number) AS n FROM issues WHERE repository_id = ?').get(repositoryId) as {
    n: number | null;
  };
  return row.n ?? 0;
}

function toRecord(row: IssueRow, labels: LabelRef[], assignees: UserRef[]): IssueRecord {
  const record: IssueRecord = {
    number: row.number,
    title: row.title,
    body: row.body,
    state: row.state,
    state_reason: row.stateReason,
    repository: `${row.owner}/${row.repo}`,
    user: { login: row.login },
    labels: labels.map(({ name, color }) => ({ name, color })),
    assignees: assignees.map(({ login }) => ({ login })),
    comments: row.comments,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
    closed_at: row.closedAt,
    uri: issueUri(row.owner, row.repo, row.number),
  };
  if (row.isPullRequest === 1) record.pull_request = { merged_at: row.mergedAt, draft: row.isDraft === 1 };
  return record;
}

function groupBy<T extends { issueId: number }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.issueId);
    if (group) group.push(row);
    else groups.set(row.issueId, [row]);
  }
  return groups;
}

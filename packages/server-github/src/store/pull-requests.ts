// Pull requests as the tools return them (GitHub's REST shape, a subset): lists, one pull request
// with its branches and counts, its changed files, and its whole diff.

import type { Db } from '../database/db.ts';
import { toFileDiff } from '../seed/unified-diff.ts';
import { pullUri } from '../uris.ts';
import { loadIssues, type IssueRecord, type LabelRef, type UserRef } from './issue-records.ts';
import { GithubInputError } from './not-found.ts';
import { fullName, type RepositoryRow } from './repositories.ts';

/** A pull request. */
export interface PullRequestRecord {
  number: number;
  title: string;
  body: string;
  state: 'open' | 'closed';
  draft: boolean;
  merged: boolean;
  merged_at: string | null;
  merged_by: UserRef | null;
  repository: string;
  user: UserRef;
  labels: LabelRef[];
  assignees: UserRef[];
  head: { ref: string; sha: string };
  base: { ref: string; sha: string };
  comments: number;
  additions: number;
  deletions: number;
  changed_files: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
  uri: string;
}

/** A changed file of a pull request, with its patch (hunks only, as GitHub returns it). */
export interface PullRequestFile {
  filename: string;
  status: 'added' | 'modified' | 'removed';
  additions: number;
  deletions: number;
  changes: number;
  patch: string;
}

interface PullRow {
  issueId: number;
  headRef: string;
  baseRef: string;
  headSha: string;
  baseSha: string;
  mergedBy: string | null;
  additions: number;
  deletions: number;
  changedFiles: number;
}

/** Filters of list_pull_requests. */
export interface PullFilter {
  state: 'open' | 'closed' | 'all';
  head?: string;
  base?: string;
  sort: 'created' | 'updated';
  direction: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** One page of the repository's pull requests and how many match. */
export function listPullRequests(
  db: Db,
  repository: RepositoryRow,
  filter: PullFilter,
): { total: number; pulls: PullRequestRecord[] } {
  const where =
    "WHERE i.repository_id = ? AND (? = 'all' OR i.state = ?) AND (? IS NULL OR p.head_ref = ?) AND (? IS NULL OR p.base_ref = ?)";
  const params = [
    repository.id,
    filter.state,
    filter.state,
    filter.head ?? null,
    filter.head ?? null,
    filter.base ?? null,
    filter.base ?? null,
  ];
  const from = 'FROM pull_requests p JOIN issues i ON i.id = p.issue_id';
  const { total } = db.prepare(`SELECT count(*) AS total ${from} ${where}`).get(...params) as {
    total: number;
  };
  const column = filter.sort === 'updated' ? 'i.updated_at' : 'i.created_at';
  const direction = filter.direction === 'asc' ? 'ASC' : 'DESC';
  const rows = db
    .prepare(
      `SELECT i.id ${from} ${where} ORDER BY ${column} ${direction}, i.number ${direction} LIMIT ? OFFSET ?`,
    )
    .all(...params, filter.perPage, (filter.page - 1) * filter.perPage) as Array<{ id: number }>;
  return {
    total,
    pulls: loadPullRequests(
      db,
      rows.map((row) => row.id),
    ),
  };
}

/** Pull request `number`; throws GithubInputError if the number is an issue or unused. */
export function requirePullRequest(db: Db, repository: RepositoryRow, number: number): PullRequestRecord {
  const row = db
    .prepare(
      'SELECT i.id, i.is_pull_request AS isPull FROM issues i WHERE i.repository_id = ? AND i.number = ?',
    )
    .get(repository.id, number) as { id: number; isPull: 0 | 1 } | undefined;
  if (row?.isPull === 1) return loadPullRequests(db, [row.id])[0]!;
  if (row)
    throw new GithubInputError(
      `#${number} in ${fullName(repository)} is an issue, not a pull request; use get_issue`,
    );
  throw new GithubInputError(`No pull request #${number} in ${fullName(repository)}`);
}

/** The changed files of pull request `number`, by file name. */
export function listPullRequestFiles(db: Db, repository: RepositoryRow, number: number): PullRequestFile[] {
  const pull = requirePullRequest(db, repository, number);
  const rows = db
    .prepare(
      `SELECT f.filename, f.status, f.additions, f.deletions, f.patch FROM pull_request_files f
              JOIN issues i ON i.id = f.pull_request_id WHERE i.repository_id = ? AND i.number = ? ORDER BY f.filename`,
    )
    .all(repository.id, pull.number) as Array<Omit<PullRequestFile, 'changes'>>;
  return rows.map((row) => ({ ...row, changes: row.additions + row.deletions }));
}

/** The whole diff of pull request `number`, as `git diff base...head` prints it. */
export function pullRequestDiff(db: Db, repository: RepositoryRow, number: number): string {
  return listPullRequestFiles(db, repository, number)
    .map((file) => toFileDiff(file.filename, file.status, file.patch))
    .join('');
}

/** The pull requests with issue ids `ids`, in that order. */
export function loadPullRequests(db: Db, ids: readonly number[]): PullRequestRecord[] {
  const issues = loadIssues(db, ids);
  // loadIssues keeps the order of `ids` and skips only unknown ids; these come from the database.
  const issueById = new Map(issues.length === ids.length ? ids.map((id, index) => [id, issues[index]!]) : []);
  const rows = db
    .prepare(
      `SELECT p.issue_id AS issueId, p.head_ref AS headRef, p.base_ref AS baseRef, p.head_sha AS headSha,
                p.base_sha AS baseSha, m.login AS mergedBy,
                coalesce(sum(f.additions), 0) AS additions, coalesce(sum(f.deletions), 0) AS deletions,
                count(f.filename) AS changedFiles
              FROM pull_requests p LEFT JOIN users m ON m.id = p.merged_by_id
              LEFT JOIN pull_request_files f ON f.pull_request_id = p.issue_id
              WHERE p.issue_id IN (SELECT value FROM json_each(?)) GROUP BY p.issue_id`,
    )
    .all(JSON.stringify(ids)) as PullRow[];
  const byId = new Map<number, PullRequestRecord>();
  for (const row of rows) {
    const issue = issueById.get(row.issueId);
    if (issue) byId.set(row.issueId, toRecord(issue, row));
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}

function toRecord(issue: IssueRecord, row: PullRow): PullRequestRecord {
  const [owner = '', repo = ''] = issue.repository.split('/');
  const mergedAt = issue.pull_request?.merged_at ?? null;
  return {
    number: issue.number,
    title: issue.title,
    body: issue.body,
    state: issue.state,
    draft: issue.pull_request?.draft ?? false,
    merged: mergedAt !== null,
    merged_at: mergedAt,
    merged_by: row.mergedBy === null ? null : { login: row.mergedBy },
    repository: issue.repository,
    user: issue.user,
    labels: issue.labels,
    assignees: issue.assignees,
    head: { ref: row.headRef, sha: row.headSha },
    base: { ref: row.baseRef, sha: row.baseSha },
    comments: issue.comments,
    additions: row.additions,
    deletions: row.deletions,
    changed_files: row.changedFiles,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at,
    uri: pullUri(owner, repo, issue.number),
  };
}

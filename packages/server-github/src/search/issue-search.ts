// Runs a parsed issue search against SQLite: the filter becomes WHERE clauses with bound
// parameters, free text an FTS5 match over titles, bodies and comments, ranked by bm25.

import type { Db } from '../database/db.ts';
import { GithubInputError } from '../store/not-found.ts';
import type { IssueFilter } from './issue-query.ts';
import { toFtsQuery } from './query-tokens.ts';

/** How results are ordered: GitHub's `sort` (default best match, then newest) and `order`. */
export interface SearchOrder {
  sort?: 'created' | 'updated' | 'comments';
  order?: 'asc' | 'desc';
}

/** A page request; GitHub serves only the first 1000 results of a search. */
export interface PageRequest {
  page: number;
  perPage: number;
}

/** GitHub's cap on reachable search results. */
export const MAX_SEARCH_RESULTS = 1000;

/** A search compiled to SQL: the WHERE clause, its parameters and the ORDER BY. */
export interface CompiledSearch {
  from: string;
  where: string;
  params: unknown[];
  orderBy: string;
  rankParams: unknown[];
}

const FROM = `FROM issues i
  JOIN repositories r ON r.id = i.repository_id
  JOIN users o ON o.id = r.owner_id
  JOIN users a ON a.id = i.author_id
  LEFT JOIN pull_requests p ON p.issue_id = i.id`;

/** Compiles `filter`: every value is a bound parameter; the SQL text comes from this file alone. */
export function compileIssueSearch(filter: IssueFilter, order: SearchOrder): CompiledSearch {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (clause: string, ...values: unknown[]): void => {
    where.push(clause);
    params.push(...values);
  };
  if (filter.state) add('i.state = ?', filter.state);
  if (filter.type) add('i.is_pull_request = ?', filter.type === 'pr' ? 1 : 0);
  if (filter.isMerged !== undefined) add(filter.isMerged ? 'p.merged_at IS NOT NULL' : 'p.merged_at IS NULL');
  if (filter.isDraft) add('p.is_draft = 1');
  const labelled = `EXISTS (SELECT 1 FROM issue_labels il JOIN labels l ON l.id = il.label_id WHERE il.issue_id = i.id AND l.name = ?)`;
  for (const label of filter.labels) add(labelled, label);
  for (const label of filter.excludedLabels) add(`NOT ${labelled}`, label);
  if (filter.authors.length > 0)
    add('a.login IN (SELECT value FROM json_each(?))', JSON.stringify(filter.authors));
  for (const login of filter.assignees)
    add(
      'EXISTS (SELECT 1 FROM issue_assignees ia JOIN users u ON u.id = ia.user_id WHERE ia.issue_id = i.id AND u.login = ?)',
      login,
    );
  if (filter.repos.length > 0)
    add(
      `(${filter.repos.map(() => '(o.login = ? AND r.name = ?)').join(' OR ')})`,
      ...filter.repos.flatMap(({ owner, repo }) => [owner, repo]),
    );
  if (filter.scope) add('o.login = ?', filter.scope.owner);
  if (filter.scope?.repo !== undefined) add('r.name = ?', filter.scope.repo);
  if (filter.owners.length > 0)
    add('o.login IN (SELECT value FROM json_each(?))', JSON.stringify(filter.owners));
  if (filter.hasNoLabel) add('NOT EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id)');
  if (filter.hasNoAssignee) add('NOT EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.issue_id = i.id)');
  const text = compileText(filter);
  if (text) add(text.clause, ...text.params);
  const ranked = text?.rankQuery !== undefined && order.sort === undefined;
  return {
    from: ranked
      ? `${FROM} LEFT JOIN (SELECT rowid AS id, bm25(issues_fts) AS score FROM issues_fts WHERE issues_fts MATCH ?) m ON m.id = i.id`
      : FROM,
    where: where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`,
    params,
    orderBy: orderClause(order, ranked),
    rankParams: ranked ? [text.rankQuery] : [],
  };
}

/** The number of matches and the ids of one page of them. Throws GithubInputError past result 1000. */
export function runIssueSearch(
  db: Db,
  search: CompiledSearch,
  page: PageRequest,
): { total: number; ids: number[] } {
  if ((page.page - 1) * page.perPage >= MAX_SEARCH_RESULTS)
    throw new GithubInputError(
      `Only the first ${MAX_SEARCH_RESULTS} search results are available: page ${page.page} of ${page.perPage} per page is past them`,
    );
  const { total } = db.prepare(`SELECT count(*) AS total ${FROM} ${search.where}`).get(...search.params) as {
    total: number;
  };
  const rows = db
    .prepare(`SELECT i.id ${search.from} ${search.where} ORDER BY ${search.orderBy} LIMIT ? OFFSET ?`)
    .all(...search.rankParams, ...search.params, page.perPage, (page.page - 1) * page.perPage) as Array<{
    id: number;
  }>;
  return { total, ids: rows.map((row) => row.id) };
}

function compileText(
  filter: IssueFilter,
): { clause: string; params: unknown[]; rankQuery?: string } | undefined {
  const match = toFtsQuery(filter.terms);
  if (match === undefined) return undefined;
  const fields = filter.fields.length === 0 ? ['title', 'body', 'comments'] : filter.fields;
  const columns = fields.filter((field) => field !== 'comments');
  const parts: string[] = [];
  const params: unknown[] = [];
  let rankQuery: string | undefined;
  if (columns.length > 0) {
    // A column filter written by us, applied to the user's (quoted) terms.
    rankQuery = `{${columns.join(' ')}} : (${match})`;
    parts.push('i.id IN (SELECT rowid FROM issues_fts WHERE issues_fts MATCH ?)');
    params.push(rankQuery);
  }
  if (fields.includes('comments')) {
    parts.push(
      'i.id IN (SELECT c.issue_id FROM comments c WHERE c.id IN (SELECT rowid FROM comments_fts WHERE comments_fts MATCH ?))',
    );
    params.push(match);
  }
  return rankQuery === undefined
    ? { clause: `(${parts.join(' OR ')})`, params }
    : { clause: `(${parts.join(' OR ')})`, params, rankQuery };
}

function orderClause(order: SearchOrder, ranked: boolean): string {
  const direction = order.order === 'asc' ? 'ASC' : 'DESC';
  switch (order.sort) {
    case 'created':
      return `i.created_at ${direction}, i.id ${direction}`;
    case 'updated':
      return `i.updated_at ${direction}, i.id ${direction}`;
    case 'comments':
      return `(SELECT count(*) FROM comments c WHERE c.issue_id = i.id) ${direction}, i.id ${direction}`;
    default:
      // Best match: bm25 is lower for better matches; comment-only matches (no score) come after.
      return ranked
        ? 'coalesce(m.score, 0) ASC, i.created_at DESC, i.id DESC'
        : 'i.created_at DESC, i.id DESC';
  }
}

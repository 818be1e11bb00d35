// Code search over the default branch of every repository (GitHub's `/search/code` subset):
// `repo:`, `org:`/`user:`, `path:`, `language:`, `extension:` and free text through FTS5, each hit
// with its matching lines.

import type { Db } from '../database/db.ts';
import { GithubInputError } from '../store/not-found.ts';
import { fileUri } from '../uris.ts';
import type { PageRequest } from './issue-search.ts';
import { MAX_SEARCH_RESULTS } from './issue-search.ts';
import { parseRepositoryName, toFtsQuery, tokenizeQuery } from './query-tokens.ts';

/** One file that matched, with up to five matching lines. */
export interface CodeHit {
  name: string;
  path: string;
  sha: string;
  repository: { full_name: string };
  uri: string;
  matches: Array<{ line: number; text: string }>;
}

const QUALIFIERS = ['repo', 'org', 'user', 'owner', 'path', 'language', 'extension'];

const LANGUAGE_EXTENSIONS: Readonly<Record<string, readonly string[]>> = {
  typescript: ['ts', 'tsx'],
  go: ['go'],
  python: ['py'],
  markdown: ['md'],
  json: ['json'],
  toml: ['toml'],
};

interface FileRow {
  path: string;
  sha: string;
  content: string;
  owner: string;
  repo: string;
}

/** Searches code; throws GithubInputError for a malformed query or one with no text to look for. */
export function searchCode(db: Db, query: string, page: PageRequest): { total: number; items: CodeHit[] } {
  const where = ['f.ref = r.default_branch'];
  const params: unknown[] = [];
  const terms: string[] = [];
  for (const token of tokenizeQuery(query, QUALIFIERS, 'search_code')) {
    if (token.qualifier === undefined) terms.push(token.value);
    else addQualifier(token.qualifier, token.value, where, params);
  }
  const match = toFtsQuery(terms);
  if (match === undefined)
    throw new GithubInputError('Malformed query for search_code: give at least one word to search for');
  if ((page.page - 1) * page.perPage >= MAX_SEARCH_RESULTS)
    throw new GithubInputError(`Only the first ${MAX_SEARCH_RESULTS} search results are available`);
  const from = `FROM files f JOIN repositories r ON r.id = f.repository_id JOIN users o ON o.id = r.owner_id
    JOIN (SELECT rowid AS id, bm25(files_fts) AS score FROM files_fts WHERE files_fts MATCH ?) m ON m.id = f.id
    WHERE ${where.join(' AND ')}`;
  const { total } = db.prepare(`SELECT count(*) AS total ${from}`).get(match, ...params) as { total: number };
  const rows = db
    .prepare(
      `SELECT f.path, f.sha, f.content, o.login AS owner, r.name AS repo ${from} ORDER BY m.score, f.path LIMIT ? OFFSET ?`,
    )
    .all(match, ...params, page.perPage, (page.page - 1) * page.perPage) as FileRow[];
  return { total, items: rows.map((row) => toHit(row, terms)) };
}

function addQualifier(qualifier: string, value: string, where: string[], params: unknown[]): void {
  if (qualifier === 'repo') {
    const { owner, repo } = parseRepositoryName(value, 'search_code');
    where.push('o.login = ? AND r.name = ?');
    params.push(owner, repo);
  } else if (qualifier === 'path') {
    // instr, not LIKE: `%` and `_` in the user's path are plain characters.
    where.push('instr(lower(f.path), lower(?)) > 0');
    params.push(value.replace(/^\/+/, ''));
  } else if (qualifier === 'language' || qualifier === 'extension') {
    const extensions =
      qualifier === 'language' ? LANGUAGE_EXTENSIONS[value.toLowerCase()] : [value.replace(/^\./, '')];
    if (!extensions)
      throw new GithubInputError(
        `Malformed query for search_code: unknown language:${value.slice(0, 40)} (known: ${Object.keys(LANGUAGE_EXTENSIONS).join(', ')})`,
      );
    where.push(`(${extensions.map(() => "f.path LIKE '%.' || ? ESCAPE '\\'").join(' OR ')})`);
    params.push(...extensions.map((extension) => extension.replace(/[\\%_]/g, (c) => `\\${c}`)));
  } else {
    where.push('o.login = ?');
    params.push(value);
  }
}

function toHit(row: FileRow, terms: readonly string[]): CodeHit {
  const needles = terms.map((term) => term.toLowerCase()).filter((term) => term !== '');
  const matches = row.content
    .split('\n')
    .map((text, index) => ({ line: index + 1, text }))
    .filter(({ text }) => needles.some((needle) => text.toLowerCase().includes(needle)))
    .slice(0, 5)
    .map(({ line, text }) => ({ line, text: text.length > 200 ? `${text.slice(0, 200)}…` : text }));
  return {
    name: row.path.split('/').at(-1) ?? row.path,
    path: row.path,
    sha: row.sha,
    repository: { full_name: `${row.owner}/${row.repo}` },
    uri: fileUri(row.owner, row.repo, row.path),
    matches,
  };
}

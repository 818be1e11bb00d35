// GitHub search syntax, the part both searches share: splitting a query into free-text terms and
// `qualifier:value` tokens (quotes group words, `-` negates), and turning terms into a safe FTS5 query.

import { GithubInputError, quote } from '../store/not-found.ts';

/** One token of a search query. */
export interface QueryToken {
  /** Lower-cased qualifier name (`label` of `label:bug`), or undefined for free text. */
  qualifier: string | undefined;
  value: string;
  /** A leading `-`: exclude instead of require. */
  isNegated: boolean;
}

// A qualifier, then a quoted or bare value; or a quoted phrase; or a bare word.
const TOKEN = /(-?)([A-Za-z][A-Za-z-]*):(?:"([^"]*)"|(\S*))|"([^"]*)"|(\S+)/g;

/**
 * Splits `query` into tokens. Throws GithubInputError for an unbalanced quote, an empty qualifier
 * value (`label:`), or a qualifier not in `qualifiers` (so a typo is reported, not searched for).
 */
export function tokenizeQuery(query: string, qualifiers: readonly string[], tool: string): QueryToken[] {
  if ((query.match(/"/g)?.length ?? 0) % 2 === 1)
    throw new GithubInputError(`Malformed query for ${tool}: unbalanced double quote in ${quote(query)}`);
  const tokens: QueryToken[] = [];
  for (const match of query.matchAll(TOKEN)) {
    const [, minus, name, quoted, bare, phrase, word] = match;
    if (name === undefined) {
      tokens.push({ qualifier: undefined, value: phrase ?? word ?? '', isNegated: false });
      continue;
    }
    const qualifier = name.toLowerCase();
    const value = quoted ?? bare ?? '';
    if (!qualifiers.includes(qualifier))
      throw new GithubInputError(
        `Malformed query for ${tool}: unknown qualifier "${qualifier}:" (supported: ${qualifiers.map((q) => `${q}:`).join(' ')}; quote text that contains a colon)`,
      );
    if (value === '')
      throw new GithubInputError(`Malformed query for ${tool}: "${qualifier}:" needs a value`);
    tokens.push({ qualifier, value, isNegated: minus === '-' });
  }
  return tokens;
}

/**
 * An FTS5 MATCH expression requiring every term: each term becomes a quoted FTS5 string (inner
 * quotes doubled), so operators, parentheses, `*`, `NEAR` and column filters in user text are
 * searched for as words, never interpreted. Undefined when no term has a searchable character.
 */
export function toFtsQuery(terms: readonly string[]): string | undefined {
  const strings = terms
    .filter((term) => /[\p{L}\p{N}]/u.test(term))
    .map((term) => `"${term.replace(/"/g, '""')}"`);
  return strings.length === 0 ? undefined : strings.join(' ');
}

/** Splits `owner/repo`; throws GithubInputError for anything else. */
export function parseRepositoryName(value: string, tool: string): { owner: string; repo: string } {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(value);
  if (!match)
    throw new GithubInputError(`Malformed query for ${tool}: "repo:" takes owner/name, got ${quote(value)}`);
  return { owner: match[1]!, repo: match[2]! };
}

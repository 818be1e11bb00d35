// The issue search language (GitHub's `/search/issues` subset): qualifiers parsed into a filter
// that issue-search.ts turns into SQL with bound parameters.

import { GithubInputError, quote } from '../store/not-found.ts';
import { parseRepositoryName, tokenizeQuery } from './query-tokens.ts';

/** A parsed issue search. Every list is ANDed except `repos`/`owners`/`authors`, which are alternatives. */
export interface IssueFilter {
  terms: string[];
  state?: 'open' | 'closed';
  type?: 'issue' | 'pr';
  isMerged?: boolean;
  isDraft?: boolean;
  labels: string[];
  excludedLabels: string[];
  authors: string[];
  assignees: string[];
  repos: Array<{ owner: string; repo: string }>;
  owners: string[];
  hasNoLabel: boolean;
  hasNoAssignee: boolean;
  /** Set by a tool's owner/repo arguments: ANDed with everything else, unlike `repo:`. */
  scope?: { owner: string; repo?: string };
  /** Where free text must match; empty means title, body and comments. */
  fields: Array<'title' | 'body' | 'comments'>;
}

const QUALIFIERS = [
  'is',
  'state',
  'type',
  'label',
  'author',
  'assignee',
  'repo',
  'org',
  'user',
  'owner',
  'no',
  'in',
];

/** Parses a GitHub issue query; throws GithubInputError naming the first problem. */
export function parseIssueQuery(query: string): IssueFilter {
  const filter: IssueFilter = {
    terms: [],
    labels: [],
    excludedLabels: [],
    authors: [],
    assignees: [],
    repos: [],
    owners: [],
    hasNoLabel: false,
    hasNoAssignee: false,
    fields: [],
  };
  for (const token of tokenizeQuery(query, QUALIFIERS, 'search_issues')) {
    if (token.qualifier === undefined) filter.terms.push(token.value);
    else if (token.qualifier === 'label')
      (token.isNegated ? filter.excludedLabels : filter.labels).push(token.value);
    else applyQualifier(filter, token.qualifier, token.value);
  }
  return filter;
}

function applyQualifier(filter: IssueFilter, qualifier: string, value: string): void {
  const lower = value.toLowerCase();
  switch (qualifier) {
    case 'is':
      return applyIs(filter, lower);
    case 'state':
      if (lower !== 'open' && lower !== 'closed') throw invalid(qualifier, value, 'open, closed');
      filter.state = lower;
      return;
    case 'type':
      filter.type = toType(lower) ?? throwInvalid(qualifier, value, 'issue, pr');
      return;
    case 'author':
      filter.authors.push(value);
      return;
    case 'assignee':
      filter.assignees.push(value);
      return;
    case 'repo':
      filter.repos.push(parseRepositoryName(value, 'search_issues'));
      return;
    case 'no':
      if (lower === 'label') filter.hasNoLabel = true;
      else if (lower === 'assignee') filter.hasNoAssignee = true;
      else throw invalid(qualifier, value, 'label, assignee');
      return;
    case 'in':
      for (const field of lower.split(',')) {
        if (field !== 'title' && field !== 'body' && field !== 'comments')
          throw invalid(qualifier, value, 'title, body, comments');
        filter.fields.push(field);
      }
      return;
    default:
      // org:, user: and owner: all name the repository owner.
      filter.owners.push(value);
  }
}

function applyIs(filter: IssueFilter, value: string): void {
  const type = toType(value);
  if (value === 'open' || value === 'closed') filter.state = value;
  else if (type) filter.type = type;
  else if (value === 'merged' || value === 'unmerged') {
    filter.type = 'pr';
    filter.isMerged = value === 'merged';
  } else if (value === 'draft') {
    filter.type = 'pr';
    filter.isDraft = true;
  } else throw invalid('is', value, 'open, closed, issue, pr, merged, unmerged, draft');
}

function toType(value: string): 'issue' | 'pr' | undefined {
  if (value === 'issue') return 'issue';
  if (value === 'pr' || value === 'pull-request' || value === 'pullrequest') return 'pr';
  return undefined;
}

function invalid(qualifier: string, value: string, allowed: string): GithubInputError {
  return new GithubInputError(
    `Malformed query for search_issues: ${qualifier}:${quote(value)} is not supported (${qualifier}: takes ${allowed})`,
  );
}

function throwInvalid(qualifier: string, value: string, allowed: string): never {
  throw invalid(qualifier, value, allowed);
}

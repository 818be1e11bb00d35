// JSON Schemas the github tools share: their parameters (named as the official GitHub MCP server
// names them, with GitHub's length limits) and the records they return.

/** Repository owner login (GitHub logins are at most 39 characters). */
export const OWNER = {
  type: 'string',
  minLength: 1,
  maxLength: 39,
  description: 'Repository owner (user or organisation login)',
} as const;
/** Repository name (at most 100 characters on GitHub). */
export const REPO = { type: 'string', minLength: 1, maxLength: 100, description: 'Repository name' } as const;
/** An issue or pull request number (a 32-bit positive integer, as GitHub's API takes). */
export const NUMBER = { type: 'integer', minimum: 1, maximum: 2147483647 } as const;
/** The issue a tool acts on. */
export const ISSUE_NUMBER = { ...NUMBER, description: 'The issue number (as in owner/repo#number)' } as const;
/** The pull request a tool acts on. */
export const PULL_NUMBER = {
  ...NUMBER,
  description: 'The pull request number (as in owner/repo#number)',
} as const;
/** A page of results, from 1. */
export const PAGE = {
  type: 'integer',
  minimum: 1,
  maximum: 1000,
  description: 'Page number, from 1 (default 1)',
} as const;
/** Results per page. */
export const PER_PAGE = {
  type: 'integer',
  minimum: 1,
  maximum: 100,
  description: 'Results per page, 1-100 (default 30)',
} as const;
/** An issue title: GitHub allows 256 characters. */
export const TITLE = { type: 'string', minLength: 1, maxLength: 256 } as const;
/** An issue or comment body: GitHub allows 65,536 characters. */
export const BODY = { type: 'string', maxLength: 65536 } as const;
/** A list of logins or label names. */
export const NAME_LIST = {
  type: 'array',
  maxItems: 20,
  items: { type: 'string', minLength: 1, maxLength: 100 },
} as const;

const USER = { type: 'object', properties: { login: { type: 'string' } }, required: ['login'] } as const;
const NULLABLE_STRING = { type: ['string', 'null'] } as const;

/** An issue, or a pull request seen as an issue. */
export const ISSUE_RECORD = {
  type: 'object',
  properties: {
    number: { type: 'integer' },
    title: { type: 'string' },
    body: { type: 'string' },
    state: { enum: ['open', 'closed'] },
    state_reason: { enum: ['completed', 'not_planned', 'reopened', null] },
    repository: { type: 'string' },
    user: USER,
    labels: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, color: { type: 'string' } },
        required: ['name'],
      },
    },
    assignees: { type: 'array', items: USER },
    comments: { type: 'integer' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
    closed_at: NULLABLE_STRING,
    uri: { type: 'string' },
    pull_request: { type: 'object', properties: { merged_at: NULLABLE_STRING, draft: { type: 'boolean' } } },
  },
  required: ['number', 'title', 'state', 'repository', 'user', 'labels', 'assignees', 'comments', 'uri'],
} as const;

/** A comment. */
export const COMMENT_RECORD = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    issue_number: { type: 'integer' },
    body: { type: 'string' },
    user: USER,
    created_at: { type: 'string' },
  },
  required: ['id', 'issue_number', 'body', 'user', 'created_at'],
} as const;

/** A pull request. */
export const PULL_RECORD = {
  type: 'object',
  properties: {
    number: { type: 'integer' },
    title: { type: 'string' },
    body: { type: 'string' },
    state: { enum: ['open', 'closed'] },
    draft: { type: 'boolean' },
    merged: { type: 'boolean' },
    merged_at: NULLABLE_STRING,
    user: USER,
    head: {
      type: 'object',
      properties: { ref: { type: 'string' }, sha: { type: 'string' } },
      required: ['ref', 'sha'],
    },
    base: {
      type: 'object',
      properties: { ref: { type: 'string' }, sha: { type: 'string' } },
      required: ['ref', 'sha'],
    },
    additions: { type: 'integer' },
    deletions: { type: 'integer' },
    changed_files: { type: 'integer' },
    uri: { type: 'string' },
  },
  required: ['number', 'title', 'state', 'draft', 'merged', 'user', 'head', 'base', 'changed_files', 'uri'],
} as const;

/** An object schema of `properties`, all of them optional unless listed in `required`. */
export function objectSchema<P extends Record<string, object>>(
  properties: P,
  required: ReadonlyArray<keyof P & string> = [],
) {
  return { type: 'object', properties, required, additionalProperties: false } as const;
}

/** `{ total_count, <key>: items[] }`: a page of a list, GitHub's search result shape. */
export function pageSchema(key: string, items: object) {
  return {
    type: 'object',
    properties: { total_count: { type: 'integer' }, [key]: { type: 'array', items } },
    required: ['total_count', key],
  } as const;
}

/** `{ total_count, incomplete_results, items }`: GitHub's search result shape. */
export function searchResultSchema(items: object) {
  return {
    type: 'object',
    properties: {
      total_count: { type: 'integer' },
      incomplete_results: { type: 'boolean' },
      items: { type: 'array', items },
    },
    required: ['total_count', 'incomplete_results', 'items'],
  } as const;
}

/** Annotations of a tool that adds a row (an issue, a comment): nothing overwritten, a repeat adds another. */
export const ADDS_ROW = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
} as const;

/** Annotations of a tool that only reads the local database (TOOL-6: hints, truthful ones). */
export const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * The execution of the slow searches: a client may run them as tasks (TASK-3 `optional`; in the
 * stateless era the server makes one for a client that declared the tasks extension, S26-TASK-2).
 */
export const TASK_OPTIONAL = { taskSupport: 'optional' } as const;

// The github tools for repository contents: search_code (FTS5 over every default branch) and
// get_file_contents (a file as an embedded resource, or a directory listing).

import { searchCode } from '../search/code-search.ts';
import { getContents, mimeTypeOf } from '../store/files.ts';
import {
  OWNER,
  PAGE,
  PER_PAGE,
  READ_ONLY,
  REPO,
  TASK_OPTIONAL,
  objectSchema,
  searchResultSchema,
} from './schemas.ts';
import { optionalString, pageOf, repositoryOf, type GithubContext } from './tool-context.ts';

const CODE_HIT = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    path: { type: 'string' },
    sha: { type: 'string' },
    repository: { type: 'object', properties: { full_name: { type: 'string' } }, required: ['full_name'] },
    uri: { type: 'string' },
    matches: {
      type: 'array',
      items: {
        type: 'object',
        properties: { line: { type: 'integer' }, text: { type: 'string' } },
        required: ['line', 'text'],
      },
    },
  },
  required: ['name', 'path', 'repository', 'uri', 'matches'],
} as const;

/** Registers search_code and get_file_contents. */
export function registerCodeTools(context: GithubContext): void {
  context.server.tool(
    {
      name: 'search_code',
      title: 'Search code',
      description:
        "Searches the files of every repository's default branch: words (all must match) plus repo:owner/name, " +
        'org:/user:, path:, language: (typescript, go, python, markdown, json, toml) and extension:.',
      inputSchema: objectSchema(
        {
          query: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
            description: 'Search query (GitHub code search syntax)',
          },
          page: PAGE,
          perPage: PER_PAGE,
        },
        ['query'],
      ),
      outputSchema: searchResultSchema(CODE_HIT),
      annotations: READ_ONLY,
      execution: TASK_OPTIONAL,
    },
    (args) => {
      const { total, items } = searchCode(context.db, String(args.query), pageOf(args));
      return { structuredContent: { total_count: total, incomplete_results: false, items } };
    },
  );
  registerGetFileContents(context);
}

function registerGetFileContents(context: GithubContext): void {
  context.server.tool(
    {
      name: 'get_file_contents',
      title: 'Get file or directory contents',
      description:
        'Gets a file (as an embedded resource) or a directory listing, at a branch (default: the default branch).',
      inputSchema: objectSchema(
        {
          owner: OWNER,
          repo: REPO,
          path: {
            type: 'string',
            maxLength: 1024,
            description: 'File or directory path; "" or "/" is the root',
          },
          ref: { type: 'string', minLength: 1, maxLength: 255, description: 'Branch name' },
        },
        ['owner', 'repo'],
      ),
      outputSchema: {
        type: 'object',
        properties: {
          type: { enum: ['file', 'dir'] },
          path: { type: 'string' },
          ref: { type: 'string' },
          sha: { type: 'string' },
          size: { type: 'integer' },
          uri: { type: 'string' },
          entries: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                type: { enum: ['file', 'dir'] },
                name: { type: 'string' },
                path: { type: 'string' },
              },
            },
          },
        },
        required: ['type', 'path', 'ref'],
      },
      annotations: READ_ONLY,
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const found = getContents(
        context.db,
        repository,
        optionalString(args, 'path') ?? '',
        optionalString(args, 'ref'),
      );
      if (found.type === 'dir') return { structuredContent: found };
      const { content, ...facts } = found;
      return {
        structuredContent: facts,
        content: [
          { type: 'text', text: JSON.stringify(facts) },
          { type: 'resource', resource: { uri: found.uri, mimeType: mimeTypeOf(found.path), text: content } },
        ],
      };
    },
  );
}

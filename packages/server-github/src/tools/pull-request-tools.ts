// The github tools for pull requests: list_pull_requests, get_pull_request, get_pull_request_files
// and get_pull_request_diff (the diff as an embedded text/x-diff resource).

import {
  listPullRequestFiles,
  listPullRequests,
  pullRequestDiff,
  requirePullRequest,
} from '../store/pull-requests.ts';
import { diffUri } from '../uris.ts';
import {
  PULL_NUMBER,
  OWNER,
  PAGE,
  PER_PAGE,
  PULL_RECORD,
  READ_ONLY,
  REPO,
  objectSchema,
  pageSchema,
} from './schemas.ts';
import { optionalString, pageOf, repositoryOf, type GithubContext } from './tool-context.ts';

const PULL_ARGUMENTS = objectSchema({ owner: OWNER, repo: REPO, pullNumber: PULL_NUMBER }, [
  'owner',
  'repo',
  'pullNumber',
]);

const FILE_RECORD = {
  type: 'object',
  properties: {
    filename: { type: 'string' },
    status: { enum: ['added', 'modified', 'removed'] },
    additions: { type: 'integer' },
    deletions: { type: 'integer' },
    changes: { type: 'integer' },
    patch: { type: 'string' },
  },
  required: ['filename', 'status', 'additions', 'deletions', 'changes', 'patch'],
} as const;

/** Registers the four pull request tools. */
export function registerPullRequestTools(context: GithubContext): void {
  registerListPullRequests(context);
  registerGetPullRequest(context);
  registerGetPullRequestFiles(context);
  registerGetPullRequestDiff(context);
}

function registerListPullRequests(context: GithubContext): void {
  context.server.tool(
    {
      name: 'list_pull_requests',
      title: 'List pull requests',
      description: 'Lists the pull requests of a repository, filtered by state and branches.',
      inputSchema: objectSchema(
        {
          owner: OWNER,
          repo: REPO,
          state: { enum: ['open', 'closed', 'all'], description: 'Default open' },
          head: { type: 'string', maxLength: 255, description: 'Only this head branch' },
          base: { type: 'string', maxLength: 255, description: 'Only this base branch' },
          sort: { enum: ['created', 'updated'], description: 'Default created' },
          direction: { enum: ['asc', 'desc'], description: 'Default desc' },
          page: PAGE,
          perPage: PER_PAGE,
        },
        ['owner', 'repo'],
      ),
      outputSchema: pageSchema('pull_requests', PULL_RECORD),
      annotations: READ_ONLY,
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const head = optionalString(args, 'head');
      const base = optionalString(args, 'base');
      const { total, pulls } = listPullRequests(context.db, repository, {
        state: (optionalString(args, 'state') ?? 'open') as 'open',
        sort: optionalString(args, 'sort') === 'updated' ? 'updated' : 'created',
        direction: optionalString(args, 'direction') === 'asc' ? 'asc' : 'desc',
        ...(head === undefined ? {} : { head }),
        ...(base === undefined ? {} : { base }),
        ...pageOf(args),
      });
      return { structuredContent: { total_count: total, pull_requests: pulls } };
    },
  );
}

function registerGetPullRequest(context: GithubContext): void {
  context.server.tool(
    {
      name: 'get_pull_request',
      title: 'Get a pull request',
      description: 'Gets one pull request: state, branches, author and change counts.',
      inputSchema: PULL_ARGUMENTS,
      outputSchema: PULL_RECORD,
      annotations: READ_ONLY,
    },
    (args) => {
      const pull = requirePullRequest(context.db, repositoryOf(context, args), Number(args.pullNumber));
      return {
        structuredContent: pull,
        content: [
          { type: 'text', text: JSON.stringify(pull) },
          {
            type: 'resource_link',
            uri: pull.uri,
            name: `${pull.repository}#${pull.number}`,
            mimeType: 'text/markdown',
          },
        ],
      };
    },
  );
}

function registerGetPullRequestFiles(context: GithubContext): void {
  context.server.tool(
    {
      name: 'get_pull_request_files',
      title: 'Get pull request files',
      description: 'Lists the files a pull request changes, each with its status, counts and patch.',
      inputSchema: objectSchema(
        { owner: OWNER, repo: REPO, pullNumber: PULL_NUMBER, page: PAGE, perPage: PER_PAGE },
        ['owner', 'repo', 'pullNumber'],
      ),
      outputSchema: pageSchema('files', FILE_RECORD),
      annotations: READ_ONLY,
    },
    (args) => {
      const files = listPullRequestFiles(context.db, repositoryOf(context, args), Number(args.pullNumber));
      const { page, perPage } = pageOf(args);
      return {
        structuredContent: {
          total_count: files.length,
          files: files.slice((page - 1) * perPage, page * perPage),
        },
      };
    },
  );
}

function registerGetPullRequestDiff(context: GithubContext): void {
  context.server.tool(
    {
      name: 'get_pull_request_diff',
      title: 'Get a pull request diff',
      description: 'Gets the unified diff of a pull request, as an embedded text/x-diff resource.',
      inputSchema: PULL_ARGUMENTS,
      annotations: READ_ONLY,
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const number = Number(args.pullNumber);
      const text = pullRequestDiff(context.db, repository, number);
      const uri = diffUri(repository.owner, repository.name, number);
      return { content: [{ type: 'resource', resource: { uri, mimeType: 'text/x-diff', text } }] };
    },
  );
}

// The github tools that read issues: search_issues (GitHub's search syntax, progress by stage),
// list_issues, get_issue (an issue or a pull request number) and get_issue_comments.

import type { RequestContext } from 'mcpwire/server';
import { parseIssueQuery, type IssueFilter } from '../search/issue-query.ts';
import { compileIssueSearch, runIssueSearch, type SearchOrder } from '../search/issue-search.ts';
import { loadIssues } from '../store/issue-records.ts';
import { listComments, requireIssueId } from '../store/issue-writes.ts';
import { issueUri } from '../uris.ts';
import {
  COMMENT_RECORD,
  ISSUE_RECORD,
  NAME_LIST,
  ISSUE_NUMBER,
  OWNER,
  PAGE,
  PER_PAGE,
  READ_ONLY,
  TASK_OPTIONAL,
  REPO,
  objectSchema,
  pageSchema,
  searchResultSchema,
} from './schemas.ts';
import { optionalList, optionalString, pageOf, repositoryOf, type GithubContext } from './tool-context.ts';

const SORT = {
  enum: ['created', 'updated', 'comments'],
  description: 'Sort field (default: best match)',
} as const;
const ORDER = { enum: ['asc', 'desc'], description: 'Sort order (default desc)' } as const;

/** Registers search_issues, list_issues, get_issue and get_issue_comments. */
export function registerIssueReadTools(context: GithubContext): void {
  registerSearchIssues(context);
  registerListIssues(context);
  registerGetIssue(context);
  registerGetIssueComments(context);
}

function registerSearchIssues(context: GithubContext): void {
  context.server.tool(
    {
      name: 'search_issues',
      title: 'Search issues',
      description:
        'Searches issues with GitHub search syntax: free text plus is:open|closed|issue|pr|merged|draft, state:, type:, ' +
        'label:"name" (repeat to AND, -label: to exclude), author:, assignee:, repo:owner/name, org:/user:, no:label|assignee, ' +
        'in:title,body,comments. Only issues unless the query says is:pr. Reports progress by stage when asked.',
      inputSchema: objectSchema(
        {
          query: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
            description: 'Search query (GitHub syntax, at most 256 characters)',
          },
          owner: { ...OWNER, description: 'Optional: only repositories of this owner' },
          repo: { ...REPO, description: 'Optional, with owner: only this repository' },
          sort: SORT,
          order: ORDER,
          page: PAGE,
          perPage: PER_PAGE,
        },
        ['query'],
      ),
      outputSchema: searchResultSchema(ISSUE_RECORD),
      annotations: READ_ONLY,
      execution: TASK_OPTIONAL,
    },
    async (args, ctx) => {
      const steps = 4;
      await ctx.sendProgress(1, { total: steps, message: 'Parsing the query' });
      const filter = parseIssueQuery(String(args.query));
      restrictToArguments(context, filter, args);
      filter.type ??= 'issue';
      const search = compileIssueSearch(filter, orderOf(args));
      await nextStage(ctx, 2, steps, 'Matching issues, pull requests and comments');
      const { total, ids } = runIssueSearch(context.db, search, pageOf(args));
      await nextStage(ctx, 3, steps, `Loading ${ids.length} of ${total} matches`);
      const items = loadIssues(context.db, ids);
      await ctx.sendProgress(4, { total: steps, message: 'Done' });
      return { structuredContent: { total_count: total, incomplete_results: false, items } };
    },
  );
}

function registerListIssues(context: GithubContext): void {
  context.server.tool(
    {
      name: 'list_issues',
      title: 'List issues',
      description:
        'Lists the issues (not pull requests) of a repository, newest first, filtered by state and labels.',
      inputSchema: objectSchema(
        {
          owner: OWNER,
          repo: REPO,
          state: { enum: ['open', 'closed', 'all'], description: 'Default open' },
          labels: { ...NAME_LIST, description: 'Only issues with all of these labels' },
          sort: SORT,
          direction: ORDER,
          page: PAGE,
          perPage: PER_PAGE,
        },
        ['owner', 'repo'],
      ),
      outputSchema: pageSchema('issues', ISSUE_RECORD),
      annotations: READ_ONLY,
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const state = optionalString(args, 'state') ?? 'open';
      const filter = parseIssueQuery('');
      filter.scope = { owner: repository.owner, repo: repository.name };
      filter.type = 'issue';
      if (state !== 'all') filter.state = state as 'open' | 'closed';
      filter.labels.push(...(optionalList(args, 'labels') ?? []));
      const order: SearchOrder = {
        sort: (optionalString(args, 'sort') ?? 'created') as 'created',
        order: optionalString(args, 'direction') === 'asc' ? 'asc' : 'desc',
      };
      const { total, ids } = runIssueSearch(context.db, compileIssueSearch(filter, order), pageOf(args));
      return { structuredContent: { total_count: total, issues: loadIssues(context.db, ids) } };
    },
  );
}

function registerGetIssue(context: GithubContext): void {
  context.server.tool(
    {
      name: 'get_issue',
      title: 'Get an issue',
      description:
        'Gets one issue by number. As on GitHub, a pull request number returns the pull request as an issue (with "pull_request").',
      inputSchema: objectSchema({ owner: OWNER, repo: REPO, issue_number: ISSUE_NUMBER }, [
        'owner',
        'repo',
        'issue_number',
      ]),
      outputSchema: ISSUE_RECORD,
      annotations: READ_ONLY,
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const issueId = requireIssueId(context.db, repository, Number(args.issue_number));
      const [issue] = loadIssues(context.db, [issueId]);
      const uri = issueUri(repository.owner, repository.name, issue!.number);
      return {
        structuredContent: issue,
        content: [
          { type: 'text', text: JSON.stringify(issue) },
          {
            type: 'resource_link',
            uri,
            name: `${repository.owner}/${repository.name}#${issue!.number}`,
            mimeType: 'text/markdown',
          },
        ],
      };
    },
  );
}

function registerGetIssueComments(context: GithubContext): void {
  context.server.tool(
    {
      name: 'get_issue_comments',
      title: 'Get issue comments',
      description: 'Gets the comments of an issue or pull request, oldest first.',
      inputSchema: objectSchema(
        { owner: OWNER, repo: REPO, issue_number: ISSUE_NUMBER, page: PAGE, perPage: PER_PAGE },
        ['owner', 'repo', 'issue_number'],
      ),
      outputSchema: pageSchema('comments', COMMENT_RECORD),
      annotations: READ_ONLY,
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const issueId = requireIssueId(context.db, repository, Number(args.issue_number));
      const { total, comments } = listComments(context.db, issueId, pageOf(args));
      return { structuredContent: { total_count: total, comments } };
    },
  );
}

/** The tool's owner/repo arguments narrow the query, as the official server's do. */
function restrictToArguments(
  context: GithubContext,
  filter: IssueFilter,
  args: Record<string, unknown>,
): void {
  const owner = optionalString(args, 'owner');
  const repo = optionalString(args, 'repo');
  if (owner !== undefined && repo !== undefined) {
    const repository = repositoryOf(context, args);
    filter.scope = { owner: repository.owner, repo: repository.name };
  } else if (owner !== undefined) filter.scope = { owner };
}

function orderOf(args: Record<string, unknown>): SearchOrder {
  const sort = optionalString(args, 'sort') as SearchOrder['sort'];
  const order = optionalString(args, 'order') === 'asc' ? 'asc' : 'desc';
  return sort === undefined ? { order } : { sort, order };
}

/** Reports a stage, after yielding once so other requests run and a cancellation is seen. */
async function nextStage(
  ctx: RequestContext,
  progress: number,
  total: number,
  message: string,
): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (ctx.isCancelled) ctx.signal.throwIfAborted();
  await ctx.sendProgress(progress, { total, message });
}

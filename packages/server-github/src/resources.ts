// The github server's resources: URI templates for issues, pull requests, their diffs and files,
// with completion of owner, repo, number and path. Clients subscribe to an issue's URI to hear of
// new comments (resources/subscribe, or subscriptions/listen in 2026-07-28).

import { createResourceNotFoundError, type Completer, type RequestContext } from 'mcpwire/server';
import { issueToMarkdown, pullRequestToMarkdown } from './markdown.ts';
import { getContents, listPaths, mimeTypeOf } from './store/files.ts';
import { loadIssues } from './store/issue-records.ts';
import { listComments } from './store/issue-writes.ts';
import { GithubInputError } from './store/not-found.ts';
import { pullRequestDiff, requirePullRequest } from './store/pull-requests.ts';
import { findRepository, listOwners, listRepositoryNames, type RepositoryRow } from './store/repositories.ts';
import type { GithubContext } from './tools/tool-context.ts';
import { DIFF_TEMPLATE, FILE_TEMPLATE, ISSUE_TEMPLATE, PULL_TEMPLATE } from './uris.ts';

type Variables = Record<string, string | string[]>;

/** Registers the four templates. The diff template comes before the pull request's (first match serves). */
export function registerGithubResources(context: GithubContext): void {
  registerPullRequestResources(context);
  registerIssueAndFileResources(context);
}

function numberCompleters(context: GithubContext, kind: 'issue' | 'pull'): Record<string, Completer> {
  return { ...repositoryCompleters(context), number: completeNumber(context, kind) };
}

function registerPullRequestResources(context: GithubContext): void {
  const { server, db } = context;
  const numbers = (kind: 'pull'): Record<string, Completer> => numberCompleters(context, kind);
  server.resource(
    {
      uriTemplate: DIFF_TEMPLATE,
      name: 'pull-request-diff',
      title: 'Pull request diff',
      description: 'The unified diff of a pull request',
      mimeType: 'text/x-diff',
      complete: numbers('pull'),
    },
    (uri, variables, ctx) =>
      read(uri, ctx, () =>
        pullRequestDiff(db, repositoryIn(context, variables, uri, ctx), numberIn(variables)),
      ),
  );
  server.resource(
    {
      uriTemplate: PULL_TEMPLATE,
      name: 'pull-request',
      title: 'Pull request',
      description: 'A pull request with its comments, as Markdown',
      mimeType: 'text/markdown',
      complete: numbers('pull'),
    },
    (uri, variables, ctx) =>
      read(uri, ctx, () => {
        const repository = repositoryIn(context, variables, uri, ctx);
        const pull = requirePullRequest(db, repository, numberIn(variables));
        const issueId = (
          db
            .prepare('SELECT id FROM issues WHERE repository_id = ? AND number = ?')
            .get(repository.id, pull.number) as { id: number }
        ).id;
        return pullRequestToMarkdown(pull, listComments(db, issueId, { page: 1, perPage: 100 }).comments);
      }),
  );
}

function registerIssueAndFileResources(context: GithubContext): void {
  const { server, db } = context;
  server.resource(
    {
      uriTemplate: ISSUE_TEMPLATE,
      name: 'issue',
      title: 'Issue',
      description: 'An issue (or a pull request as an issue) with its comments, as Markdown',
      mimeType: 'text/markdown',
      complete: numberCompleters(context, 'issue'),
    },
    (uri, variables, ctx) =>
      read(uri, ctx, () =>
        issueMarkdown(context, repositoryIn(context, variables, uri, ctx), numberIn(variables), uri, ctx),
      ),
  );
  server.resource(
    {
      uriTemplate: FILE_TEMPLATE,
      name: 'file',
      title: 'Repository file',
      description: 'A file of a repository (default branch unless ?ref=)',
      complete: { ...repositoryCompleters(context), path: completePath(context) },
    },
    (uri, variables, ctx) => {
      const repository = repositoryIn(context, variables, uri, ctx);
      const ref = typeof variables.ref === 'string' ? variables.ref : undefined;
      const found = read(uri, ctx, () => getContents(db, repository, String(variables.path), ref));
      if (found.type === 'dir') throw createResourceNotFoundError(uri, ctx.era);
      return { contents: [{ uri, mimeType: mimeTypeOf(found.path), text: found.content }] };
    },
  );
}

function issueMarkdown(
  context: GithubContext,
  repository: RepositoryRow,
  number: number,
  uri: string,
  ctx: RequestContext,
): string {
  const row = context.db
    .prepare('SELECT id FROM issues WHERE repository_id = ? AND number = ?')
    .get(repository.id, number) as { id: number } | undefined;
  if (!row) throw createResourceNotFoundError(uri, ctx.era);
  const [issue] = loadIssues(context.db, [row.id]);
  return issueToMarkdown(issue!, listComments(context.db, row.id, { page: 1, perPage: 100 }).comments);
}

/** Runs a read; a GithubInputError (nothing by that name) becomes the era's resource-not-found error (RES-8, S26-RES-2). */
function read<T>(uri: string, ctx: RequestContext, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof GithubInputError) throw createResourceNotFoundError(uri, ctx.era);
    throw error;
  }
}

function repositoryIn(
  context: GithubContext,
  variables: Variables,
  uri: string,
  ctx: RequestContext,
): RepositoryRow {
  const repository = findRepository(context.db, String(variables.owner), String(variables.repo));
  if (!repository) throw createResourceNotFoundError(uri, ctx.era);
  return repository;
}

function numberIn(variables: Variables): number {
  const text = String(variables.number);
  if (!/^[1-9][0-9]{0,9}$/.test(text))
    throw new GithubInputError(`Not an issue number: ${text.slice(0, 20)}`);
  return Number(text);
}

/** Completers of `owner` and `repo` (the latter from the owner already chosen, COMP-3). */
export function repositoryCompleters(context: GithubContext): Record<string, Completer> {
  return {
    owner: (value) => listOwners(context.db, value),
    repo: (value, { arguments: known }) =>
      known.owner === undefined ? [] : listRepositoryNames(context.db, known.owner, value),
  };
}

/** Numbers of the repository's issues (`issue`: issues and pull requests, as GitHub numbers them) or pull requests, newest first. */
export function completeNumber(context: GithubContext, kind: 'issue' | 'pull'): Completer {
  return (value, { arguments: known }) => {
    if (known.owner === undefined || known.repo === undefined) return [];
    const repository = findRepository(context.db, known.owner, known.repo);
    if (!repository) return [];
    const rows = context.db
      .prepare(
        `SELECT number FROM issues WHERE repository_id = ? AND (? = 0 OR is_pull_request = 1)
                AND substr(CAST(number AS TEXT), 1, length(?)) = ? ORDER BY number DESC`,
      )
      .all(repository.id, kind === 'pull' ? 1 : 0, value, value) as Array<{ number: number }>;
    return rows.map((row) => String(row.number));
  };
}

function completePath(context: GithubContext): Completer {
  return (value, { arguments: known }) => {
    if (known.owner === undefined || known.repo === undefined) return [];
    const repository = findRepository(context.db, known.owner, known.repo);
    return repository ? listPaths(context.db, repository, value) : [];
  };
}

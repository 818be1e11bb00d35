// The github server's prompts: triage an issue, review a pull request. Each embeds what it is about
// as resources (the issue's Markdown; the pull request's description and its diff), PROMPT-3.

import { ErrorCode, RpcError, type PromptMessage } from 'mcpwire';
import { issueToMarkdown, pullRequestToMarkdown } from './markdown.ts';
import { loadIssues } from './store/issue-records.ts';
import { listComments, requireIssueId } from './store/issue-writes.ts';
import { GithubInputError } from './store/not-found.ts';
import { pullRequestDiff, requirePullRequest } from './store/pull-requests.ts';
import { fullName, requireRepository, type RepositoryRow } from './store/repositories.ts';
import { completeNumber, repositoryCompleters } from './resources.ts';
import type { GithubContext } from './tools/tool-context.ts';
import { diffUri, issueUri } from './uris.ts';

const REPOSITORY_ARGUMENTS = [
  { name: 'owner', description: 'Repository owner', required: true },
  { name: 'repo', description: 'Repository name', required: true },
];

/** Registers triage_issue and review_pull_request. */
export function registerGithubPrompts(context: GithubContext): void {
  registerTriage(context);
  registerReview(context);
}

function registerTriage(context: GithubContext): void {
  const { db, server } = context;
  server.prompt(
    {
      name: 'triage_issue',
      title: 'Triage an issue',
      description:
        'Reads an issue and its discussion and proposes labels, a priority, an assignee and a next step.',
      arguments: [
        ...REPOSITORY_ARGUMENTS,
        { name: 'issue_number', description: 'Issue number', required: true },
      ],
      complete: { ...repositoryCompleters(context), issue_number: completeNumber(context, 'issue') },
    },
    (args) =>
      invalidParamsOn('triage_issue', () => {
        const repository = requireRepository(db, args.owner!, args.repo!);
        const issueId = requireIssueId(db, repository, parseNumber(args.issue_number!));
        const [issue] = loadIssues(db, [issueId]);
        const comments = listComments(db, issueId, { page: 1, perPage: 100 }).comments;
        const labels = (
          db
            .prepare('SELECT name FROM labels WHERE repository_id = ? ORDER BY name')
            .all(repository.id) as Array<{ name: string }>
        ).map((row) => row.name);
        const messages: PromptMessage[] = [
          embedded(
            issueUri(repository.owner, repository.name, issue!.number),
            'text/markdown',
            issueToMarkdown(issue!, comments),
          ),
          text(
            `Triage ${fullName(repository)}#${issue!.number} above. Propose: labels (from: ${labels.join(', ')}), a priority ` +
              '(P1 urgent, P2 soon, P3 later), who should own it, and the next step. Say if it looks like a duplicate.',
          ),
        ];
        return messages;
      }),
  );
}

function registerReview(context: GithubContext): void {
  const { db, server } = context;
  server.prompt(
    {
      name: 'review_pull_request',
      title: 'Review a pull request',
      description: 'Reviews a pull request: its description and its diff, embedded as resources.',
      arguments: [
        ...REPOSITORY_ARGUMENTS,
        { name: 'pullNumber', description: 'Pull request number', required: true },
      ],
      complete: { ...repositoryCompleters(context), pullNumber: completeNumber(context, 'pull') },
    },
    (args) =>
      invalidParamsOn('review_pull_request', () => {
        const repository: RepositoryRow = requireRepository(db, args.owner!, args.repo!);
        const pull = requirePullRequest(db, repository, parseNumber(args.pullNumber!));
        const issueId = requireIssueId(db, repository, pull.number);
        const comments = listComments(db, issueId, { page: 1, perPage: 100 }).comments;
        const messages: PromptMessage[] = [
          embedded(pull.uri, 'text/markdown', pullRequestToMarkdown(pull, comments)),
          embedded(
            diffUri(repository.owner, repository.name, pull.number),
            'text/x-diff',
            pullRequestDiff(db, repository, pull.number),
          ),
          text(
            `Review ${pull.repository}#${pull.number} (${pull.head.ref} → ${pull.base.ref}). Point out bugs, missing tests and ` +
              'risky changes with file and line, then recommend approve, comment or request changes.',
          ),
        ];
        return messages;
      }),
  );
}

function embedded(uri: string, mimeType: string, body: string): PromptMessage {
  return { role: 'user', content: { type: 'resource', resource: { uri, mimeType, text: body } } };
}

function text(body: string): PromptMessage {
  return { role: 'user', content: { type: 'text', text: body } };
}

function parseNumber(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value))
    throw new GithubInputError(`expected a positive integer, received ${JSON.stringify(value.slice(0, 40))}`);
  return Number(value);
}

/** PROMPT-4: an argument naming nothing is -32602, with the reason. */
function invalidParamsOn<T>(prompt: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof GithubInputError)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params for "prompts/get" (prompt "${prompt}"): ${error.message}`,
      );
    throw error;
  }
}

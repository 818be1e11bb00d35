// The founding scenario's server: a GitHub-like tracker (issues, pull requests, comments) that an
// assistant can read and write, with a resource per issue and a prompt to summarise one.

import { readFileSync } from 'node:fs';
import { ErrorCode, RpcError } from 'mcpwire';
import { Server } from 'mcpwire/server';
import { IssueResources, issueUri } from './github/issue-resources.ts';
import { registerGithubTools } from './github/tools.ts';
import { issueToMarkdown, Tracker } from './github/tracker.ts';

/** This package's version (`src/` and `dist/` both sit one folder below package.json). */
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/**
 * Creates a github server over a fresh in-memory tracker (nothing persists; instances share nothing).
 * Tools: list_issues, get_issue, create_issue, get_pull_request, comment, sync_repository, search_code.
 */
export function createGithubServer(): Server {
  const tracker = new Tracker();
  const server = new Server(
    { name: 'mcpwire-github', title: 'GitHub tracker (in-memory demo)', version: PACKAGE_VERSION },
    {
      instructions:
        'Use search_code to look for existing work before create_issue. Issues are resources at github://issues/<n>.',
    },
  );
  const resources = new IssueResources(server, tracker);
  registerGithubTools(server, tracker, resources);
  registerSummarizePrompt(server, tracker);
  return server;
}

function registerSummarizePrompt(server: Server, tracker: Tracker): void {
  server.prompt(
    {
      name: 'summarize_issue',
      title: 'Summarize an issue',
      description: 'Asks the model for a short summary of one issue and its discussion.',
      arguments: [{ name: 'number', description: 'The issue number', required: true }],
      complete: {
        number: (value) =>
          tracker
            .listIssues('all')
            .map((issue) => String(issue.number))
            .filter((number) => number.startsWith(value)),
      },
    },
    ({ number }) => {
      const issue = tracker.getIssue(Number(number));
      if (!issue)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Invalid params for "prompts/get" (prompt "summarize_issue"): no issue #${String(number)}`,
        );
      return [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: issueUri(issue.number),
              mimeType: 'text/markdown',
              text: issueToMarkdown(issue),
            },
          },
        },
        {
          role: 'user',
          content: {
            type: 'text',
            text: `Summarize issue #${issue.number} above in two sentences: the problem, then where the discussion stands.`,
          },
        },
      ];
    },
  );
}

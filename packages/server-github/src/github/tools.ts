// The github demo server's tools: read and write the tracker, a sync that reports progress, and a
// slow code search that stops promptly when cancelled.

import { setTimeout as delay } from 'node:timers/promises';
import type { Server } from 'mcpwire/server';
import { issueUri, type IssueResources } from './issue-resources.ts';
import type { Issue, Tracker } from './tracker.ts';

const NUMBER_ARGUMENT = {
  type: 'object',
  properties: { number: { type: 'integer', minimum: 1, description: 'Issue or pull request number' } },
  required: ['number'],
} as const;

/** How long `search_code` spends on each file: long enough that a demo can cancel it mid-way. */
const SEARCH_MS_PER_FILE = 400;

/** How long each `sync_repository` step takes. */
const SYNC_STEP_MS = 40;

const SYNC_STEPS = [
  'Fetching refs',
  'Downloading objects',
  'Resolving deltas',
  'Indexing issues',
  'Indexing pull requests',
];

/** Registers every tool of the github server, reading and writing `tracker`. */
export function registerGithubTools(server: Server, tracker: Tracker, resources: IssueResources): void {
  registerListIssues(server, tracker);
  registerGetIssue(server, tracker);
  registerGetPullRequest(server, tracker);
  registerCreateIssue(server, tracker, resources);
  registerComment(server, tracker, resources);
  registerSyncRepository(server, tracker);
  registerSearchCode(server, tracker);
}

function summarize(issue: Issue): string {
  const labels = issue.labels.length === 0 ? '' : ` [${issue.labels.join(', ')}]`;
  return `#${issue.number} ${issue.title} (${issue.state}, by ${issue.author})${labels}`;
}

function registerListIssues(server: Server, tracker: Tracker): void {
  server.tool(
    {
      name: 'list_issues',
      description: `Lists the issues of ${tracker.repository}.`,
      inputSchema: {
        type: 'object',
        properties: {
          state: { type: 'string', enum: ['open', 'closed', 'all'], description: 'Default: open' },
        },
      },
      outputSchema: {
        type: 'object',
        properties: {
          issues: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                number: { type: 'integer' },
                title: { type: 'string' },
                state: { type: 'string' },
              },
              required: ['number', 'title', 'state'],
            },
          },
        },
        required: ['issues'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => {
      const issues = tracker.listIssues((args.state as 'open' | 'closed' | 'all' | undefined) ?? 'open');
      return {
        content: [
          { type: 'text', text: issues.length === 0 ? 'No issues.' : issues.map(summarize).join('\n') },
        ],
        structuredContent: { issues: issues.map(({ number, title, state }) => ({ number, title, state })) },
      };
    },
  );
}

function registerGetIssue(server: Server, tracker: Tracker): void {
  server.tool(
    {
      name: 'get_issue',
      description: 'Shows one issue with its comments.',
      inputSchema: NUMBER_ARGUMENT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => {
      const issue = tracker.getIssue(Number(args.number));
      if (!issue) throw new Error(`No issue #${String(args.number)} in ${tracker.repository}`);
      const comments = issue.comments.map((comment) => `\n- ${comment.author}: ${comment.body}`).join('');
      return {
        content: [
          {
            type: 'text',
            text: `${summarize(issue)}\n\n${issue.body}${comments === '' ? '' : `\n\nComments:${comments}`}`,
          },
          {
            type: 'resource_link',
            uri: issueUri(issue.number),
            name: `issue-${issue.number}`,
            mimeType: 'text/markdown',
          },
        ],
      };
    },
  );
}

function registerGetPullRequest(server: Server, tracker: Tracker): void {
  server.tool(
    {
      name: 'get_pull_request',
      description: 'Shows one pull request: branches, changed files and comments.',
      inputSchema: NUMBER_ARGUMENT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => {
      const pull = tracker.getPullRequest(Number(args.number));
      if (!pull) throw new Error(`No pull request #${String(args.number)} in ${tracker.repository}`);
      const comments = pull.comments.map((comment) => `\n- ${comment.author}: ${comment.body}`).join('');
      return [
        `#${pull.number} ${pull.title} (${pull.state}, by ${pull.author}): ${pull.head} -> ${pull.base}`,
        pull.body,
        `Changed files: ${pull.changedFiles.join(', ')}`,
        comments === '' ? 'No comments.' : `Comments:${comments}`,
      ].join('\n\n');
    },
  );
}

function registerCreateIssue(server: Server, tracker: Tracker, resources: IssueResources): void {
  server.tool(
    {
      name: 'create_issue',
      description:
        'Opens a new issue. Its resource github://issues/<n> appears at once (resources/list_changed).',
      inputSchema: {
        type: 'object',
        properties: {
          title: { type: 'string', minLength: 1 },
          body: { type: 'string' },
          labels: { type: 'array', items: { type: 'string' } },
        },
        required: ['title'],
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) => {
      const issue = tracker.createIssue({
        title: String(args.title),
        ...(typeof args.body === 'string' ? { body: args.body } : {}),
        ...(Array.isArray(args.labels) ? { labels: args.labels.map(String) } : {}),
      });
      resources.add(issue);
      return {
        content: [
          { type: 'text', text: `Created issue #${issue.number}: ${issue.title}` },
          {
            type: 'resource_link',
            uri: issueUri(issue.number),
            name: `issue-${issue.number}`,
            mimeType: 'text/markdown',
          },
        ],
      };
    },
  );
}

function registerComment(server: Server, tracker: Tracker, resources: IssueResources): void {
  server.tool(
    {
      name: 'comment',
      description: 'Posts a comment on an issue or pull request.',
      inputSchema: {
        type: 'object',
        properties: { number: NUMBER_ARGUMENT.properties.number, body: { type: 'string', minLength: 1 } },
        required: ['number', 'body'],
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) => {
      const number = Number(args.number);
      const target = tracker.addComment(number, { author: 'mcp-user', body: String(args.body) });
      if (!target) throw new Error(`No issue or pull request #${number} in ${tracker.repository}`);
      if (target === 'issue') resources.changed(number);
      return `Commented on ${target} #${number}.`;
    },
  );
}

function registerSyncRepository(server: Server, tracker: Tracker): void {
  server.tool(
    {
      name: 'sync_repository',
      description: `Synchronises ${tracker.repository} from the remote, reporting progress after each of ${SYNC_STEPS.length} steps.`,
      inputSchema: { type: 'object', properties: {} },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (_args, ctx) => {
      for (const [index, step] of SYNC_STEPS.entries()) {
        await delay(SYNC_STEP_MS, undefined, { signal: ctx.signal });
        await ctx.sendProgress(index + 1, { total: SYNC_STEPS.length, message: step });
      }
      return `Synchronised ${tracker.repository}: ${tracker.listIssues('all').length} issues, up to date.`;
    },
  );
}

function registerSearchCode(server: Server, tracker: Tracker): void {
  server.tool(
    {
      name: 'search_code',
      description: `Searches the files of ${tracker.repository} for a substring. Slow (about ${SEARCH_MS_PER_FILE} ms per file); cancellable.`,
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 1 } },
        required: ['query'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, ctx) => {
      const query = String(args.query);
      const matches: string[] = [];
      for (const [index, file] of tracker.files.entries()) {
        // Rejects as soon as the client cancels: the search stops and no response is sent.
        await delay(SEARCH_MS_PER_FILE, undefined, { signal: ctx.signal });
        for (const [line, text] of file.text.split('\n').entries())
          if (text.includes(query)) matches.push(`${file.path}:${line + 1}: ${text.trim()}`);
        await ctx.sendProgress(index + 1, { total: tracker.files.length, message: file.path });
      }
      return matches.length === 0 ? `No matches for "${query}".` : matches.join('\n');
    },
  );
}

// summarize_issue: asks the client's model (sampling) for a short summary of one issue and its
// discussion. The same handler serves both eras: a real sampling/createMessage request in the
// handshake era, an input request answered on the retry in 2026-07-28.

import type { CreateMessageResult } from 'mcpwire';
import { issueToMarkdown } from '../markdown.ts';
import { loadIssues } from '../store/issue-records.ts';
import { listComments, requireIssueId } from '../store/issue-writes.ts';
import { GithubInputError } from '../store/not-found.ts';
import { fullName } from '../store/repositories.ts';
import { ISSUE_NUMBER, OWNER, REPO, objectSchema } from './schemas.ts';
import { repositoryOf, type GithubContext } from './tool-context.ts';

/** The most comments the summary reads (the newest are cut past this). */
const MAX_COMMENTS = 50;

/** Registers summarize_issue. */
export function registerSummarizeTool(context: GithubContext): void {
  context.server.tool(
    {
      name: 'summarize_issue',
      title: 'Summarize an issue',
      description:
        "Summarises an issue and its discussion with the client's model (needs the sampling capability).",
      inputSchema: objectSchema({ owner: OWNER, repo: REPO, issue_number: ISSUE_NUMBER }, [
        'owner',
        'repo',
        'issue_number',
      ]),
      outputSchema: {
        type: 'object',
        properties: { issue: { type: 'string' }, summary: { type: 'string' }, model: { type: 'string' } },
        required: ['issue', 'summary', 'model'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args, ctx) => {
      const repository = repositoryOf(context, args);
      const number = Number(args.issue_number);
      const issueId = requireIssueId(context.db, repository, number);
      const name = `${fullName(repository)}#${number}`;
      if (!ctx.clientCapabilities.sampling)
        throw new GithubInputError(
          `summarize_issue: summarising ${name} needs the client's sampling capability, which this client did not declare`,
        );
      const [issue] = loadIssues(context.db, [issueId]);
      const { comments } = listComments(context.db, issueId, { page: 1, perPage: MAX_COMMENTS });
      const result = await ctx.sample(
        {
          systemPrompt: 'You summarise GitHub issues for a busy maintainer. Be factual and brief.',
          messages: [
            { role: 'user', content: { type: 'text', text: issueToMarkdown(issue!, comments) } },
            {
              role: 'user',
              content: {
                type: 'text',
                text: `Summarise ${name} in at most three sentences: the problem, what was tried, and where it stands.`,
              },
            },
          ],
          maxTokens: 300,
          includeContext: 'none',
        },
        { key: 'summary' },
      );
      const summary = textOf(result);
      return { structuredContent: { issue: name, summary, model: result.model } };
    },
  );
}

function textOf(result: CreateMessageResult): string {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

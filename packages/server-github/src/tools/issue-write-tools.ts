// The github tools that write issues: create_issue, update_issue (closing or reopening asks the
// user to confirm through elicitation) and add_issue_comment (subscribers hear resources/updated).

import {
  CapabilityNotNegotiatedError,
  StatelessErrorCode,
  RpcError,
  type ElicitRequestFormParams,
} from 'mcpwire';
import type { RequestContext } from 'mcpwire/server';
import { loadIssues, type IssueRecord } from '../store/issue-records.ts';
import {
  addComment,
  createIssue,
  requireIssueId,
  updateIssue,
  type IssueChanges,
} from '../store/issue-writes.ts';
import { GithubInputError } from '../store/not-found.ts';
import { fullName, type RepositoryRow } from '../store/repositories.ts';
import {
  ADDS_ROW,
  BODY,
  COMMENT_RECORD,
  ISSUE_RECORD,
  NAME_LIST,
  ISSUE_NUMBER,
  OWNER,
  REPO,
  TITLE,
  objectSchema,
} from './schemas.ts';
import {
  announceChange,
  optionalList,
  optionalString,
  repositoryOf,
  type GithubContext,
} from './tool-context.ts';

/** Registers create_issue, update_issue and add_issue_comment. */
export function registerIssueWriteTools(context: GithubContext): void {
  registerCreateIssue(context);
  registerUpdateIssue(context);
  registerAddIssueComment(context);
}

function registerCreateIssue(context: GithubContext): void {
  context.server.tool(
    {
      name: 'create_issue',
      title: 'Create an issue',
      description: 'Opens a new issue. Labels must exist in the repository; assignees must be known users.',
      inputSchema: objectSchema(
        {
          owner: OWNER,
          repo: REPO,
          title: { ...TITLE, description: 'The issue title' },
          body: { ...BODY, description: 'The issue body, in Markdown' },
          labels: { ...NAME_LIST, description: 'Label names; each must exist in the repository' },
          assignees: { ...NAME_LIST, description: 'Logins of the users to assign' },
        },
        ['owner', 'repo', 'title'],
      ),
      outputSchema: ISSUE_RECORD,
      annotations: ADDS_ROW,
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const body = optionalString(args, 'body');
      const labels = optionalList(args, 'labels');
      const assignees = optionalList(args, 'assignees');
      const issueId = createIssue(context.db, repository, context.actor, {
        title: String(args.title),
        ...(body === undefined ? {} : { body }),
        ...(labels === undefined ? {} : { labels }),
        ...(assignees === undefined ? {} : { assignees }),
      });
      return { structuredContent: loadIssues(context.db, [issueId])[0] };
    },
  );
}

function registerUpdateIssue(context: GithubContext): void {
  context.server.tool(
    {
      name: 'update_issue',
      title: 'Update an issue',
      description:
        'Changes an issue: title, body, labels, assignees (lists replace the old ones) or state. Closing or reopening ' +
        'asks the user to confirm (elicitation); without an elicitation-capable client it is refused.',
      inputSchema: objectSchema(
        {
          owner: OWNER,
          repo: REPO,
          issue_number: ISSUE_NUMBER,
          title: { ...TITLE, description: 'The new title' },
          body: { ...BODY, description: 'The new body, in Markdown' },
          state: {
            enum: ['open', 'closed'],
            description: 'Close or reopen the issue (the user is asked to confirm)',
          },
          state_reason: {
            enum: ['completed', 'not_planned', 'reopened'],
            description: 'The reason for closing or reopening (goes with state)',
          },
          labels: { ...NAME_LIST, description: 'Label names, replacing the current ones; each must exist' },
          assignees: { ...NAME_LIST, description: 'Logins to assign, replacing the current assignees' },
        },
        ['owner', 'repo', 'issue_number'],
      ),
      outputSchema: {
        type: 'object',
        properties: { updated: { type: 'boolean' }, message: { type: 'string' }, issue: ISSUE_RECORD },
        required: ['updated', 'message', 'issue'],
      },
      // Overwrites fields (destructive); the same call twice leaves the same issue (idempotent).
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args, ctx) => {
      const repository = repositoryOf(context, args);
      const number = Number(args.issue_number);
      const [current] = loadIssues(context.db, [requireIssueId(context.db, repository, number)]);
      const changes = toChanges(args);
      if (changes.state !== undefined && changes.state !== current!.state) {
        const confirmed = await confirmStateChange(ctx, repository, current!, changes.state);
        if (!confirmed.ok) {
          const message = `Not changed: ${confirmed.why}`;
          return { structuredContent: { updated: false, message, issue: current } };
        }
      }
      const issueId = updateIssue(context.db, repository, number, changes);
      announceChange(context, repository, number, current!.pull_request !== undefined);
      const [issue] = loadIssues(context.db, [issueId]);
      const message = `Updated ${fullName(repository)}#${number}`;
      return { structuredContent: { updated: true, message, issue } };
    },
  );
}

function registerAddIssueComment(context: GithubContext): void {
  context.server.tool(
    {
      name: 'add_issue_comment',
      title: 'Comment on an issue',
      description:
        'Adds a comment to an issue or pull request. Clients subscribed to its resource hear notifications/resources/updated.',
      inputSchema: objectSchema(
        {
          owner: OWNER,
          repo: REPO,
          issue_number: ISSUE_NUMBER,
          body: { ...BODY, minLength: 1, description: 'The comment, in Markdown' },
        },
        ['owner', 'repo', 'issue_number', 'body'],
      ),
      outputSchema: COMMENT_RECORD,
      annotations: ADDS_ROW,
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const number = Number(args.issue_number);
      const comment = addComment(context.db, repository, number, context.actor, String(args.body));
      const [issue] = loadIssues(context.db, [requireIssueId(context.db, repository, number)]);
      announceChange(context, repository, number, issue?.pull_request !== undefined);
      return { structuredContent: comment };
    },
  );
}

function toChanges(args: Record<string, unknown>): IssueChanges {
  const changes: IssueChanges = {};
  const title = optionalString(args, 'title');
  const body = optionalString(args, 'body');
  const state = optionalString(args, 'state') as IssueChanges['state'];
  const reason = optionalString(args, 'state_reason') as IssueChanges['stateReason'];
  const labels = optionalList(args, 'labels');
  const assignees = optionalList(args, 'assignees');
  if (title !== undefined) changes.title = title;
  if (body !== undefined) changes.body = body;
  if (state !== undefined) changes.state = state;
  if (reason !== undefined) changes.stateReason = reason;
  if (labels !== undefined) changes.labels = labels;
  if (assignees !== undefined) changes.assignees = assignees;
  return changes;
}

const CONFIRM_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: {
    confirm: { type: 'boolean', title: 'Confirm', description: 'Tick to go ahead', default: false },
  },
  required: ['confirm'],
};

/**
 * Asks the user to confirm closing or reopening (ELIC-3/4, form mode; a stateless-era retry finds the
 * answer under the key `confirm_state`). A client that cannot elicit gets a tool error, nothing changed.
 */
async function confirmStateChange(
  ctx: RequestContext,
  repository: RepositoryRow,
  issue: IssueRecord,
  state: 'open' | 'closed',
): Promise<{ ok: true } | { ok: false; why: string }> {
  const verb = state === 'closed' ? 'Close' : 'Reopen';
  const refusal = `${state === 'closed' ? 'closing' : 'reopening'} ${fullName(repository)}#${issue.number} needs the user's confirmation, but this client did not declare the elicitation capability (form mode); nothing was changed`;
  if (!ctx.clientCapabilities.elicitation) throw new GithubInputError(`update_issue: ${refusal}`);
  let answer;
  try {
    answer = await ctx.elicit(
      {
        mode: 'form',
        message: `${verb} ${fullName(repository)}#${issue.number} "${issue.title}"?`,
        requestedSchema: CONFIRM_SCHEMA,
      },
      { key: 'confirm_state' },
    );
  } catch (error) {
    // Declared elicitation without form mode: refused locally (handshake) or as -32021 (stateless).
    const isMissing =
      error instanceof CapabilityNotNegotiatedError ||
      (error instanceof RpcError && error.code === StatelessErrorCode.MissingRequiredClientCapability);
    if (isMissing) throw new GithubInputError(`update_issue: ${refusal}`);
    throw error;
  }
  if (answer.action !== 'accept') return { ok: false, why: `the user chose "${answer.action}"` };
  if (answer.content?.confirm !== true) return { ok: false, why: 'the user did not confirm' };
  return { ok: true };
}

// Issues and pull requests as Markdown: what their resources hold and what the prompts embed.

import type { IssueRecord } from './store/issue-records.ts';
import type { CommentRecord } from './store/issue-writes.ts';
import type { PullRequestRecord } from './store/pull-requests.ts';

/** An issue with its comments as Markdown (the `.../issues/{number}` resource). */
export function issueToMarkdown(issue: IssueRecord, comments: readonly CommentRecord[]): string {
  const kind = issue.pull_request ? 'Pull request' : 'Issue';
  const facts = [
    `${kind} ${issue.repository}#${issue.number} · ${issue.state}${issue.state_reason ? ` (${issue.state_reason})` : ''}`,
    `Author: @${issue.user.login} · opened ${issue.created_at}`,
    issue.labels.length > 0
      ? `Labels: ${issue.labels.map((label) => label.name).join(', ')}`
      : 'Labels: none',
    issue.assignees.length > 0
      ? `Assignees: ${issue.assignees.map((user) => `@${user.login}`).join(', ')}`
      : 'Assignees: none',
  ];
  return toDocument(issue, facts, comments);
}

/** A pull request with its comments as Markdown (the `.../pulls/{number}` resource). */
export function pullRequestToMarkdown(pull: PullRequestRecord, comments: readonly CommentRecord[]): string {
  const state = pull.merged ? 'merged' : pull.draft ? 'draft' : pull.state;
  const facts = [
    `Pull request ${pull.repository}#${pull.number} · ${state}`,
    `Author: @${pull.user.login} · ${pull.head.ref} → ${pull.base.ref}`,
    `${pull.changed_files} files changed, +${pull.additions} −${pull.deletions}`,
  ];
  return toDocument(pull, facts, comments);
}

/** A title, a list of facts, the body, then the comments. */
function toDocument(
  item: { title: string; body: string },
  facts: readonly string[],
  comments: readonly CommentRecord[],
): string {
  const lines = [
    `# ${item.title}`,
    '',
    ...facts.map((line) => `- ${line}`),
    '',
    item.body || '_No description._',
  ];
  return [...lines, commentsToMarkdown(comments)].join('\n');
}

function commentsToMarkdown(comments: readonly CommentRecord[]): string {
  if (comments.length === 0) return '\n## Comments\n\n_None._\n';
  const items = comments.map(
    (comment) => `### @${comment.user.login} · ${comment.created_at}\n\n${comment.body}\n`,
  );
  return `\n## Comments (${comments.length})\n\n${items.join('\n')}`;
}

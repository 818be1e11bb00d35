// The issue board (MCP Apps): `show_issue_board` returns a repository's issues in columns, and names
// the `ui://github/issue-board` view a host that renders apps draws them with; other clients get the
// same result with its text.

import { apps, type AppsExtension } from 'mcpwire/extensions/apps';
import { boardText, buildBoard, DEFAULT_BOARD_LABELS } from './board-model.ts';
import { BOARD_PAGE } from './board-page.ts';
import { parseIssueQuery } from './search/issue-query.ts';
import { compileIssueSearch, MAX_SEARCH_RESULTS, runIssueSearch } from './search/issue-search.ts';
import { loadIssues } from './store/issue-records.ts';
import { fullName } from './store/repositories.ts';
import { NAME_LIST, OWNER, READ_ONLY, REPO, objectSchema } from './tools/schemas.ts';
import { optionalList, repositoryOf, type GithubContext } from './tools/tool-context.ts';

/** The view's URI. */
export const BOARD_URI = 'ui://github/issue-board';

/**
 * The apps extension serving the board view: one self-contained page whose CSP allows no origin at
 * all (no network, no external scripts, styles or frames), drawn with a border by the host.
 */
export const issueBoardApp: AppsExtension = apps({
  views: [
    {
      uri: BOARD_URI,
      name: 'issue-board',
      title: 'Issue board',
      description: "A repository's issues in columns by label and state, from show_issue_board's result.",
      html: BOARD_PAGE,
      csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] },
      prefersBorder: true,
    },
  ],
});

const CARD = {
  type: 'object',
  properties: {
    number: { type: 'integer' },
    title: { type: 'string' },
    labels: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, color: { type: 'string' } },
        required: ['name', 'color'],
      },
    },
    assignees: { type: 'array', items: { type: 'string' } },
    comments: { type: 'integer' },
    uri: { type: 'string' },
  },
  required: ['number', 'title', 'labels', 'assignees', 'comments', 'uri'],
} as const;

const BOARD_SCHEMA = {
  type: 'object',
  properties: {
    repository: { type: 'string' },
    columns: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          title: { type: 'string' },
          total: { type: 'integer' },
          cards: { type: 'array', items: CARD },
        },
        required: ['id', 'title', 'total', 'cards'],
      },
    },
  },
  required: ['repository', 'columns'],
} as const;

/** Registers `show_issue_board`; the server must take {@link issueBoardApp} for its link to be served. */
export function registerIssueBoard(context: GithubContext): void {
  context.server.tool(
    {
      name: 'show_issue_board',
      title: 'Show the issue board',
      description:
        "Shows a repository's issues as a board: one column per label asked for (default bug, enhancement, " +
        'documentation; an open issue goes to the first it carries), then other open issues, then closed ones. ' +
        'Hosts that render MCP Apps draw it; the result is also text.',
      inputSchema: objectSchema(
        {
          owner: OWNER,
          repo: REPO,
          labels: { ...NAME_LIST, minItems: 1, description: 'The label columns, in order' },
          perColumn: {
            type: 'integer',
            minimum: 1,
            maximum: 100,
            description: 'Cards per column (default 20)',
          },
        },
        ['owner', 'repo'],
      ),
      outputSchema: BOARD_SCHEMA,
      annotations: READ_ONLY,
      _meta: issueBoardApp.toolMeta(BOARD_URI),
    },
    (args) => {
      const repository = repositoryOf(context, args);
      const filter = parseIssueQuery('');
      filter.scope = { owner: repository.owner, repo: repository.name };
      filter.type = 'issue';
      const search = compileIssueSearch(filter, { sort: 'created', order: 'desc' });
      const { ids } = runIssueSearch(context.db, search, { page: 1, perPage: MAX_SEARCH_RESULTS });
      const board = buildBoard(fullName(repository), loadIssues(context.db, ids), {
        labels: optionalList(args, 'labels') ?? DEFAULT_BOARD_LABELS,
        perColumn: typeof args.perColumn === 'number' ? args.perColumn : 20,
      });
      return { structuredContent: board, content: [{ type: 'text', text: boardText(board) }] };
    },
  );
}

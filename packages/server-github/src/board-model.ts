// The issue board's data: a repository's issues sorted into columns (one per chosen label, then open
// issues with none of them, then closed ones), and its text form for hosts that show no view.

import type { IssueRecord, LabelRef } from './store/issue-records.ts';

/** One card: what the board draws of an issue. */
export interface BoardCard {
  number: number;
  title: string;
  labels: LabelRef[];
  assignees: string[];
  comments: number;
  uri: string;
}

/** One column: its id (a label name, `open` or `closed`), its heading, how many match, and the first cards. */
export interface BoardColumn {
  id: string;
  title: string;
  total: number;
  cards: BoardCard[];
}

/** The tool's structured result: what the view draws. */
export interface IssueBoard {
  repository: string;
  columns: BoardColumn[];
}

/** The label columns when the caller names none. */
export const DEFAULT_BOARD_LABELS: readonly string[] = ['bug', 'enhancement', 'documentation'];

/**
 * Sorts `issues` (newest first) into columns: an open issue goes to the first of `labels` it
 * carries, else to "Open, other labels"; a closed one to "Closed". Each column keeps its first
 * `perColumn` cards and the total. Pure.
 */
export function buildBoard(
  repository: string,
  issues: readonly IssueRecord[],
  options: { labels: readonly string[]; perColumn: number },
): IssueBoard {
  const columns: BoardColumn[] = [
    ...options.labels.map((label) => ({ id: label, title: label, total: 0, cards: [] as BoardCard[] })),
    { id: 'open', title: 'Open, other labels', total: 0, cards: [] },
    { id: 'closed', title: 'Closed', total: 0, cards: [] },
  ];
  const byId = new Map(columns.map((column) => [column.id, column]));
  for (const issue of issues) {
    const names = new Set(issue.labels.map((label) => label.name));
    const id =
      issue.state === 'closed' ? 'closed' : (options.labels.find((label) => names.has(label)) ?? 'open');
    const column = byId.get(id)!;
    column.total++;
    if (column.cards.length < options.perColumn) column.cards.push(toCard(issue));
  }
  return { repository, columns };
}

function toCard(issue: IssueRecord): BoardCard {
  return {
    number: issue.number,
    title: issue.title,
    labels: issue.labels.map(({ name, color }) => ({ name, color })),
    assignees: issue.assignees.map((user) => user.login),
    comments: issue.comments,
    uri: issue.uri,
  };
}

/** The board as text, one heading per column and one line per card (the fallback the spec asks for). */
export function boardText(board: IssueBoard): string {
  const lines = [`Issue board of ${board.repository}`];
  for (const column of board.columns) {
    const shown = column.cards.length < column.total ? `, first ${column.cards.length}` : '';
    lines.push('', `${column.title} (${column.total}${shown})`);
    for (const card of column.cards) {
      const labels = card.labels.length ? ` [${card.labels.map((label) => label.name).join(', ')}]` : '';
      const who = card.assignees.length ? ` @${card.assignees.join(' @')}` : '';
      lines.push(`  #${card.number} ${card.title}${labels}${who}`);
    }
  }
  return lines.join('\n');
}

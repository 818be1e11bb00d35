// The rows of a listing (`list`, `connect`): a name column, then the item's text and its arguments.
// On a terminal the text is wrapped to the width under a hanging indent and may be cut to its first
// lines; elsewhere it is whole, its own lines indented under the name. Pure: takes escaped text.

import type { Colours } from './colours.ts';
import { displayWidth, truncateToWidth, wrapText, wrapWords } from './wrap-text.ts';

/** How rows are laid out; the default (no width) suits a pipe: nothing wrapped, nothing cut. */
export interface RowLayout {
  /** Columns to fit in (a terminal's width): text is wrapped under a hanging indent. */
  width?: number;
  /** At most this many lines of an item's text, and only its first paragraph, then `…` (needs width). */
  maxLines?: number;
}

/** One item: every string already through toTerminalText (the text's line breaks kept as `\n`). */
export interface Row {
  name: string;
  text: string;
  /** Shown after the text as `(a, b)`, each kept on one line where the width allows. */
  args?: readonly string[];
}

/** The widest name column before texts stop lining up. */
const MAX_NAME_WIDTH = 36;
/** Narrower room than this for the text puts it under the name, indented by NARROW_INDENT. */
const MIN_TEXT_WIDTH = 24;
const NARROW_INDENT = 4;
/** What ends a cut text. */
export const CUT_MARKER = '…';

/**
 * `rows` as lines, a newline after each ('' for none). An item's lines stay together: its first line
 * starts with its name, every further line with spaces (an empty line inside a text is the indent).
 */
export function formatRows(rows: readonly Row[], colours: Colours, layout: RowLayout = {}): string {
  const nameWidth = Math.min(MAX_NAME_WIDTH, Math.max(0, ...rows.map((row) => displayWidth(row.name))));
  let indent = nameWidth + 2;
  const isNarrow = layout.width !== undefined && layout.width - indent < MIN_TEXT_WIDTH;
  if (isNarrow) indent = NARROW_INDENT;
  const textWidth = layout.width === undefined ? undefined : Math.max(1, layout.width - indent);
  const lines: string[] = [];
  for (const row of rows) {
    const body = bodyOf(row, textWidth, layout.maxLines);
    const pad = ' '.repeat(Math.max(0, nameWidth - displayWidth(row.name)));
    const name = colours.cyan(row.name);
    // On a terminal, text that would not line up (a long name, a narrow terminal) starts below the name.
    const isBelow = isNarrow || (textWidth !== undefined && displayWidth(row.name) > nameWidth);
    if (body.length === 0 || (body.length === 1 && body[0] === '')) lines.push(name);
    else if (isBelow) lines.push(name, ...body.map((line) => indented(line, indent)));
    else lines.push(`${name}${pad}  ${body[0]!}`, ...body.slice(1).map((line) => indented(line, indent)));
  }
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** The row's text and arguments as lines of at most `width` columns (any length without a width). */
function bodyOf(row: Row, width: number | undefined, maxLines: number | undefined): string[] {
  const paragraphs = toLines(row.text);
  let lines: string[];
  if (width === undefined) lines = paragraphs;
  else if (maxLines === undefined) lines = paragraphs.flatMap((line) => wrapText(line, width));
  else lines = cut(paragraphs, width, maxLines);
  const args = row.args ?? [];
  if (args.length === 0) return lines;
  const tokens = args.map(
    (arg, index) => `${index === 0 ? '(' : ''}${arg}${index === args.length - 1 ? ')' : ','}`,
  );
  const last = lines.pop() ?? '';
  const inline = last === '' ? tokens.join(' ') : `${last} ${tokens.join(' ')}`;
  if (width === undefined || (lines.length === 0 && displayWidth(inline) <= width)) return [...lines, inline];
  // On a terminal the arguments start a line of their own; each stays whole on a line where it fits,
  // one wider than a line breaks after its commas, then at its spaces.
  const words = tokens.flatMap((token) => piecesOf(token, width));
  return [...lines, ...(last === '' ? [] : [last]), ...wrapWords(words, width)];
}

function piecesOf(token: string, width: number): string[] {
  if (displayWidth(token) <= width) return [token];
  return token
    .split(/(?<=,) /)
    .flatMap((piece) => (displayWidth(piece) <= width ? [piece] : piece.split(' ')));
}

/** The first paragraph wrapped, at most `maxLines` lines; `…` at the end of the last when anything is left out. */
function cut(paragraphs: readonly string[], width: number, maxLines: number): string[] {
  const end = paragraphs.indexOf('');
  const first = end === -1 ? paragraphs : paragraphs.slice(0, end);
  const wrapped = first.flatMap((line) => wrapText(line, width));
  if (wrapped.length <= maxLines && end === -1) return wrapped;
  const kept = wrapped.slice(0, maxLines);
  const last = kept.pop()!;
  const marker = ` ${CUT_MARKER}`;
  const room = width - displayWidth(marker);
  let shortened = truncateToWidth(last, room, '');
  // Cut between words where the line has a space to cut at.
  if (shortened !== last && shortened.includes(' '))
    shortened = shortened.slice(0, shortened.lastIndexOf(' '));
  return [...kept, `${shortened}${marker}`];
}

/** A text's lines, ends trimmed, blank lines at either end dropped, runs of blank lines made one. */
function toLines(text: string): string[] {
  const lines = text.split('\n').map((line) => line.trimEnd());
  const kept = lines.filter((line, index) => line !== '' || (index > 0 && lines[index - 1] !== ''));
  while (kept.at(-1) === '') kept.pop();
  while (kept[0] === '') kept.shift();
  return kept;
}

function indented(line: string, indent: number): string {
  return `${' '.repeat(indent)}${line}`;
}

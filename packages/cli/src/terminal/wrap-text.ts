// Fitting text already made safe by toTerminalText into terminal columns: its width as a terminal
// shows it, greedy word wrap, and cutting with a marker. Never splits a code point, a combining
// mark from its base, or an escape toTerminalText wrote (`\xHH`, `\uHHHH`). Pure.

/**
 * One cell of text: an escape written by toTerminalText, or one code point (a surrogate pair is one)
 * with the combining marks, zero-width joiners and variation selectors that follow it.
 */
const UNIT = /(?:\\x[0-9a-f]{2}|\\u[0-9a-f]{4}|[\s\S])[\p{M}\u200d\ufe0e\ufe0f]*/gu;
const ESCAPE = /^\\(?:x[0-9a-f]{2}|u[0-9a-f]{4})/;

/**
 * East Asian Wide and Fullwidth blocks (Hangul Jamo, CJK, kana, Hangul syllables, fullwidth forms,
 * the supplementary ideographs) and emoji shown as pictures by default: two columns on a terminal.
 */
const WIDE =
  /^(?:[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{20000}-\u{3fffd}]|\p{Emoji_Presentation})/u;

/** The columns `text` takes on a terminal: 2 for a wide character, 0 for a mark, 1 otherwise. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const unit of unitsOf(text)) width += unitWidth(unit);
  return width;
}

/**
 * `text` (one line, no line breaks) as lines of at most `width` columns: words packed greedily at
 * spaces; a word wider than a line is broken between units. Always at least one line.
 */
export function wrapText(text: string, width: number): string[] {
  return wrapWords(text.split(' '), width);
}

/**
 * Lines of at most `width` columns holding `words` in order, one space between neighbours on a line;
 * a word wider than `width` is broken between units (a unit wider than `width` gets a line alone).
 */
export function wrapWords(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let current = '';
  let used = 0;
  let hasWord = false;
  for (const word of words) {
    const wordWidth = displayWidth(word);
    const needed = hasWord ? used + 1 + wordWidth : wordWidth;
    if (needed <= width) {
      current = hasWord ? `${current} ${word}` : word;
      used = needed;
      hasWord = true;
      continue;
    }
    if (hasWord) lines.push(current);
    const pieces = breakWord(word, width);
    lines.push(...pieces.slice(0, -1));
    current = pieces.at(-1)!;
    used = displayWidth(current);
    hasWord = true;
  }
  lines.push(current);
  return lines;
}

/** `text` if it fits in `width` columns, else its longest start that fits with `marker` after it. */
export function truncateToWidth(text: string, width: number, marker = '…'): string {
  if (displayWidth(text) <= width) return text;
  return `${takeWidth(text, Math.max(0, width - displayWidth(marker)))}${marker}`;
}

/** The longest start of `text` (whole units) at most `width` columns wide. */
function takeWidth(text: string, width: number): string {
  let taken = '';
  let used = 0;
  for (const unit of unitsOf(text)) {
    used += unitWidth(unit);
    if (used > width) break;
    taken += unit;
  }
  return taken;
}

/** `word` in pieces of at most `width` columns, in one pass; a unit wider than `width` is a piece alone. */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let used = 0;
  for (const unit of unitsOf(word)) {
    const unitColumns = unitWidth(unit);
    if (piece !== '' && used + unitColumns > width) {
      pieces.push(piece);
      piece = '';
      used = 0;
    }
    piece += unit;
    used += unitColumns;
  }
  pieces.push(piece);
  return pieces;
}

function unitsOf(text: string): string[] {
  return text.match(UNIT) ?? [];
}

function unitWidth(unit: string): number {
  const escape = ESCAPE.exec(unit);
  if (escape !== null) return escape[0].length;
  return WIDE.test(unit) ? 2 : /^\p{M}/u.test(unit) ? 0 : 1;
}

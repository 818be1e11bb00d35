// Pretty-printed JSON folded to a width: a value goes on one line when it fits, otherwise its members
// go one per line, indented, each laid out the same way (as Prettier breaks JSON); below `maxDepth`
// a value that does not fit is cut at the width and marked with `…`.

import { capDepth } from '../wire/json-depth.ts';

/** How wide the text may be and how deep each level indents. */
export interface LayoutOptions {
  /** The widest line wanted, in characters; a scalar longer than it still takes one line. */
  width: number;
  /** Spaces per level; default 2. */
  indentWidth?: number;
  /** Nesting depth from which values are no longer broken up but cut to the width; default: never. */
  maxDepth?: number;
}

/** The mark of a line cut short. */
export const CUT_MARK = '…';

/**
 * Lays out a JSON value as lines of at most `width` characters where a line break can help.
 * Without `maxDepth` the lines joined by newlines parse back to the same value; with it, lines
 * ending in {@link CUT_MARK} were cut.
 */
export function layoutJson(value: unknown, options: LayoutOptions): string[] {
  const lines: string[] = [];
  // Recursive below, so depth-capped: a peer's message is cut at MAX_JSON_DEPTH first (issue 21).
  emit(capDepth(value), { indent: '', key: '', comma: '', depth: 0 }, lines, {
    width: options.width,
    step: ' '.repeat(options.indentWidth ?? 2),
    maxDepth: options.maxDepth ?? Infinity,
  });
  return lines;
}

/** The same value on one line, with a space after each `:` and `,` (and inside non-empty braces). */
export function inlineJson(value: unknown): string {
  return inline(capDepth(value));
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.map(inline).join(', ')}]`;
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([key, item]) => `${JSON.stringify(key)}: ${inline(item)}`).join(', ')} }`;
  }
  return JSON.stringify(value) ?? 'null';
}

interface Slot {
  indent: string;
  /** `"name": ` when the value is an object member, else empty. */
  key: string;
  comma: string;
  depth: number;
}

interface Layout {
  width: number;
  step: string;
  maxDepth: number;
}

function emit(value: unknown, slot: Slot, lines: string[], layout: Layout): void {
  const oneLine = `${slot.indent}${slot.key}${inline(value)}${slot.comma}`;
  const entries = membersOf(value);
  if (oneLine.length <= layout.width || entries === undefined || entries.length === 0) {
    lines.push(slot.depth >= layout.maxDepth ? cut(oneLine, layout.width) : oneLine);
    return;
  }
  if (slot.depth >= layout.maxDepth) {
    lines.push(cut(oneLine, layout.width));
    return;
  }
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  lines.push(`${slot.indent}${slot.key}${open}`);
  const indent = slot.indent + layout.step;
  entries.forEach(([key, item], index) => {
    const comma = index < entries.length - 1 ? ',' : '';
    const member = key === undefined ? '' : `${JSON.stringify(key)}: `;
    emit(item, { indent, key: member, comma, depth: slot.depth + 1 }, lines, layout);
  });
  lines.push(`${slot.indent}${close}${slot.comma}`);
}

function cut(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, Math.max(0, width - CUT_MARK.length))}${CUT_MARK}`;
}

function membersOf(value: unknown): Array<[string | undefined, unknown]> | undefined {
  if (Array.isArray(value)) return value.map((item) => [undefined, item]);
  if (isObject(value)) return Object.entries(value);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

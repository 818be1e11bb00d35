// What changed between two versions of a definition, in words: each JSON Pointer whose value differs,
// old and new, for a `pin/changed` finding. Walks both with an explicit stack.

import { isObject } from './schema-walk.ts';
import { toCanonicalJson } from './canonical-json.ts';

/** At most this many changed places are named; the rest are counted. */
const SHOWN = 8;
/** A value longer than this (as JSON) is cut with "...". */
const VALUE_CHARS = 160;

/** One changed place. */
export interface Change {
  /** JSON Pointer without the leading "/", e.g. `inputSchema/properties/city/description`. */
  path: string;
  before: unknown;
  after: unknown;
}

/** Every place where `before` and `after` differ, in key order: the deepest place that differs. */
export function changesOf(before: unknown, after: unknown): Change[] {
  const changes: Change[] = [];
  const stack: Array<{ before: unknown; after: unknown; path: string }> = [{ before, after, path: '' }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const { before: a, after: b, path } = top;
    const join = (key: string | number): string => (path === '' ? String(key) : `${path}/${key}`);
    if (isObject(a) && isObject(b)) {
      const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort().reverse();
      for (const key of keys) stack.push({ before: a[key], after: b[key], path: join(key) });
    } else if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      for (let i = a.length - 1; i >= 0; i -= 1) stack.push({ before: a[i], after: b[i], path: join(i) });
    } else if (toCanonicalJson(a) !== toCanonicalJson(b)) changes.push({ path, before: a, after: b });
  }
  return changes;
}

/** The changes as one line: `path: old -> new; ...` (absent values read `(absent)`). */
export function describeChanges(before: unknown, after: unknown): string {
  const changes = changesOf(before, after);
  const shown = changes
    .slice(0, SHOWN)
    .map(
      (change) =>
        `${change.path === '' ? '(whole definition)' : change.path}: ${show(change.before)} -> ${show(change.after)}`,
    );
  const more = changes.length > SHOWN ? `; and ${changes.length - SHOWN} more` : '';
  return `${shown.join('; ')}${more}`;
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const json = toCanonicalJson(value);
  return json.length > VALUE_CHARS ? `${json.slice(0, VALUE_CHARS)}...` : json;
}

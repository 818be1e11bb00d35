// Where two JSON values differ, path by path: what `replay --check` prints for a changed response,
// and how the mock finds the recorded request closest to one it cannot match.

import { REDACTED } from '../../wire/redact.ts';
import type { IgnoredPaths, Segment } from './ignored-paths.ts';

/** One place where the received value is not the recorded one. */
export interface Difference {
  /** As JSONPath: `$.result.content[0].text`. */
  path: string;
  /** `changed` (both there), `added` (only received), `removed` (only recorded). */
  kind: 'changed' | 'added' | 'removed';
  recorded?: unknown;
  received?: unknown;
}

/**
 * The differences between `recorded` and `received`, in document order. Paths `options.ignored` names are
 * skipped with all below them; a recorded `"[redacted]"` (a secret the recorder replaced) matches
 * any received value. Object key order never matters; array order does.
 */
export function diffJson(
  recorded: unknown,
  received: unknown,
  options: { ignored?: IgnoredPaths } = {},
): Difference[] {
  const out: Difference[] = [];
  walk(recorded, received, [], options.ignored, out);
  return out;
}

function walk(
  recorded: unknown,
  received: unknown,
  path: Segment[],
  ignored: IgnoredPaths | undefined,
  out: Difference[],
): void {
  if (path.length > 0 && ignored?.has(path)) return;
  if (recorded === REDACTED) return;
  if (Array.isArray(recorded) && Array.isArray(received)) {
    const length = Math.max(recorded.length, received.length);
    for (let index = 0; index < length; index++)
      visit(recorded, received, index, index < recorded.length, index < received.length);
    return;
  }
  if (isObject(recorded) && isObject(received)) {
    const keys = [...Object.keys(recorded), ...Object.keys(received).filter((key) => !(key in recorded))];
    for (const key of keys) visit(recorded, received, key, key in recorded, key in received);
    return;
  }
  if (!Object.is(recorded, received))
    out.push({ path: formatPath(path), kind: 'changed', recorded, received });

  function visit(left: unknown, right: unknown, key: Segment, isLeft: boolean, isRight: boolean): void {
    const at = [...path, key];
    const leftValue = (left as Record<Segment, unknown>)[key];
    const rightValue = (right as Record<Segment, unknown>)[key];
    if (isLeft && isRight) walk(leftValue, rightValue, at, ignored, out);
    else if (!ignored?.has(at))
      out.push(
        isLeft
          ? { path: formatPath(at), kind: 'removed', recorded: leftValue }
          : { path: formatPath(at), kind: 'added', received: rightValue },
      );
  }
}

/** `$`, then `.name` for identifier keys, `["other key"]` for the rest and `[3]` for indexes. */
export function formatPath(path: readonly Segment[]): string {
  return `$${path
    .map((segment) =>
      typeof segment === 'number'
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(segment)
          ? `.${segment}`
          : `[${JSON.stringify(segment)}]`,
    )
    .join('')}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

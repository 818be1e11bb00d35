// A definition's canonical JSON and its SHA-256: object keys sorted at every depth, so the same
// definition listed with its keys in another order hashes the same (what `pin` records).

import { createHash } from 'node:crypto';
import { capDepth } from '../wire/json-depth.ts';
import { isObject } from './schema-walk.ts';

/**
 * `value` as JSON with the keys of every object sorted. The value is depth-capped first (capDepth
 * walks with an explicit stack), so the recursion below is at most MAX_JSON_DEPTH deep.
 */
export function toCanonicalJson(value: unknown): string {
  return JSON.stringify(sorted(capDepth(value)));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isObject(value)) return value;
  // fromEntries makes own data properties: a "__proto__" key stays a key.
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** The SHA-256 of `value`'s canonical JSON (UTF-8), as 64 lowercase hex digits. */
export function sha256Of(value: unknown): string {
  return createHash('sha256').update(toCanonicalJson(value), 'utf8').digest('hex');
}

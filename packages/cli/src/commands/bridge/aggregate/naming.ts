// The aggregate's names: `<server>__<name>` in the charset and length every model API accepts
// (`[A-Za-z0-9_-]`, 64 at most), with a stable hash suffix where that text is too long or shared.

import { createHash } from 'node:crypto';

/** The longest name the model APIs accept (the rule `mcpwire check` applies to tool names). */
export const MAX_NAME_LENGTH = 64;

/** What stands between the server's name and the item's own name. */
export const SEPARATOR = '__';

/** Hex characters of the hash suffix. */
const HASH_LENGTH = 8;

/** An item of one upstream, as the aggregate routes it back. */
export interface Origin {
  server: string;
  name: string;
}

/** Every character outside `[A-Za-z0-9_-]` (one UTF-16 unit or a surrogate pair) becomes `_`. */
export function toNameText(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/gu, '_');
}

/** The first 8 hex of SHA-256 over `server`, a NUL and `name`: the same pair always gives the same suffix. */
function suffixOf({ server, name }: Origin): string {
  return createHash('sha256').update(`${server}\u0000${name}`).digest('hex').slice(0, HASH_LENGTH);
}

/** `<server>__<name>` mapped to the charset, cut to 55 characters, `_` and the pair's hash. */
function hashedName(origin: Origin): string {
  const text = toNameText(origin.server) + SEPARATOR + toNameText(origin.name);
  return `${text.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${suffixOf(origin)}`;
}

/**
 * Names every item of one kind (tools, or prompts, or resource templates) of every upstream. The
 * plain name is `toNameText(server) + '__' + toNameText(name)`; it is kept when it has at most 64
 * characters and no other item of the kind maps to the same text. Otherwise (too long, or a
 * collision) each item concerned is named {@link hashedName}: the plain text cut to 55 characters,
 * `_`, and 8 hex of SHA-256 over server and name. The result depends only on the set of items, never
 * on their order; a hashed name that still meets another name (a chance of 1 in 2^32) is hashed once
 * more over itself, so the map never holds two items under one name.
 */
export function nameAll(items: readonly Origin[]): Map<string, Origin> {
  const byText = new Map<string, Origin[]>();
  for (const origin of items) {
    const text = toNameText(origin.server) + SEPARATOR + toNameText(origin.name);
    byText.set(text, [...(byText.get(text) ?? []), origin]);
  }
  const named = new Map<string, Origin>();
  const hashed: Origin[] = [];
  for (const [text, origins] of byText) {
    if (origins.length === 1 && text.length <= MAX_NAME_LENGTH) named.set(text, origins[0]!);
    else hashed.push(...origins);
  }
  // Sorted, so that the rare second hash below does not depend on the order items arrived in.
  hashed.sort((a, b) => compare(a.server, b.server) || compare(a.name, b.name));
  for (const origin of hashed) {
    let name = hashedName(origin);
    while (named.has(name)) name = hashedName({ server: origin.server, name: name });
    named.set(name, origin);
  }
  return named;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

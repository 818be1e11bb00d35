// Following `nextCursor` until the last page (PAGE-2, PAGE-5), with a cap against servers that never stop.

import { InvalidResultError, PaginationLimitError } from './errors.ts';

/** Default page cap of the auto-paginating helpers. */
export const DEFAULT_MAX_PAGES = 1000;

/** One fetched page: its items and the cursor of the next page, if any. */
export interface Page<T> {
  items: T[];
  nextCursor: string | undefined;
}

/**
 * Fetches pages one after another, passing each `nextCursor` back as `cursor`, and returns every
 * item in server order. A cursor is opaque (PAGE-6): only its presence ends the loop, so the empty
 * string continues it. Rejects with PaginationLimitError after `maxPages` pages that all had a
 * next cursor, or with whatever a page fetch rejects with.
 */
export async function collectPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  options: { method: string; maxPages?: number },
): Promise<T[]> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < maxPages; pages++) {
    const page = await fetchPage(cursor);
    items.push(...page.items);
    if (page.nextCursor === undefined) return items;
    cursor = page.nextCursor;
  }
  throw new PaginationLimitError(options.method, maxPages);
}

/**
 * Reads a list page: the array under `key` and a string `nextCursor` (null is read as absent).
 * Throws InvalidResultError when the array is missing or the cursor is another type.
 */
export function readPage<T>(result: Record<string, unknown>, list: { method: string; key: string }): Page<T> {
  const { method, key } = list;
  const items = result[key];
  if (!Array.isArray(items)) throw new InvalidResultError(method, `expected "${key}" to be an array`);
  const nextCursor = result.nextCursor;
  // null is not in the schema, but some servers send it for "no more pages"; reading it as absent is safe.
  if (nextCursor === undefined || nextCursor === null) return { items: items as T[], nextCursor: undefined };
  if (typeof nextCursor !== 'string')
    throw new InvalidResultError(
      method,
      `expected "nextCursor" to be a string or absent, got ${typeof nextCursor}`,
    );
  return { items: items as T[], nextCursor };
}

/**
 * Every item of a paginated list method: `fetchPage` sends one request with the given params,
 * and the items are read from the result's `key` array (see `collectPages` for the loop and cap).
 */
export function collectList(
  fetchPage: (params: { cursor?: string }) => Promise<Record<string, unknown>>,
  list: { method: string; key: string; maxPages?: number | undefined },
): Promise<unknown[]> {
  const { method, maxPages } = list;
  const fetchOne = async (cursor: string | undefined) =>
    readPage(await fetchPage(cursor === undefined ? {} : { cursor }), list);
  return collectPages(fetchOne, maxPages === undefined ? { method } : { method, maxPages });
}

// Headers that must appear at most once: a repeated one makes the request ambiguous (which session,
// which revision, which body type?), so it is refused before anything reads it.

import type { HeaderReader } from './exchange.ts';

/**
 * The headers a request may carry once only. Both adapters join a repeated header's values with
 * `, ` (web `Headers` always; the Node adapter with `joinDuplicateHeaders`), and none of these has
 * a comma in any value we accept: session ids are UUIDs, versions are dates, and the one media type
 * has no list form.
 */
const SINGLETON_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'content-type'] as const;

/** The name of the first singleton header that was sent more than once, or undefined. */
export function findRepeatedHeader(headers: HeaderReader): string | undefined {
  for (const name of SINGLETON_HEADERS) {
    if (headers.get(name)?.includes(',') === true) return name;
  }
  return undefined;
}

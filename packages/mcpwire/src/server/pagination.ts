// Opaque pagination cursors (PAGE-*): clients must not parse them; bad ones are -32602.

import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';

const PREFIX = 'mcpwire:';

/**
 * Returns one page of `items` starting at `cursor`, and the cursor of the next page when there
 * is one. The cursor encodes an offset behind a prefix, base64url-encoded so it is opaque.
 */
export function paginate<T>(
  items: readonly T[],
  cursor: unknown,
  pageSize: number,
): { page: T[]; nextCursor?: string } {
  const start = cursor === undefined ? 0 : decodeCursor(cursor);
  if (start > items.length) throw invalidCursor();
  const end = Math.min(items.length, start + pageSize);
  const page = items.slice(start, end);
  return end < items.length ? { page, nextCursor: encodeCursor(end) } : { page };
}

function encodeCursor(offset: number): string {
  return btoa(PREFIX + offset)
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replaceAll('=', '');
}

function decodeCursor(cursor: unknown): number {
  if (typeof cursor !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) throw invalidCursor();
  let text: string;
  try {
    text = atob(cursor.replaceAll('-', '+').replaceAll('_', '/'));
  } catch {
    throw invalidCursor();
  }
  const digits = text.startsWith(PREFIX) ? text.slice(PREFIX.length) : '';
  if (!/^\d{1,9}$/.test(digits)) throw invalidCursor();
  return Number(digits);
}

function invalidCursor(): RpcError {
  return new RpcError(ErrorCode.InvalidParams, 'Invalid params: unknown or malformed cursor');
}

// Facts about JSON-RPC messages that the HTTP client decides by: the stateless-era claim, batches,
// and what counts as a stateless-era server's error.

import type { JsonRpcErrorObject, JsonRpcRequest, Message } from '../../jsonrpc/message.ts';
import { ErrorCode } from '../../jsonrpc/rpc-error.ts';
import { MetaKey, StatelessErrorCode } from '../../protocol/types/index.ts';

/**
 * The protocol version a request claims in `params._meta` (S26-META-2), which makes it a
 * stateless-era request; undefined for a handshake-era one.
 */
export function claimOf(request: JsonRpcRequest): string | undefined {
  const meta = request.params?._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const version = (meta as Record<string, unknown>)[MetaKey.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/** True for a batch (an array of messages). */
export function isBatch(message: Message | readonly Message[]): message is readonly Message[] {
  return Array.isArray(message);
}

const STATELESS_CODES: ReadonlySet<number> = new Set(Object.values(StatelessErrorCode));

/**
 * True when a refused request's body is an error only a stateless-era server sends (2026-07-28
 * section 3.3): -32020, -32021, -32022, or -32601 with 404 (a stateless-era server lacking the method).
 */
export function isStatelessErrorBody(status: number, error: JsonRpcErrorObject | undefined): boolean {
  if (error === undefined) return false;
  if (STATELESS_CODES.has(error.code)) return true;
  return status === 404 && error.code === ErrorCode.MethodNotFound;
}

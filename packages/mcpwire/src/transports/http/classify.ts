// Body-first classification of a POST on the one endpoint both eras share (S26 section 3.5, after
// the official SDK's `classifyInboundRequest`): the body decides the era; headers only cross-check.

import type { Frame } from '../../jsonrpc/codec.ts';
import type { JsonRpcRequest } from '../../jsonrpc/message.ts';
import { ErrorCode } from '../../jsonrpc/rpc-error.ts';
import { isStatelessClaim } from '../../protocol/envelope.ts';
import { isStatelessVersion } from '../../protocol/revisions.ts';
import { MetaKey, StatelessErrorCode } from '../../protocol/types/index.ts';
import type { HttpError } from './json-response.ts';

/** Where a POST goes. */
export type PostRoute =
  | { kind: 'reject'; error: HttpError }
  /** A stateless-era request: validated by the header ladder, then served on its own. */
  | { kind: 'stateless-request'; message: JsonRpcRequest }
  /** A stateless-era notification: accepted (202) and dropped; the core defines none over HTTP. */
  | { kind: 'stateless-notification' }
  /** Handshake-era traffic: `initialize` opens a session, everything else belongs to one. */
  | { kind: 'handshake'; frame: Frame; isInitialize: boolean };

/** The header values classification cross-checks. */
export interface ClassifyHeaders {
  protocolVersion: string | null;
  method: string | null;
}

/**
 * Classifies a decoded POST body. Batches and responses are handshake-era; `initialize` without a
 * claim opens a session; a request claiming a version in `_meta` is stateless-era; a request with no
 * claim but a stateless-era `MCP-Protocol-Version` is a broken stateless request (-32602, required
 * by conformance `server-stateless`); notifications follow the claim, else the header.
 */
export function classifyPost(frame: Frame, headers: ClassifyHeaders): PostRoute {
  const header = headers.protocolVersion;
  const isStatelessHeader = header !== null && isStatelessVersion(header);
  if (frame.type === 'invalid') {
    const { response } = frame;
    return reject(400, response.error.code, response.error.message, response.id);
  }
  if (frame.type === 'batch') {
    for (const item of frame.items) {
      if (item.type === 'invalid') return reject(400, ErrorCode.InvalidRequest, item.response.error.message);
      if ('params' in item.message && isStatelessClaim(item.message.params)) {
        return reject(
          400,
          ErrorCode.InvalidRequest,
          'Invalid Request: a batch cannot carry protocol revision 2026-07-28 requests (batches exist only in 2025-03-26)',
        );
      }
    }
    return { kind: 'handshake', frame, isInitialize: false };
  }
  const { message } = frame;
  if (!('method' in message)) return { kind: 'handshake', frame, isInitialize: false };
  const isClaim = isStatelessClaim(message.params);
  if (!('id' in message)) {
    if (!isClaim && !isStatelessHeader) return { kind: 'handshake', frame, isInitialize: false };
    if (headers.method !== null && headers.method !== message.method) {
      return reject(400, StatelessErrorCode.HeaderMismatch, methodMismatch(headers.method, message.method));
    }
    return { kind: 'stateless-notification' };
  }
  if (message.method === 'initialize' && !isClaim) {
    if (isStatelessHeader) {
      return reject(
        400,
        StatelessErrorCode.HeaderMismatch,
        `Header mismatch: "initialize" is the handshake-era opening, but MCP-Protocol-Version names ${header}`,
        message.id,
      );
    }
    return { kind: 'handshake', frame, isInitialize: true };
  }
  if (isClaim) return { kind: 'stateless-request', message };
  if (isStatelessHeader) {
    const meta = message.params?._meta;
    const missing =
      typeof meta === 'object' && meta !== null
        ? [MetaKey.protocolVersion, MetaKey.clientCapabilities].filter((key) => !(key in meta))
        : ['_meta'];
    return reject(
      400,
      ErrorCode.InvalidParams,
      `Invalid params: MCP-Protocol-Version names ${header}, but the request lacks ${missing.map((key) => `"${key}"`).join(' and ')}`,
      message.id,
      { missing },
    );
  }
  return { kind: 'handshake', frame, isInitialize: false };
}

/** The -32020 message for a `Mcp-Method` header that differs from the body. */
export function methodMismatch(header: string, method: string): string {
  return `Header mismatch: Mcp-Method is "${header}" but the body's method is "${method}"`;
}

function reject(
  status: number,
  code: number,
  message: string,
  id?: JsonRpcRequest['id'],
  data?: unknown,
): PostRoute {
  return { kind: 'reject', error: { status, code, message, id, ...(data === undefined ? {} : { data }) } };
}

// Checks every handshake-era POST gets, with a session or without: the version header names a
// handshake-era revision (HTTP-35), and a batch belongs to 2025-03-26 alone.

import type { Frame } from '../../jsonrpc/codec.ts';
import type { RequestId } from '../../jsonrpc/message.ts';
import { ErrorCode } from '../../jsonrpc/rpc-error.ts';
import { HANDSHAKE_VERSIONS } from '../../protocol/revisions.ts';
import type { HttpReply } from './exchange.ts';
import { errorReply, TRANSPORT_ERROR } from './json-response.ts';

/** HTTP-35: an MCP-Protocol-Version header (`version`, null when absent) that names no handshake-era revision gets 400 (absent is fine, HTTP-34). */
export function checkVersionHeader(version: string | null, id: RequestId | undefined): HttpReply | undefined {
  if (version === null || (HANDSHAKE_VERSIONS as readonly string[]).includes(version)) return undefined;
  return errorReply({
    status: 400,
    code: TRANSPORT_ERROR,
    message: `Bad Request: unsupported MCP-Protocol-Version "${version}" (supported: ${HANDSHAKE_VERSIONS.join(', ')})`,
    id,
  });
}

/** A batch in a revision other than 2025-03-26 (the only one with batches) gets 400. */
export function refuseBatch(frame: Frame, version: string | undefined): HttpReply | undefined {
  if (frame.type !== 'batch' || version === '2025-03-26') return undefined;
  return errorReply({
    status: 400,
    code: ErrorCode.InvalidRequest,
    message: `Invalid Request: JSON-RPC batches exist only in protocol revision 2025-03-26, not ${version ?? 'before initialize'}`,
  });
}

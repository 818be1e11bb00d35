// The stateless era's standard request headers checked against the body (S26-HTTP-11..14):
// MCP-Protocol-Version, Mcp-Method and Mcp-Name, with the `=?base64?...?=` sentinel (S26-HDR-4/5).

import type { HeaderReader } from './exchange.ts';
import type { JsonRpcRequest } from '../../jsonrpc/message.ts';
import { methodMismatch } from './classify.ts';
import { decodeHeaderValue, nameParamOf, toWellFormed } from './mcp-headers.ts';

export { decodeHeaderValue };

/**
 * The -32020 message for the first standard header that is missing, malformed or differs from the
 * body of a stateless request, or undefined when they agree. `claimedVersion` is the body's
 * `_meta` protocol version. Header names are case-insensitive (Headers), values case-sensitive.
 * The ladder checks the two halves apart, with version support between them (stateless-route.ts).
 */
export function checkStandardHeaders(
  message: JsonRpcRequest,
  claimedVersion: unknown,
  headers: HeaderReader,
): string | undefined {
  return checkVersionHeader(claimedVersion, headers) ?? checkMethodHeaders(message, headers);
}

/** The -32020 message when `MCP-Protocol-Version` is missing or differs from the body's claim (S26-HTTP-11, S26-HTTP-14). */
export function checkVersionHeader(claimedVersion: unknown, headers: HeaderReader): string | undefined {
  const version = headers.get('mcp-protocol-version');
  if (version === null) return 'Header mismatch: the MCP-Protocol-Version header is required';
  if (version !== claimedVersion) {
    return `Header mismatch: MCP-Protocol-Version is "${version}" but _meta names ${JSON.stringify(claimedVersion)}`;
  }
  return undefined;
}

/** The -32020 message when `Mcp-Method`, or `Mcp-Name` where the method has one, is missing, malformed or differs (S26-HTTP-12, S26-HTTP-14). */
export function checkMethodHeaders(message: JsonRpcRequest, headers: HeaderReader): string | undefined {
  const method = headers.get('mcp-method');
  if (method === null)
    return `Header mismatch: the Mcp-Method header is required (the body's method is "${message.method}")`;
  if (method !== message.method) return methodMismatch(method, message.method);
  const field = nameParamOf(message.method);
  if (field === undefined) return undefined;
  const raw = message.params?.[field];
  const bodyValue = typeof raw === 'string' ? raw : undefined;
  const name = headers.get('mcp-name');
  if (name === null) {
    return bodyValue === undefined
      ? undefined
      : `Header mismatch: the Mcp-Name header is required for "${message.method}" (params.${field} is "${bodyValue}")`;
  }
  const decoded = decodeHeaderValue(name);
  if (decoded === undefined) return 'Header mismatch: Mcp-Name has invalid characters or invalid base64';
  if (bodyValue !== undefined && decoded !== toWellFormed(bodyValue)) {
    return `Header mismatch: Mcp-Name is "${decoded}" but params.${field} is "${bodyValue}"`;
  }
  return undefined;
}

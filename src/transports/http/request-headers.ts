// The stateless era's standard request headers checked against the body (S26-HTTP-11..14):
// MCP-Protocol-Version, Mcp-Method and Mcp-Name, with the `=?base64?...?=` sentinel (S26-HDR-4/5).

import type { JsonRpcRequest } from '../../jsonrpc/message.ts';
import { methodMismatch } from './classify.ts';

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** Canonical padded base64 only: `Buffer.from(s, 'base64')` would accept `SGVsbG8` and `SGVs!!!bG8=`. */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII and inner spaces: anything else must have been sent base64-encoded. */
const PLAIN_VALUE = /^[\x20-\x7e]*$/;

/** Which body field `Mcp-Name` mirrors, per method (S26-HTTP-12; tasks from the tasks extension). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * Decodes a header value: the UTF-8 text inside an exact, lowercase `=?base64?...?=` wrapper, or the
 * value itself (a literal). Undefined when the value has characters a header must not carry in
 * plain form, or when the wrapped payload is not canonical base64 of valid UTF-8.
 */
export function decodeHeaderValue(value: string): string | undefined {
  if (!PLAIN_VALUE.test(value)) return undefined;
  const isWrapped =
    value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length &&
    value.startsWith(SENTINEL_PREFIX) &&
    value.endsWith(SENTINEL_SUFFIX);
  if (!isWrapped) return value;
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!STRICT_BASE64.test(payload)) return undefined;
  const binary = atob(payload);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The -32020 message for the first standard header that is missing, malformed or differs from the
 * body of a stateless request, or undefined when they agree. `claimedVersion` is the body's
 * `_meta` protocol version. Header names are case-insensitive (Headers), values case-sensitive.
 */
export function checkStandardHeaders(
  message: JsonRpcRequest,
  claimedVersion: unknown,
  headers: Headers,
): string | undefined {
  const version = headers.get('mcp-protocol-version');
  if (version === null) return 'Header mismatch: the MCP-Protocol-Version header is required';
  if (version !== claimedVersion) {
    return `Header mismatch: MCP-Protocol-Version is "${version}" but _meta names ${JSON.stringify(claimedVersion)}`;
  }
  const method = headers.get('mcp-method');
  if (method === null)
    return `Header mismatch: the Mcp-Method header is required (the body's method is "${message.method}")`;
  if (method !== message.method) return methodMismatch(method, message.method);
  const field = Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
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
  if (bodyValue !== undefined && decoded !== bodyValue) {
    return `Header mismatch: Mcp-Name is "${decoded}" but params.${field} is "${bodyValue}"`;
  }
  return undefined;
}

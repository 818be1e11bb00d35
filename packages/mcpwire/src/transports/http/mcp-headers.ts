// The MCP request headers a client sets (HTTP-28/33, S26-HTTP-11/12, S26-HDR-4): their names, the
// stateless-era request-metadata headers, and the `=?base64?...?=` value encoding.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { MethodTable } from '../../protocol/method-table.ts';

/** Header names, spelled as the spec spells them (names compare case-insensitively). */
export const McpHeader = {
  protocolVersion: 'MCP-Protocol-Version',
  sessionId: 'Mcp-Session-Id',
  method: 'Mcp-Method',
  name: 'Mcp-Name',
  paramPrefix: 'Mcp-Param-',
  lastEventId: 'Last-Event-ID',
} as const;

/**
 * The request param `Mcp-Name` mirrors for `method`, from its row in the method table (`nameParam`,
 * S26-HTTP-12), or undefined for a method without one. One property read on a prototype-less table.
 */
export function nameParamOf(method: string): string | undefined {
  return MethodTable.core.lookup(method)?.nameParam;
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
/** Canonical padded base64 only: `Buffer.from(s, 'base64')` would accept `SGVsbG8` and `SGVs!!!bG8=`. */
const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII and inner spaces: anything else must have been sent base64-encoded. */
const PLAIN_VALUE = /^[\x20-\x7e]*$/;

/**
 * Decodes a header value (S26-HDR-5): the UTF-8 text inside an exact, lowercase `=?base64?...?=`
 * wrapper, or the value itself (a literal). Undefined when the value has characters a header must
 * not carry in plain form, or when the wrapped payload is not canonical base64 of valid UTF-8.
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
  const bytes = Uint8Array.from(atob(payload), (char) => char.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Encodes a header value (S26-HDR-4): plain when every character is visible ASCII or an inner
 * space; otherwise, and for a value that itself looks like the sentinel, `=?base64?<UTF-8 base64>?=`.
 * The empty string stays empty.
 */
export function encodeHeaderValue(value: string): string {
  return isPlainSafe(value) ? value : `${SENTINEL_PREFIX}${toBase64(value)}${SENTINEL_SUFFIX}`;
}

/**
 * `text` as a header value can carry it: each lone surrogate, which UTF-8 cannot encode, becomes
 * U+FFFD, as `encodeHeaderValue` sends it. A receiver compares a decoded header with the body's
 * value in this form, so a value with a lone surrogate still agrees with its own header.
 */
export function toWellFormed(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdfff) return new TextDecoder().decode(new TextEncoder().encode(text));
  }
  return text;
}

/**
 * The text form of an argument mirrored into a header: a string as it is, a finite number in
 * decimal, a boolean as `true`/`false`. Null, absent and any other value give undefined: no header.
 */
export function toHeaderValue(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    default:
      return undefined;
  }
}

/** The `Mcp-Name` value for a request, when its method has one and the param is present. */
export function nameOf(method: string, params: JsonObject | undefined): string | undefined {
  const key = nameParamOf(method);
  if (key === undefined || params === undefined) return undefined;
  const value = params[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Sets the stateless-era headers of one POST (S26-HTTP-11/12): the protocol version, `Mcp-Method`,
 * `Mcp-Name` where the method has one, and the given `Mcp-Param-*` values (already encoded).
 */
export function setStatelessHeaders(
  headers: Headers,
  message: { method: string; params?: JsonObject },
  options: { version: string; params?: ReadonlyArray<readonly [string, string]> },
): void {
  headers.set(McpHeader.protocolVersion, options.version);
  headers.set(McpHeader.method, encodeHeaderValue(message.method));
  const name = nameOf(message.method, message.params);
  if (name !== undefined) headers.set(McpHeader.name, encodeHeaderValue(name));
  for (const [header, value] of options.params ?? []) headers.set(header, value);
}

function isPlainSafe(value: string): boolean {
  if (value.startsWith(' ') || value.endsWith(' ')) return false;
  if (value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX)) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

function toBase64(value: string): string {
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

// What the lint rules read off one recorded message: its kind, its `_meta` and the 2026-07-28
// envelope claim, and a recorded HTTP header. A transcript comes from a file, so nothing here trusts shapes.

import { isStatelessVersion, MetaKey } from 'mcpwire';

/** A JSON object as read from a transcript. */
export type JsonRecord = Record<string, unknown>;

/** What a JSON-RPC message is, by its members: a request has `method` and `id`. */
export type MessageKind = 'request' | 'notification' | 'response';

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The kind of `message` by its members (a message with `method` and `id` is a request). */
export function kindOf(message: JsonRecord): MessageKind {
  if (typeof message.method === 'string') return 'id' in message ? 'request' : 'notification';
  return 'response';
}

/** An id as the findings print it: `1`, `"a"`. */
export function showId(id: unknown): string {
  return JSON.stringify(id) ?? String(id);
}

/** A recorded HTTP header by name, case-insensitively (names are case-insensitive, values are not). */
export function headerOf(entry: { headers: Record<string, string> }, name: string): string | undefined {
  for (const key of Object.keys(entry.headers)) if (key.toLowerCase() === name) return entry.headers[key];
  return undefined;
}

/** `params` when it is an object. */
export function paramsOf(message: JsonRecord): JsonRecord | undefined {
  return isRecord(message.params) ? message.params : undefined;
}

/** `params._meta` when it is an object. */
export function metaOf(message: JsonRecord): JsonRecord | undefined {
  const meta = paramsOf(message)?._meta;
  return isRecord(meta) ? meta : undefined;
}

/** True when a request's `_meta` names a protocol version: a 2026-07-28 (stateless) request. */
export function hasStatelessClaim(message: JsonRecord): boolean {
  return isStatelessMeta(metaOf(message));
}

/** True when a `_meta` object names a protocol version (the 2026-07-28 claim). */
export function isStatelessMeta(meta: JsonRecord | undefined): boolean {
  return meta !== undefined && MetaKey.protocolVersion in meta;
}

/** The protocol version a `_meta` envelope names, when it names one as a string. */
export function claimedVersion(meta: JsonRecord | undefined): string | undefined {
  const version = meta?.[MetaKey.protocolVersion];
  return typeof version === 'string' ? version : undefined;
}

/** The client capabilities a 2026-07-28 `_meta` envelope declares, when it is an object. */
export function claimedCapabilities(meta: JsonRecord | undefined): JsonRecord | undefined {
  const capabilities = meta?.[MetaKey.clientCapabilities];
  return isRecord(capabilities) ? capabilities : undefined;
}

/** The progress token a request asked for in its `_meta` (`progressToken`), if any. */
export function progressTokenOf(meta: JsonRecord | undefined): string | number | undefined {
  const token = meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}

/** Reads `path` (e.g. ['resources', 'subscribe']) inside a capabilities object; undefined when absent. */
export function capabilityAt(capabilities: JsonRecord | undefined, path: readonly string[]): unknown {
  let node: unknown = capabilities;
  for (const key of path) {
    if (!isRecord(node) || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}

/** True for a revision of the stateless era (2026-07-28 or a later date). */
export function isStatelessRevision(revision: string | undefined): boolean {
  return revision !== undefined && isStatelessVersion(revision);
}

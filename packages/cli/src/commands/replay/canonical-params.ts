// How replay tells two requests apart: their params in a canonical form (keys sorted, the `_meta`
// entries that differ from run to run left out), and the thing a request names (a tool, a prompt, a URI).

import { MetaKey, type JsonObject } from 'mcpwire';

/**
 * `_meta` keys left out when params are compared: a progress token is chosen afresh by the client
 * on every run (PROG-1), and the 2026-07-28 envelope's `clientInfo` names whichever client is
 * asking, which does not change the question. `protocolVersion`, `clientCapabilities` and
 * `logLevel` stay: they can change the answer.
 */
export const VOLATILE_META_KEYS: readonly string[] = ['progressToken', MetaKey.clientInfo];

/** JSON text of `value` with object keys sorted at every depth, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/**
 * The canonical text of a request's params: absent params count as `{}`, the
 * {@link VOLATILE_META_KEYS} are dropped, and so is a `_meta` left empty by that.
 */
export function canonicalParams(params: JsonObject | undefined): string {
  return canonicalJson(withoutVolatileMeta(params ?? {}));
}

/** A copy of `params` without the {@link VOLATILE_META_KEYS} (and without a `_meta` left empty). */
export function withoutVolatileMeta(params: JsonObject): JsonObject {
  const meta = params._meta;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return params;
  const kept = Object.fromEntries(
    Object.entries(meta as JsonObject).filter(([key]) => !VOLATILE_META_KEYS.includes(key)),
  );
  const { _meta: _dropped, ...rest } = params;
  return Object.keys(kept).length === 0 ? rest : { ...rest, _meta: kept };
}

/**
 * What a request is about, where its method names one thing: the tool of `tools/call`, the prompt
 * of `prompts/get`, the URI of `resources/read|subscribe|unsubscribe`, the reference of
 * `completion/complete`. Undefined for methods that name nothing (`tools/list`, `initialize`).
 */
export function targetOf(method: string, params: JsonObject | undefined): string | undefined {
  switch (method) {
    case 'tools/call':
    case 'prompts/get':
      return typeof params?.name === 'string' ? params.name : undefined;
    case 'resources/read':
    case 'resources/subscribe':
    case 'resources/unsubscribe':
      return typeof params?.uri === 'string' ? params.uri : undefined;
    case 'completion/complete':
      return params?.ref === undefined ? undefined : canonicalJson(params.ref);
    default:
      return undefined;
  }
}

/** `method` and its target for messages: `tools/call add_numbers`, `tools/list`. */
export function describeRequest(method: string, params: JsonObject | undefined): string {
  const target = targetOf(method, params);
  return target === undefined ? method : `${method} ${target}`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortKeys(record[key])]),
  );
}

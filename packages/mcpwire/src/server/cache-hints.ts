// Caching hints for cacheable stateless-era results (S26-CACHE): `ttlMs` and `cacheScope`.

import type { JsonObject } from '../jsonrpc/message.ts';

/** A hint: how long a result stays fresh, and who may share a cached copy. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** Server-wide defaults, per cacheable method family. */
export interface CacheDefaults {
  discover?: CacheHint;
  lists?: CacheHint;
  read?: CacheHint;
}

// Lists change at runtime (and subscribers hear it), so they stay fresh briefly; identity is stable.
// `private` by default: results may depend on the caller's authorization (S26-CACHE-4).
const DEFAULTS: Required<CacheDefaults> = {
  discover: { ttlMs: 300_000, cacheScope: 'private' },
  lists: { ttlMs: 60_000, cacheScope: 'private' },
  read: { ttlMs: 0, cacheScope: 'private' },
};

/**
 * The hint fields for a result of a method whose row names cache `family` (S26-CACHE-1: the method
 * table says which are cacheable). A handler's own `ttlMs`/`cacheScope` (e.g. a resource
 * registration's `cache` option) win over the defaults.
 */
export function cacheHints(
  family: keyof CacheDefaults,
  result: JsonObject,
  defaults: CacheDefaults = {},
): CacheHint {
  const hint = defaults[family] ?? DEFAULTS[family];
  return {
    ttlMs: typeof result.ttlMs === 'number' ? Math.max(0, Math.floor(result.ttlMs)) : hint.ttlMs,
    cacheScope:
      result.cacheScope === 'public' || result.cacheScope === 'private' ? result.cacheScope : hint.cacheScope,
  };
}

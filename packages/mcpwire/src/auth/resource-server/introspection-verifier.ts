// Verifying opaque access tokens by RFC 7662 introspection: the authorization server says whether a
// token is active and what it stands for; answers are cached by the token's SHA-256 (never the token
// itself) until the token expires or the cache time passes, whichever is first.

import type { FetchLike } from '../fetch-like.ts';
import {
  TokenRefusedError,
  toVerifiedToken,
  type TokenVerifier,
  type VerifiedToken,
} from './token-verifier.ts';

/** How tokens are introspected. */
export interface IntrospectionOptions {
  /** The introspection endpoint (the authorization server metadata's `introspection_endpoint`). */
  endpoint: string | URL;
  /** This resource server's credentials at the endpoint (HTTP Basic, RFC 7662 §2.1). */
  clientId: string;
  clientSecret: string;
  /** The `aud` an active token must name (one of these, exact strings): this server's canonical URI. */
  audience: string | readonly string[];
  /** The `iss` an answer must carry when it has one; default any. */
  issuer?: string;
  /** How long an active answer is reused (ms); default 60 s, never past the token's `exp`. */
  cacheMs?: number;
  /** Cached answers at most (the oldest go first); default 10,000. */
  maxCacheEntries?: number;
  /** Seconds of clock skew allowed on exp and nbf; default 30. */
  clockToleranceSeconds?: number;
  fetch?: FetchLike;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

/**
 * A verifier asking `endpoint` about each token not in its cache. An inactive token, one for another
 * audience or issuer, or one outside exp/nbf is refused (TokenRefusedError); an endpoint that cannot be
 * reached or answers other than 200 JSON is the verifier's own failure (a plain Error). Concurrent
 * checks of one token share one request.
 */
export function createIntrospectionVerifier(options: IntrospectionOptions): TokenVerifier {
  const cache = new Map<string, { token: Promise<VerifiedToken>; until: number }>();
  const now = options.now ?? Date.now;
  const cacheMs = options.cacheMs ?? 60_000;
  const maxEntries = options.maxCacheEntries ?? 10_000;
  const skewMs = (options.clockToleranceSeconds ?? 30) * 1000;
  const audiences = typeof options.audience === 'string' ? [options.audience] : options.audience;
  const check = (claims: Record<string, unknown>): VerifiedToken => {
    if (claims.active !== true) throw new TokenRefusedError('The access token is not active');
    const aud = typeof claims.aud === 'string' ? [claims.aud] : Array.isArray(claims.aud) ? claims.aud : [];
    if (!aud.some((value) => audiences.includes(value as string)))
      throw new TokenRefusedError(
        `The access token was not issued for this resource (${audiences.join(', ')})`,
      );
    if (options.issuer !== undefined && claims.iss !== undefined && claims.iss !== options.issuer)
      throw new TokenRefusedError(`The access token was not issued by ${options.issuer}`);
    const at = now();
    if (typeof claims.exp === 'number' && claims.exp * 1000 + skewMs <= at)
      throw new TokenRefusedError('The access token has expired');
    if (typeof claims.nbf === 'number' && claims.nbf * 1000 - skewMs > at)
      throw new TokenRefusedError('The access token is not valid yet');
    return toVerifiedToken(claims);
  };
  return {
    async verify(token: string): Promise<VerifiedToken> {
      const key = await digestOf(token);
      const at = now();
      const cached = cache.get(key);
      if (cached !== undefined && cached.until > at) return check(await claimsOf(cached.token));
      cache.delete(key);
      const pending = introspect(token, options).then(check);
      cache.set(key, { token: pending, until: at + cacheMs });
      if (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      try {
        const verified = await pending;
        const until = Math.min(at + cacheMs, (verified.expiresAt ?? Infinity) * 1000);
        cache.set(key, { token: pending, until });
        return verified;
      } catch (error) {
        cache.delete(key); // Only active answers are kept: a refused or failed check is asked again.
        throw error;
      }
    },
  };
}

/** A cached answer re-checked against the clock (it may have expired since). */
async function claimsOf(token: Promise<VerifiedToken>): Promise<Record<string, unknown>> {
  return { ...(await token).claims };
}

async function introspect(token: string, options: IntrospectionOptions): Promise<Record<string, unknown>> {
  const credentials = btoa(
    `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
  );
  const request = new Request(options.endpoint, {
    method: 'POST',
    headers: {
      authorization: `Basic ${credentials}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
  });
  const response = await (options.fetch ?? fetch)(request);
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(
      `Token introspection at ${String(options.endpoint)} answered ${response.status}, expected 200`,
    );
  }
  const body: unknown = await response.json();
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new Error(`Token introspection at ${String(options.endpoint)} did not answer a JSON object`);
  return body as Record<string, unknown>;
}

/** The cache key: SHA-256 of the token, hex (the token itself is kept nowhere). */
async function digestOf(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

// Checking a DPoP proof presented with a DPoP-bound access token (RFC 9449 §4.3, §7): its signature by
// the key in its header, `htm`/`htu` naming this request, `iat` within the allowed window, a `jti` not
// seen before (a replay cache), `ath` the hash of the token, and the key the one the token is bound to.

import { calculateJwkThumbprint, EmbeddedJWK, jwtVerify, type JWK } from 'jose';
import { ASYMMETRIC_ALGORITHMS } from './jwt-verifier.ts';

/** How proofs are checked. */
export interface DpopProofOptions {
  /** Accepted proof algorithms (asymmetric only); default every asymmetric one. */
  algorithms?: readonly string[];
  /** How far `iat` may be from now, either way (s); default 300 (S26-XAUTH-3: ±5 minutes). */
  proofWindowSeconds?: number;
}

/** A proof that does not hold (401 `invalid_dpop_proof`). The message is safe to log and to send. */
export class DpopProofError extends Error {
  readonly code = 'DPOP_PROOF_INVALID';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DpopProofError';
  }
}

/** What one proof must match. */
export interface ProofContext {
  /** The request's method and URL (query and fragment are ignored, RFC 9449 §4.3 item 9). */
  method: string;
  url: string;
  /** URLs the proof's `htu` may also name: the public URL behind a proxy. */
  alternativeUrls?: readonly string[];
  accessToken: string;
  /** The token's `cnf.jkt`. */
  boundKeyThumbprint: string;
  nowMs: number;
}

/**
 * Remembers proofs' `jti`s for the window, so each proof is accepted once. Bounded: the oldest entries
 * go first past `maxEntries` (a flood of fresh proofs costs memory, not correctness, within the bound).
 */
export class DpopReplayCache {
  readonly #seen = new Map<string, number>();
  readonly #maxEntries: number;

  constructor(maxEntries = 100_000) {
    this.#maxEntries = maxEntries;
  }

  /** True the first time `jti` is seen before `expiresAtMs`; false for a replay. */
  remember(jti: string, expiresAtMs: number, nowMs: number): boolean {
    for (const [key, until] of this.#seen) {
      if (until > nowMs) break; // Insertion order is roughly expiry order: stop at the first live one.
      this.#seen.delete(key);
    }
    if (this.#seen.has(jti)) return false;
    this.#seen.set(jti, expiresAtMs);
    if (this.#seen.size > this.#maxEntries) this.#seen.delete(this.#seen.keys().next().value!);
    return true;
  }
}

/** Checks `proof` (the `DPoP` header) against `context`; throws DpopProofError when it does not hold. */
export async function verifyDpopProof(
  proof: string,
  context: ProofContext,
  options: DpopProofOptions & { replay: DpopReplayCache },
): Promise<void> {
  const windowSeconds = options.proofWindowSeconds ?? 300;
  let payload: Record<string, unknown>;
  let jwk: JWK;
  try {
    const verified = await jwtVerify(proof, EmbeddedJWK, {
      typ: 'dpop+jwt',
      algorithms: [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)],
      currentDate: new Date(context.nowMs),
    });
    payload = verified.payload;
    jwk = verified.protectedHeader.jwk!;
  } catch (error) {
    throw new DpopProofError('The DPoP proof is not a valid dpop+jwt signed by the key in its header', {
      cause: error,
    });
  }
  if (payload.htm !== context.method)
    throw new DpopProofError(`The DPoP proof's htm is not ${context.method}`);
  const htu = typeof payload.htu === 'string' ? withoutQuery(payload.htu) : undefined;
  const urls = [context.url, ...(context.alternativeUrls ?? [])].map(withoutQuery);
  if (htu === undefined || !urls.includes(htu))
    throw new DpopProofError("The DPoP proof's htu is not this URL");
  const iat = payload.iat;
  if (typeof iat !== 'number' || Math.abs(iat * 1000 - context.nowMs) > windowSeconds * 1000)
    throw new DpopProofError(`The DPoP proof's iat is not within ${windowSeconds} s of now`);
  if (payload.ath !== (await hashOf(context.accessToken)))
    throw new DpopProofError("The DPoP proof's ath is not the hash of the access token");
  if ((await calculateJwkThumbprint(jwk, 'sha256')) !== context.boundKeyThumbprint)
    throw new DpopProofError('The DPoP proof is signed by another key than the one the token is bound to');
  if (typeof payload.jti !== 'string' || payload.jti === '')
    throw new DpopProofError('The DPoP proof has no jti');
  const until = (iat + windowSeconds) * 1000;
  if (!options.replay.remember(payload.jti, until, context.nowMs))
    throw new DpopProofError('The DPoP proof was used before (jti replay)');
}

/** Scheme, host and path, compared as URLs (RFC 9449 §4.3: no query, no fragment; normalised). */
function withoutQuery(value: string): string {
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`;
  } catch {
    return value;
  }
}

/** `ath`: base64url of the SHA-256 of the token's ASCII (RFC 9449 §4.2). */
async function hashOf(token: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return btoa(String.fromCharCode(...digest))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/={1,2}$/, '');
}

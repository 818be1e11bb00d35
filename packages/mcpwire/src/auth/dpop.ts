// DPoP proofs (RFC 9449): one key pair per OAuth client, a fresh signed proof per HTTP request (token
// requests and resource requests), and the nonces servers hand out, kept per origin (RFC 9449 §8, §9).

import {
  base64url,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import { createRandomToken } from './pkce.ts';

/** A WebCrypto key pair (what `crypto.subtle.generateKey` and jose's `generateKeyPair` give). */
export interface DpopKeyPair {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

/** The DPoP choice of `createOAuthFetch`: present (even `{}`) means tokens are requested DPoP-bound. */
export interface DpopOptions {
  /** The proof key; default a new non-extractable pair generated on first use. */
  key?: DpopKeyPair;
  /** The JWS algorithm of `key` (ES256, EdDSA, RS256, PS256, ...); default ES256. */
  alg?: string;
}

/** What one proof is for (RFC 9449 §4.2). */
export interface ProofTarget {
  /** The HTTP method, as sent. */
  method: string;
  /** The request URL; its query and fragment are left out of `htu`. */
  url: string | URL;
  /** The access token the request carries: its hash becomes `ath` (resource requests, §4.2). */
  accessToken?: string;
}

/**
 * Creates DPoP proofs with one key; the constructor throws TypeError for `none` or an HMAC `alg`. Concurrency: proofs may be created in parallel; the key pair is
 * generated once. Nonces: `handleResponse` keeps the `DPoP-Nonce` a server sent, and the next proof to
 * that origin carries it.
 */
export class DpopProver {
  readonly alg: string;
  readonly #now: () => number;
  readonly #nonces = new Map<string, string>();
  #key: Promise<{ pair: DpopKeyPair; jwk: JWK; thumbprint: string }> | undefined;
  readonly #given: DpopKeyPair | undefined;

  constructor(options: DpopOptions, now: () => number) {
    this.alg = options.alg ?? 'ES256';
    // RFC 9449 §4.2: a proof is signed with an asymmetric algorithm, never `none` or a MAC.
    if (this.alg === 'none' || this.alg.startsWith('HS'))
      throw new TypeError(
        `DPoP needs an asymmetric algorithm (ES256, EdDSA, RS256, PS256, ...), not ${this.alg}`,
      );
    this.#given = options.key;
    this.#now = now;
  }

  /** The JWK SHA-256 thumbprint of the public key (RFC 7638), as a token's `cnf.jkt` names it. */
  async thumbprint(): Promise<string> {
    return (await this.#keyPair()).thumbprint;
  }

  /** A signed `dpop+jwt` for `target`, with a new `jti`, `iat` now, and the origin's nonce if one is known. */
  async createProof(target: ProofTarget): Promise<string> {
    const { pair, jwk } = await this.#keyPair();
    const url = new URL(target.url);
    const htu = `${url.origin}${url.pathname}`;
    const claims: Record<string, unknown> = { htm: target.method.toUpperCase(), htu };
    const nonce = this.#nonces.get(url.origin);
    if (nonce !== undefined) claims.nonce = nonce;
    if (target.accessToken !== undefined) claims.ath = await hashToken(target.accessToken);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: this.alg, typ: 'dpop+jwt', jwk })
      .setIssuedAt(Math.floor(this.#now() / 1000))
      .setJti(createRandomToken(16))
      .sign(pair.privateKey);
  }

  /**
   * Keeps the `DPoP-Nonce` of `response` (from the server at `url`) for the next proofs there. True when
   * the response carried a nonce different from the one the proof had: a retry can then succeed.
   */
  handleResponse(url: string | URL, response: Response): boolean {
    const nonce = response.headers.get('dpop-nonce');
    if (nonce === null || nonce === '') return false;
    const origin = new URL(url).origin;
    const isNew = this.#nonces.get(origin) !== nonce;
    this.#nonces.set(origin, nonce);
    return isNew;
  }

  #keyPair(): Promise<{ pair: DpopKeyPair; jwk: JWK; thumbprint: string }> {
    this.#key ??= (async () => {
      const pair = this.#given ?? (await generateKeyPair(this.alg, { extractable: false }));
      const { kty, crv, x, y, n, e } = await exportJWK(pair.publicKey);
      // The public members only (RFC 9449 §4.2: the jwk header must not hold a private key).
      const jwk = Object.fromEntries(
        Object.entries({ kty, crv, x, y, n, e }).filter(([, value]) => value !== undefined),
      ) as JWK;
      return { pair, jwk, thumbprint: await calculateJwkThumbprint(jwk, 'sha256') };
    })();
    return this.#key;
  }
}

/** `ath`: BASE64URL(SHA-256(ASCII(access token))) (RFC 9449 §4.2). */
async function hashToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token));
  return base64url.encode(new Uint8Array(digest));
}

// What a bearer-token verifier is (JWT against a JWKS, RFC 7662 introspection, or one's own), the
// error it throws for a token it refuses, and the claim readings both built-in verifiers share.

import type { Principal } from '../../protocol/principal.ts';

/** A verified access token: the principal it stands for and, for DPoP-bound tokens, the key thumbprint. */
export interface VerifiedToken extends Principal {
  readonly scopes: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
  /** `cnf.jkt` (RFC 9449 §6): the token may only be used with DPoP proofs signed by this key. */
  readonly boundKeyThumbprint?: string;
}

/**
 * Checks one access token and returns what it stands for, or throws TokenRefusedError (an invalid,
 * expired, foreign-audience or inactive token). May be called concurrently. Any other error is a
 * failure of the verifier itself (JWKS or introspection endpoint down), answered 503, not 401.
 */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken>;
}

/**
 * The token is not acceptable (401 `invalid_token`, AUTH-22). The message says why in words safe
 * to log and to send as `error_description`: it never contains the token.
 */
export class TokenRefusedError extends Error {
  readonly code = 'TOKEN_REFUSED';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TokenRefusedError';
  }
}

/** The granted scopes: `scope` (a space-separated string, RFC 8693 §4.2) or `scp` (a string or an array). */
export function scopesOf(claims: Readonly<Record<string, unknown>>): string[] {
  const value = claims.scope ?? claims.scp;
  if (typeof value === 'string') return value.split(' ').filter((scope) => scope !== '');
  if (Array.isArray(value)) return value.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/**
 * The principal of verified claims. Its binding key is the issuer, subject and client together, so a
 * session opened by one user through one client is found by no other pair (SEC-7).
 */
export function toVerifiedToken(claims: Readonly<Record<string, unknown>>): VerifiedToken {
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  const subject = text(claims.sub);
  const clientId = text(claims.client_id) ?? text(claims.azp);
  const cnf = claims.cnf as { jkt?: unknown } | undefined;
  const jkt = typeof cnf === 'object' && cnf !== null ? text(cnf.jkt) : undefined;
  return {
    principal: JSON.stringify([text(claims.iss) ?? '', subject ?? '', clientId ?? '']),
    ...(subject === undefined ? {} : { subject }),
    ...(clientId === undefined ? {} : { clientId }),
    scopes: scopesOf(claims),
    ...(typeof claims.exp === 'number' ? { expiresAt: claims.exp } : {}),
    claims,
    ...(jkt === undefined ? {} : { boundKeyThumbprint: jkt }),
  };
}

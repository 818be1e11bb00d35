// Verifying JWT access tokens (RFC 9068) against the authorization server's JWKS: the `typ` header
// (`at+jwt`), signature, issuer, audience (this resource, RFC 8707), exp/nbf with a small clock skew. jose fetches and caches the key
// set and refetches it when a token names a key it has not seen (rotation).

import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import {
  TokenRefusedError,
  toVerifiedToken,
  type TokenVerifier,
  type VerifiedToken,
} from './token-verifier.ts';

/** Asymmetric algorithms only: a JWKS publishes public keys, and `none` or HMAC must never pass. */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** How JWT access tokens are checked. */
export interface JwtVerifierOptions {
  /** The `iss` every token must carry, exactly. */
  issuer: string;
  /** The `aud` a token must name (one of these, exact strings): this server's canonical URI. */
  audience: string | readonly string[];
  /** The authorization server's key set URL (its metadata's `jwks_uri`). */
  jwksUri: string | URL;
  /** Seconds of clock skew allowed on exp, nbf and iat; default 30. */
  clockToleranceSeconds?: number;
  /** Accepted signature algorithms; default every asymmetric one. */
  algorithms?: readonly string[];
  /** How long a fetched key set is used before it is fetched again (ms); default 10 minutes. */
  jwksCacheMs?: number;
  /** The least time between two key set fetches (ms), so unknown `kid`s cannot flood it; default 30 s. */
  jwksCooldownMs?: number;
  /**
   * The `typ` header values accepted (RFC 9068 §4; compared case-insensitively, an `application/`
   * prefix ignored); default `['at+jwt']`, so an ID token or another JWT signed by the same key is
   * refused. `'any'` skips the check, for an authorization server that does not set `typ`.
   */
  acceptedTypes?: readonly string[] | 'any';
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

/** RFC 9068 §2.1: the media type of a JWT access token, as its `typ` header names it. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';

/**
 * A verifier of JWT access tokens signed by a key of `jwksUri`. A token fails (TokenRefusedError)
 * when its signature, issuer or audience is wrong, when it has expired or is not yet valid, or when
 * it has no `exp`; a key set that cannot be fetched is the verifier's own failure (a plain Error).
 */
export function createJwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  const keys: JWTVerifyGetKey = createRemoteJWKSet(new URL(options.jwksUri), {
    cacheMaxAge: options.jwksCacheMs ?? 10 * 60_000,
    cooldownDuration: options.jwksCooldownMs ?? 30_000,
  });
  const now = options.now ?? Date.now;
  const verifyOptions = {
    issuer: options.issuer,
    audience: typeof options.audience === 'string' ? options.audience : [...options.audience],
    clockTolerance: options.clockToleranceSeconds ?? 30,
    algorithms: [...(options.algorithms ?? ASYMMETRIC_ALGORITHMS)],
    requiredClaims: ['exp'],
  };
  const types = options.acceptedTypes ?? [ACCESS_TOKEN_TYPE];
  const accepted = types === 'any' ? undefined : new Set(types.map(normalizeType));
  return {
    async verify(token: string): Promise<VerifiedToken> {
      let verified;
      try {
        verified = await jwtVerify(token, keys, { ...verifyOptions, currentDate: new Date(now()) });
      } catch (error) {
        throw refusalOf(error);
      }
      const { typ } = verified.protectedHeader;
      if (accepted !== undefined && !(typeof typ === 'string' && accepted.has(normalizeType(typ))))
        throw new TokenRefusedError(
          `The token is not an access token: its "typ" header is ${typ === undefined ? 'missing' : JSON.stringify(typ)}, expected "${[...accepted].join('" or "')}" (RFC 9068)`,
        );
      return toVerifiedToken(verified.payload);
    },
  };
}

/** RFC 7515 §4.1.9: media type names are case-insensitive, and `application/` may be left out. */
function normalizeType(typ: string): string {
  const lower = typ.toLowerCase();
  return lower.startsWith('application/') ? lower.slice('application/'.length) : lower;
}

/**
 * jose's verdict on the token as a refusal. A key set that cannot be fetched or parsed (a timeout,
 * a non-200 answer, bad JSON) is the verifier's own failure and stays what it is.
 */
function refusalOf(error: unknown): Error {
  if (!(error instanceof errors.JOSEError)) return error instanceof Error ? error : new Error(String(error));
  if (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    error.code === errors.JOSEError.code
  ) {
    return error;
  }
  if (error instanceof errors.JWTExpired) {
    return new TokenRefusedError('The access token has expired', { cause: error });
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    const reason = `"${error.claim}" ${error.reason.replaceAll('_', ' ')}`;
    return new TokenRefusedError(`The access token's claim is not acceptable: ${reason}`, { cause: error });
  }
  return new TokenRefusedError(`The access token is not valid (${error.code})`, { cause: error });
}

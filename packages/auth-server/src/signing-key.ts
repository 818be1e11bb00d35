// The server's ES256 signing key (jose): made at first start and kept in the store (so a SQLite
// store keeps it across restarts), published as a JWKS (RFC 7517) whose `kid` is the key's RFC 7638
// thumbprint, and used to sign access tokens and ID tokens.

import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { AuthorizationStore } from './authorization-store.ts';

/** A signing key and its public half as published. */
export interface SigningKey {
  kid: string;
  /** The JWKS document served at `jwks_uri`. */
  jwks: { keys: JWK[] };
  /** Signs `claims` as a JWT with this key, `typ` in the protected header (e.g. `at+jwt`, RFC 9068). */
  sign(claims: JWTPayload, typ: string): Promise<string>;
}

/** The key `store` holds, or a new ES256 key pair saved to it; the private key is never published. */
export async function createSigningKey(store: AuthorizationStore): Promise<SigningKey> {
  let privateJwk = store.getSigningKey();
  if (privateJwk === undefined) {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    store.putSigningKey(await exportJWK(privateKey));
    // Read back: a process sharing the store may have saved its key first, and that one is kept.
    privateJwk = store.getSigningKey()!;
  }
  const { kty, crv, x, y } = privateJwk;
  const publicJwk: JWK = { kty, crv, x, y } as JWK;
  const kid = await calculateJwkThumbprint(publicJwk);
  const privateKey = await importJWK(privateJwk, 'ES256');
  const jwk: JWK = { ...publicJwk, kid, alg: 'ES256', use: 'sig' };
  return {
    kid,
    jwks: { keys: [jwk] },
    sign: (claims, typ) =>
      new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid, typ }).sign(privateKey),
  };
}

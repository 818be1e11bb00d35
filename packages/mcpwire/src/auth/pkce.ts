// PKCE (RFC 7636) with S256, and the random `state`, on WebCrypto only.

/** A PKCE pair: the verifier kept for the token request, the challenge sent in the authorization request. */
export interface Pkce {
  verifier: string;
  challenge: string;
}

/** A fresh random value of `bytes` bytes, base64url without padding (43 characters for 32 bytes). */
export function createRandomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A new verifier (256 bits of randomness) and its S256 challenge, BASE64URL(SHA-256(verifier)). */
export async function createPkce(): Promise<Pkce> {
  const verifier = createRandomToken();
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return { verifier, challenge: toBase64Url(new Uint8Array(digest)) };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

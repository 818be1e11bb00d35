// The digest of a skill file (S26-SKILL-3): `sha256:` and 64 lowercase hex digits of its raw bytes.

/** `sha256:<hex>` of `bytes` (Web Crypto: any runtime). */
export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The UTF-8 bytes of a text file, or the bytes as given. */
export function toBytes(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? new TextEncoder().encode(content) : content;
}

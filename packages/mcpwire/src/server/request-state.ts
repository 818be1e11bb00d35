// Integrity-protected `requestState` for multi-round-trip requests (S26-MRTR-4): an HMAC-SHA-256
// over the payload, bound to the method, the request's key params and an expiry.

import { ErrorCode, RpcError } from '../jsonrpc/rpc-error.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { toCanonicalJson } from '../validation/canonical-json.ts';

/** What a sealed state carries between rounds. */
export interface StatePayload {
  /** The method and a digest of its identifying params: state from another request is refused. */
  binding: string;
  /** Answers gathered in earlier rounds, by input key. */
  answers: JsonObject;
  /**
   * The keys of the input requests the round that sealed it issued: the next round accepts
   * `inputResponses` for these keys only (absent: none).
   */
  asked?: string[];
  /** What the handler carries to the next round (`RequestContext.carryAcrossRounds`). */
  carried?: string;
  /** Expiry, milliseconds since the epoch. */
  exp: number;
}

/** A signing key: the first of `keys` signs, every one verifies (rotation). */
export interface RequestStateKeys {
  keys: ReadonlyArray<string | Uint8Array>;
  /** How long a state stays valid; default 10 minutes. */
  ttlMs?: number;
}

type HmacKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

const encoder = new TextEncoder();

/**
 * Seals and opens request states. The token is `base64url(payload).base64url(mac)`; opening
 * compares the MAC over the exact received bytes, so any change, including an appended suffix,
 * fails (a -32602 error, never a re-prompt). Keys are imported (and a random key made) on the first
 * seal or open, never at construction: restricted runtimes (Cloudflare Workers) forbid random values
 * and crypto work at module scope, where a `Server` is usually built.
 */
export class RequestStateSealer {
  #material: () => ReadonlyArray<Uint8Array>;
  #keys: Promise<HmacKey[]> | undefined;
  readonly ttlMs: number;

  constructor(options: RequestStateKeys) {
    if (options.keys.length === 0) throw new TypeError('RequestStateSealer needs at least one key');
    const raw = options.keys.map((key) => (typeof key === 'string' ? encoder.encode(key) : key));
    if (raw.some((key) => key.length < 16)) throw new TypeError('A requestState key needs at least 16 bytes');
    this.ttlMs = options.ttlMs ?? 600_000;
    this.#material = () => raw;
  }

  /** A sealer with a random key, for a single process (stdio); the key is drawn on first use. */
  static random(): RequestStateSealer {
    const sealer = new RequestStateSealer({ keys: [PLACEHOLDER_KEY] });
    // Called once: the imported keys are kept.
    sealer.#material = () => [crypto.getRandomValues(new Uint8Array(32))];
    return sealer;
  }

  /** The HMAC keys, imported on first call; every later call gets the same promise. */
  #importedKeys(): Promise<HmacKey[]> {
    return (this.#keys ??= Promise.all(this.#material().map((key) => importKey(key))));
  }

  /** Seals answers for the next round of `binding`. */
  async seal(
    binding: string,
    answers: JsonObject,
    asked?: readonly string[],
    carried?: string,
  ): Promise<string> {
    const payload: StatePayload = { binding, answers, exp: Date.now() + this.ttlMs };
    if (asked !== undefined) payload.asked = [...asked];
    if (carried !== undefined) payload.carried = carried;
    // The answers are the client's: serialized without recursion, since they may nest 100,000 deep (issue 21).
    const body = toBase64Url(encoder.encode(toCanonicalJson(payload)));
    const [signer] = await this.#importedKeys();
    const mac = new Uint8Array(await crypto.subtle.sign('HMAC', signer!, encoder.encode(body)));
    return `${body}.${toBase64Url(mac)}`;
  }

  /** Opens a state echoed by the client for `binding`; throws RpcError -32602 if it does not verify. */
  async open(binding: string, token: unknown): Promise<StatePayload> {
    if (typeof token !== 'string' || token.length > 1_000_000)
      throw invalidState('it is not a string we issued');
    const dot = token.indexOf('.');
    const body = token.slice(0, dot);
    const mac = dot > 0 ? fromBase64Url(token.slice(dot + 1)) : undefined;
    if (!mac || mac.length !== 32 || !/^[A-Za-z0-9_-]+$/.test(body)) throw invalidState('it is malformed');
    let isVerified = false;
    for (const key of await this.#importedKeys()) {
      if (await crypto.subtle.verify('HMAC', key, mac, encoder.encode(body))) isVerified = true;
    }
    if (!isVerified) throw invalidState('its integrity check failed');
    const payload = JSON.parse(new TextDecoder().decode(fromBase64Url(body))) as StatePayload;
    if (payload.binding !== binding) throw invalidState('it belongs to another request');
    if (!(payload.exp > Date.now())) throw invalidState('it has expired');
    return payload;
  }
}

function invalidState(why: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: requestState rejected because ${why}`);
}

// Stands in for the random key until `random()`'s first use draws it; never used to sign.
const PLACEHOLDER_KEY = new Uint8Array(32);

function importKey(raw: Uint8Array): Promise<HmacKey> {
  return crypto.subtle.importKey(
    'raw',
    raw as Uint8Array<ArrayBuffer>,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replaceAll('=', '');
}

/** The bytes of canonical unpadded base64url text; undefined for anything else. */
function fromBase64Url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  let bytes: Uint8Array;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
  // `atob` ignores the unused low bits of the last character: several texts give these bytes, and
  // only the one we write is ours (a MAC with those bits changed must not verify).
  return toBase64Url(bytes) === text ? bytes : undefined;
}

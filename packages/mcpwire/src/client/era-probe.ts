// Finding out which era a server speaks (2026-07-28 checklist section 3.2): probe with
// `server/discover`, classify the outcome, and remember the verdict per server configuration.

import { RequestTimeoutError } from '../jsonrpc/errors.ts';
import type { JsonObject } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { STATELESS_VERSIONS } from '../protocol/revisions.ts';
import { StatelessErrorCode } from '../protocol/types/index.ts';

/** The probe's verdict. `stateless` carries the discover result; `handshake` says why. */
export type EraVerdict =
  | { era: 'stateless'; version: string; discover: JsonObject }
  | {
      era: 'handshake';
      reason: 'error' | 'silence' | 'handshake-only-versions' | 'no-mutual-version';
      detail: string;
    };

/** Sends one `server/discover` at `version`; resolves with the result or rejects as the request did. */
export type DiscoverCall = (version: string) => Promise<JsonObject>;

/**
 * Classifies a server from its answers to `server/discover`. Never keyed to one error code: any
 * error other than -32022 means a handshake-era server, a transport's refusal of the request
 * (`isRefusal`, see `Channel.send`) too, and so does silence (a timeout; whether
 * silence may stand as a verdict is the caller's choice). -32022 with a mutual stateless version
 * is retried once at that version; with only handshake-era versions the server is dual-era but
 * refuses the stateless side. A closed connection, a cancellation or a network failure is no
 * verdict: it rejects with that error, since nothing was learned about the server.
 */
export async function probeEra(
  discover: DiscoverCall,
  preferred: string = STATELESS_VERSIONS[0],
): Promise<EraVerdict> {
  let version = preferred;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const result = await discover(version);
      return classifyDiscover(result, version);
    } catch (error) {
      if (error instanceof RequestTimeoutError)
        return { era: 'handshake', reason: 'silence', detail: error.message };
      // The transport's refusal (`Channel.send`; over HTTP a 400, 404 or 405 without a JSON-RPC
      // answer, 2026 checklist section 3.3) means a handshake-era server, like an error response.
      if (isRefusal(error)) return { era: 'handshake', reason: 'error', detail: refusalDetail(error) };
      if (!(error instanceof RpcError)) throw error;
      if (error.code !== StatelessErrorCode.UnsupportedProtocolVersion)
        return { era: 'handshake', reason: 'error', detail: `${error.code} ${error.message}` };
      // A second -32022 after retrying at a version the server named is an error, not a verdict.
      if (attempt === 1) throw error;
      const supported = readSupported(error.data);
      const mutual = supported.find((v) => (STATELESS_VERSIONS as readonly string[]).includes(v));
      if (mutual !== undefined) {
        version = mutual;
        continue;
      }
      if (supported.length > 0 && supported.every((v) => v < '2026-07-28')) {
        return {
          era: 'handshake',
          reason: 'handshake-only-versions',
          detail: `the server offers ${supported.join(', ')}`,
        };
      }
      throw error;
    }
  }
  return { era: 'handshake', reason: 'error', detail: 'no answer' };
}

/** The verdict of a `server/discover` result asked at `version`. */
export function classifyDiscover(result: JsonObject, version: string): EraVerdict {
  const offered = Array.isArray(result.supportedVersions)
    ? (result.supportedVersions as unknown[]).filter((v): v is string => typeof v === 'string')
    : [];
  const mutual = offered.includes(version)
    ? version
    : offered.find((v) => (STATELESS_VERSIONS as readonly string[]).includes(v));
  if (mutual === undefined)
    return {
      era: 'handshake',
      reason: 'no-mutual-version',
      detail: `discover offered ${offered.join(', ') || 'nothing'}`,
    };
  return { era: 'stateless', version: mutual, discover: result };
}

/** The transport contract's refusal: an error with `isRefusal` true (see `Channel.send`). */
function isRefusal(error: unknown): error is Error & { isRefusal: true } {
  return error instanceof Error && (error as { isRefusal?: unknown }).isRefusal === true;
}

/** A refusal in a few words: the transport's message, first line, at most 200 characters. */
function refusalDetail(error: Error): string {
  return `refused: ${error.message.split('\n')[0]!.slice(0, 200)}`;
}

function readSupported(data: unknown): string[] {
  const supported = (data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * What a Transport may offer the era probe beside the contract: `key`, a stable identity of the
 * server configuration it reaches (the stdio command line, the HTTP endpoint), under which verdicts
 * are remembered. A transport without it is probed on every connect (era "auto").
 */
export interface EraKeyed {
  readonly key: string;
}

/** The transport's `EraKeyed.key`, or undefined when it has none (or is no transport). */
export function eraKeyOf(transport: object | undefined): string | undefined {
  const key = (transport as Partial<EraKeyed> | undefined)?.key;
  return typeof key === 'string' ? key : undefined;
}

/** Remembered verdicts, keyed by server configuration (2026 checklist section 3.1). */
export interface EraCache {
  get(key: string): { era: 'stateless' | 'handshake'; version?: string } | undefined;
  set(key: string, verdict: { era: 'stateless' | 'handshake'; version?: string }): void;
}

/**
 * An in-memory cache. A stale handshake-era verdict would "succeed" forever against an upgraded
 * dual-era server, so handshake-era verdicts expire (default 10 minutes); stateless-era ones fail loudly when
 * stale and are kept for the life of the process.
 */
export function createEraCache(options: { handshakeTtlMs?: number; now?: () => number } = {}): EraCache {
  const entries = new Map<string, { era: 'stateless' | 'handshake'; version?: string; expires: number }>();
  const ttl = options.handshakeTtlMs ?? 600_000;
  const now = options.now ?? Date.now;
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expires <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.version === undefined ? { era: entry.era } : { era: entry.era, version: entry.version };
    },
    set(key, verdict) {
      entries.set(key, { ...verdict, expires: verdict.era === 'handshake' ? now() + ttl : Infinity });
    },
  };
}

/** The process-wide default cache. */
export const defaultEraCache: EraCache = createEraCache();

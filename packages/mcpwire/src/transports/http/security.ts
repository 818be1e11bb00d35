// The handler's first gate: Host validation against DNS rebinding, Origin validation (HTTP-2,
// S26-HTTP-2), and the CORS headers a browser client needs (section 2.11, checklist section 5 item 15).

import { emptyReply, type HeaderReader, type HttpReply } from './exchange.ts';

/** The hostnames of this machine's loopback interface: the defaults for hosts and origins. */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** What the security gate allows. */
export interface SecurityPolicy {
  /** `*`, or hostnames (any port) and `host:port` pairs; default the loopback hostnames. */
  allowedHosts: readonly string[];
  /** `*`, or exact origins (`https://app.example`) allowed besides loopback ones. */
  allowedOrigins: readonly string[];
}

/**
 * True if the request's Host (or, without one, its URL's host) is allowed. A local server that
 * answers any Host can be reached from a web page through DNS rebinding (GHSA-w48q-cv73-mx4w).
 */
export function isHostAllowed(host: string, policy: SecurityPolicy): boolean {
  if (policy.allowedHosts.includes('*')) return true;
  // The last decision first: a string comparison, where a Map lookup hashes the fresh Host string.
  if (host === lastHost.host && policy === lastHost.policy) return lastHost.isAllowed;
  // Parsing an authority costs a URL per request; a client sends the same Host every time.
  let known = hostDecisions.get(policy);
  if (!known) hostDecisions.set(policy, (known = new Map()));
  const cached = known.get(host);
  if (cached !== undefined) return cached;
  const parsed = parseAuthority(host);
  const isAllowed =
    parsed !== undefined &&
    policy.allowedHosts.some((entry) => {
      const allowed = entry.toLowerCase();
      return allowed === parsed.hostname || allowed === parsed.host;
    });
  // Bounded: a stream of made-up Host values only ever evicts the cache, never grows it.
  if (known.size >= 64) known.clear();
  known.set(host, isAllowed);
  lastHost = { host, policy, isAllowed };
  return isAllowed;
}

/** The last Host decided, and for which policy (the same decision the Map below keeps). */
let lastHost: { host: string; policy: SecurityPolicy | undefined; isAllowed: boolean } = {
  host: '',
  policy: undefined,
  isAllowed: false,
};

const hostDecisions = new WeakMap<SecurityPolicy, Map<string, boolean>>();

/**
 * True if the request may proceed as far as Origin goes: no Origin (not a browser), a loopback
 * origin, or a configured one. `null` origins (sandboxed frames, files) are refused.
 */
export function isOriginAllowed(origin: string | null, policy: SecurityPolicy): boolean {
  if (origin === null) return true;
  if (policy.allowedOrigins.includes('*')) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (LOOPBACK_HOSTNAMES.includes(url.hostname)) return true;
  return policy.allowedOrigins.some((entry) => normalizeOrigin(entry) === url.origin);
}

/** Headers clients may send cross-origin; `Mcp-Param-*` headers are allowed by echoing the preflight. */
const ALLOWED_HEADERS =
  'Content-Type, Accept, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID';

/** The CORS headers of an actual response to an allowed browser origin (none without an Origin). */
export function corsHeaders(origin: string | null): Record<string, string> {
  if (origin === null) return {};
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Expose-Headers': 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate',
    Vary: 'Origin',
  };
}

/**
 * The answer to a CORS preflight from an allowed origin: the methods the endpoint has, and the
 * headers asked for (which covers any `Mcp-Param-<Name>`), else the standard MCP ones.
 */
export function preflightResponse(headers: HeaderReader, origin: string | null): HttpReply {
  const asked = headers.get('access-control-request-headers');
  return emptyReply(204, {
    ...corsHeaders(origin),
    'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': asked !== null && asked.trim() !== '' ? asked : ALLOWED_HEADERS,
    'Access-Control-Max-Age': '600',
    Vary: 'Origin, Access-Control-Request-Headers',
  });
}

function parseAuthority(host: string): { host: string; hostname: string } | undefined {
  try {
    const url = new URL(`http://${host}`);
    if (url.username !== '' || url.pathname !== '/' || url.search !== '') return undefined;
    return { host: url.host, hostname: url.hostname };
  } catch {
    return undefined;
  }
}

function normalizeOrigin(entry: string): string {
  try {
    return new URL(entry).origin;
  } catch {
    return entry;
  }
}

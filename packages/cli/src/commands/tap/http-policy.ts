// What the HTTP tap lets through and how: the checks a local server makes (Host against DNS
// rebinding, Origin, a body limit, as mcpwire's own HTTP handler makes them) and the headers a proxy
// must not pass on (hop-by-hop, RFC 9110 section 7.6.1).

import { LOOPBACK_HOSTNAMES } from 'mcpwire/http';

/** The largest request body the tap reads and forwards, as mcpwire's HTTP handler's default. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Headers that belong to one connection, never forwarded (besides those the Connection header names). */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Addresses that mean "every interface": no Host header can name them. */
const WILDCARDS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '[::]']);

/** The Host and Origin checks of a tap listening on `listenHost`. */
export class RequestPolicy {
  readonly #hostnames: ReadonlySet<string>;

  constructor(listenHost: string) {
    const named = listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost;
    this.#hostnames = new Set([...LOOPBACK_HOSTNAMES, ...(WILDCARDS.has(listenHost) ? [] : [named])]);
  }

  /**
   * Why the request must be refused with 403, or undefined: its Host names neither a loopback name
   * nor the listening address (DNS rebinding, GHSA-w48q-cv73-mx4w), or a browser Origin that is not
   * loopback sent it (HTTP-2). A request without Origin is no browser's and passes.
   */
  refusal(host: string | undefined, origin: string | undefined): string | undefined {
    if (host === undefined || !this.#hostnames.has(hostnameOf(host)))
      return `Forbidden: Host ${JSON.stringify(host ?? '')} not allowed`;
    if (origin === undefined) return undefined;
    let hostname: string | undefined;
    try {
      const url = new URL(origin);
      if (url.protocol === 'http:' || url.protocol === 'https:') hostname = url.hostname;
    } catch {
      hostname = undefined;
    }
    return hostname !== undefined && LOOPBACK_HOSTNAMES.includes(hostname)
      ? undefined
      : `Forbidden: Origin ${JSON.stringify(origin)} not allowed`;
  }
}

/**
 * Where a request with target `target` (the request line's) and Host `host` goes: the upstream's
 * origin with the target's path and query, or undefined when the target names anything else. Only
 * origin-form (`/path?query`, not `//host` nor `/\host`, which URL resolution reads as another
 * host) and absolute-form naming the tap itself (`http://<Host>/path`) pass; another origin, `*`
 * and CONNECT's authority-form do not, so the tap is no open proxy for a client's credentials.
 */
export function upstreamTarget(target: string, host: string | undefined, upstream: URL): URL | undefined {
  let pathAndQuery = target;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
    if (!URL.canParse(target) || host === undefined || !URL.canParse(`http://${host}`)) return undefined;
    const absolute = new URL(target);
    if (absolute.protocol !== 'http:' || absolute.host !== new URL(`http://${host}`).host) return undefined;
    pathAndQuery = `${absolute.pathname}${absolute.search}`;
  }
  if (!/^\/(?![/\\])/.test(pathAndQuery)) return undefined;
  const url = new URL(pathAndQuery, upstream.origin);
  return url.origin === upstream.origin ? url : undefined;
}

function hostnameOf(host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}

/**
 * The end-to-end headers of node:http's `rawHeaders` (names and values alternating, repeats kept),
 * without hop-by-hop ones and without `drop` (lower case names).
 */
export function endToEndHeaders(rawHeaders: readonly string[], drop: readonly string[] = []): string[] {
  const named = new Set(drop);
  for (let index = 0; index < rawHeaders.length; index += 2)
    if (rawHeaders[index]!.toLowerCase() === 'connection')
      for (const token of rawHeaders[index + 1]!.split(',')) named.add(token.trim().toLowerCase());
  const out: string[] = [];
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(rawHeaders[index]!, rawHeaders[index + 1]!);
  }
  return out;
}

/** Flat `[name, value, ...]` headers as a transcript records them: lower case names, repeats joined. */
export function toRecordedHeaders(flat: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) {
    const name = flat[index]!.toLowerCase();
    const value = flat[index + 1]!;
    out[name] = out[name] === undefined ? value : `${out[name]}, ${value}`;
  }
  return out;
}

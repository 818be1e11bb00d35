// Which URLs the OAuth client may fetch (SEC-6): metadata and endpoint URLs come from the server, so a
// hostile one could point the client at internal services. HTTPS is required, and `localhost` and every
// special-purpose address (ip-address.ts) are refused, unless the caller opts in; the MCP server's own
// origin, which the caller chose, is always allowed.

import { OAuthError } from './errors.ts';
import { specialRangeOf } from './ip-address.ts';

/** The caller's choices for URLs the server names. */
export interface UrlPolicy {
  /**
   * Allow loopback, private and link-local addresses (and `localhost`), and plain `http` to loopback
   * hosts: for development and tests. Default false.
   */
  allowPrivateNetwork?: boolean;
}

/**
 * Throws OAuthError (step `url-policy`) unless `url` may be fetched. `trustedOrigin` (the MCP server's
 * origin) is always allowed. Only the URL is judged: a public hostname that resolves to a private
 * address passes (no DNS here; the auth layer speaks fetch only; on Node, createAddressCheckedFetch of
 * mcpwire/auth/node checks the address each connection is made to).
 */
export function checkUrl(url: URL, policy: UrlPolicy, trustedOrigin: string): void {
  if (url.origin === trustedOrigin) return;
  const what = `${url.href} (named by the server)`;
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new OAuthError('url-policy', `refused to fetch ${what}: only https URLs are allowed`);
  const isLocal = isPrivateHost(url.hostname);
  if (isLocal && policy.allowPrivateNetwork !== true)
    throw new OAuthError(
      'url-policy',
      `refused to fetch ${what}: it is a loopback or private address; pass allowPrivateNetwork: true to allow it in development`,
    );
  if (url.protocol === 'http:' && !(isLocal && isLoopbackHost(url.hostname)))
    throw new OAuthError(
      'url-policy',
      `refused to fetch ${what}: plain http is allowed only for loopback hosts`,
    );
}

/** True for `localhost` names (trailing dot or not) and loopback literals, IPv4-mapped ones included. */
export function isLoopbackHost(hostname: string): boolean {
  const host = withoutTrailingDots(hostname.toLowerCase());
  return isLocalhostName(host) || specialRangeOf(host)?.isLoopback === true;
}

/**
 * True for `localhost` names and for IP literals in any special-purpose range ({@link specialRangeOf}):
 * loopback, private, shared (100.64.0.0/10), link-local, IPv4-mapped and NAT64 forms of those, and the
 * rest of the IANA registries. A DNS name is judged by its text only: one that resolves to a private
 * address passes here (use createAddressCheckedFetch of mcpwire/auth/node to check at connect time).
 */
export function isPrivateHost(hostname: string): boolean {
  const host = withoutTrailingDots(hostname.toLowerCase());
  return isLocalhostName(host) || specialRangeOf(host) !== undefined;
}

/** RFC 6761 §6.3: `localhost` and every name under it are loopback. */
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** `localhost.` is `localhost`: a fully qualified name ends with a dot. */
function withoutTrailingDots(host: string): string {
  let end = host.length;
  while (end > 0 && host[end - 1] === '.') end--;
  return host.slice(0, end);
}

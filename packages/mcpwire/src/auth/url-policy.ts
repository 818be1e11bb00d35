// Which URLs the OAuth client may fetch (SEC-6): metadata and endpoint URLs come from the server, so a
// hostile one could point the client at internal services. HTTPS is required, and loopback, private and
// link-local addresses are refused, unless the caller opts in; the MCP server's own origin, which the
// caller chose, is always allowed.

import { OAuthError } from './errors.ts';

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
 * address passes (no DNS here; the auth layer speaks fetch only).
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

/** True for `localhost` and loopback literals. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host);
}

/** True for loopback, private (RFC 1918, fc00::/7), link-local and unspecified address literals. */
export function isPrivateHost(hostname: string): boolean {
  if (isLoopbackHost(hostname)) return true;
  const host = hostname.toLowerCase();
  const v4 = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (v4) {
    const a = Number(v4[1]);
    const b = Number(v4[2]);
    return (
      a === 10 ||
      a === 0 ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      (a === 169 && b === 254)
    );
  }
  if (!host.startsWith('[')) return false;
  const v6 = host.slice(1, -1);
  if (v6 === '::') return true;
  const mapped = /^::ffff:(.+)$/.exec(v6);
  if (mapped) return mapped[1]!.includes('.') ? isPrivateHost(mapped[1]!) : true;
  return /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6);
}

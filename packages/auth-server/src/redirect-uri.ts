// Redirect URI rules: what may be registered (AUTH-30: https, or a loopback/localhost http URI, or a
// native app's private-use scheme; no fragment) and how a request's URI matches a registered one
// (AUTH-32 exact match, except the port of a loopback IP literal, RFC 8252 §7.3 / OAuth 2.1 §8.4.2).

const LOOPBACK_IPS = new Set(['127.0.0.1', '[::1]']);
const LOOPBACK_NAMES = new Set([...LOOPBACK_IPS, 'localhost']);

/** Why `uri` cannot be registered as a redirect URI, or undefined when it can. */
export function redirectUriProblem(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `"${uri}" is not an absolute URI`;
  }
  if (url.hash !== '' || uri.includes('#')) return `"${uri}" has a fragment (RFC 6749 §3.1.2)`;
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:')
    return LOOPBACK_NAMES.has(url.hostname)
      ? undefined
      : `"${uri}" uses http on a host that is not loopback; use https or http://127.0.0.1 (AUTH-30)`;
  // A private-use scheme of a native app (RFC 8252 §7.1), e.g. com.example.app:/callback.
  if (/^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && url.protocol.includes('.')) return undefined;
  return `"${uri}" uses the scheme ${url.protocol} (expected https, loopback http, or a reverse-domain private-use scheme)`;
}

/** True if the requested `uri` is one of `registered`, compared exactly but for a loopback IP's port. */
export function isRegisteredRedirectUri(uri: string, registered: readonly string[]): boolean {
  if (registered.includes(uri)) return true;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' || !LOOPBACK_IPS.has(url.hostname)) return false;
  return registered.some((candidate) => withoutPort(candidate) === withoutPort(uri));
}

function withoutPort(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    if (!LOOPBACK_IPS.has(url.hostname)) return undefined;
    // Compare what was written, not a normalised form: only the port may differ.
    const pathStart = uri.indexOf('/', uri.indexOf('//') + 2);
    return `${url.protocol}//${url.hostname}${pathStart < 0 ? '' : uri.slice(pathStart)}`;
  } catch {
    return undefined;
  }
}

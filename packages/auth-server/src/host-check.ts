// Which Host headers the node:http listener answers: a page on any web site can reach a loopback
// server through DNS rebinding (its own name resolving to 127.0.0.1), and only the Host header tells
// such a request apart. The same rule as the MCP HTTP server's (mcpwire/http).

/** The hostnames of this machine's loopback interface, always accepted. */
const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** Addresses that mean "every interface": no Host header can name them. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]', '']);

/**
 * The hostnames (any port) a request may name: loopback ones, `listenHost` unless it is a wildcard,
 * and each of `more` (the issuer's host, configured names). Lower case; IPv6 in brackets.
 */
export function allowedHostnames(listenHost: string, more: readonly string[]): Set<string> {
  const names = new Set(LOOPBACK_HOSTNAMES);
  if (!WILDCARDS.has(listenHost))
    names.add(listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost);
  for (const name of more) names.add(name);
  return new Set([...names].map((name) => name.toLowerCase()));
}

/** True when `host` (a Host header value, `name[:port]`) names one of `allowed`. */
export function isHostAllowed(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (host === undefined) return false;
  try {
    const url = new URL(`http://${host}`);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '') return false;
    return allowed.has(url.hostname);
  } catch {
    return false;
  }
}

// Which client a handshake-era `initialize` comes from, for the per-client session cap (the
// `client-*` modules are the HTTP client, not this): the authenticated principal, else the
// `clientKey` hook's answer, else the peer's address.

import type { HttpRequestView } from './exchange.ts';
import type { HttpHandlerOptions, Principal } from './options.ts';

/** The `clientKey` option: a request's client, or undefined for none (only the global cap applies). */
export type ClientKeyHook = NonNullable<HttpHandlerOptions['clientKey']>;

/**
 * The key `request`'s sessions are counted under. Kinds are prefixed so that a principal never
 * shares a count with an address that spells the same. An IPv6 address counts by its /64, which
 * one host is commonly given whole; an IPv4-mapped IPv6 address counts as its IPv4 address.
 */
export function clientKeyOf(
  request: HttpRequestView,
  principal: Principal | undefined,
  hook: ClientKeyHook | undefined,
): string | undefined {
  if (principal !== undefined) return `principal ${principal.principal}`;
  if (hook !== undefined) {
    const key = hook(request.toRequest());
    return key === undefined ? undefined : `key ${key}`;
  }
  const address = request.remoteAddress;
  return address === undefined || address === '' ? undefined : `address ${toAddressKey(address)}`;
}

/** An IPv4 address as it is; an IPv6 one as its /64 prefix (zone dropped, groups without zeros). */
export function toAddressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  const [head = '', tail] = bare.split('::', 2);
  const left = head === '' ? [] : head.split(':');
  let groups = left;
  if (tail !== undefined) {
    const right = tail === '' ? [] : tail.split(':');
    // A dotted IPv4 tail is two groups' worth.
    const rightGroups = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
    const zeros = Array.from({ length: Math.max(0, 8 - left.length - rightGroups) }, () => '0');
    groups = [...left, ...zeros, ...right];
  }
  const prefix = groups
    .slice(0, 4)
    .map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16).toString(16) : group));
  return `${prefix.join(':')}::/64`;
}

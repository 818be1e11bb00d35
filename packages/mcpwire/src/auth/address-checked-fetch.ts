// A fetch for URLs a peer named, on Node: the address each connection is made to is checked when it
// is resolved (a `lookup` hook on the socket), so a DNS name that resolves to a private address, or
// that changes its answer between a check and the connection (DNS rebinding), is never connected to.

import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { FetchLike } from './fetch-like.ts';
import { specialRangeOf } from './ip-address.ts';
import { isPrivateHost } from './url-policy.ts';

/** How {@link createAddressCheckedFetch} behaves. */
export interface AddressCheckedFetchOptions {
  /**
   * Origins reached without the check, through `fetch`: the server the user named (which may be
   * their own local one). Default none.
   */
  trustedOrigins?: readonly string[];
  /** The fetch for `trustedOrigins`; default the global fetch. */
  fetch?: FetchLike;
  /** Name resolution, Node's `dns.lookup` shape; default `dns.lookup`. A seam for tests (no DNS there). */
  lookup?: LookupFunction;
}

/** A connection refused because its address is special-purpose; `code` MCPWIRE_PRIVATE_ADDRESS. */
export class PrivateAddressError extends Error {
  readonly code = 'MCPWIRE_PRIVATE_ADDRESS';

  constructor(host: string, range: string) {
    super(`refused to connect to ${host}: it is a ${range} address, not a public one`);
    this.name = 'PrivateAddressError';
  }
}

/**
 * A fetch that connects only to public addresses (see specialRangeOf), over node:http(s), checking
 * the address of each connection as it is resolved. Requests to `trustedOrigins` go to `fetch`
 * unchecked. Redirects are never followed (a 3xx is returned as it is); each redirect target, fetched
 * again, is checked again. A refused address rejects with PrivateAddressError.
 */
export function createAddressCheckedFetch(options: AddressCheckedFetchOptions = {}): FetchLike {
  const trusted = new Set(options.trustedOrigins?.map((origin) => new URL(origin).origin));
  const inner = options.fetch ?? ((request: Request) => fetch(request));
  const lookup = checkedLookup(options.lookup ?? (dnsLookup as LookupFunction));
  return async (request) => {
    const url = new URL(request.url);
    if (trusted.has(url.origin)) return inner(request);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`cannot fetch ${url.href}: only http and https are supported`);
    // An IP literal is connected to without a lookup, and `localhost` names may never reach one
    // (a resolver may not know `localhost.`): both are judged here.
    if (isPrivateHost(url.hostname))
      throw new PrivateAddressError(
        url.hostname,
        specialRangeOf(url.hostname)?.name ?? 'loopback (localhost)',
      );
    const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer());
    const incoming = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method: request.method,
        headers: Object.fromEntries(request.headers),
        lookup,
        agent: false,
        signal: request.signal,
      });
      outgoing.once('response', resolve).once('error', reject);
      outgoing.end(body);
    });
    return toResponse(incoming, request.method);
  };
}

/** `lookup` with every address it resolves to checked; one special-purpose address refuses them all. */
function checkedLookup(lookup: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    const all: LookupAllOptions = { ...options, all: true };
    lookup(hostname, all, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      for (const { address } of list) {
        const range = specialRangeOf(address);
        if (range !== undefined) return callback(new PrivateAddressError(hostname, range.name), '', 0);
      }
      if (options.all === true) return (callback as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (first === undefined) return callback(new Error(`${hostname} resolved to no address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

function toResponse(incoming: IncomingMessage, method: string): Response {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  const status = incoming.statusCode ?? 502;
  const isBodyless = method === 'HEAD' || status === 204 || status === 205 || status === 304;
  if (isBodyless) incoming.resume();
  return new Response(isBodyless ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>), {
    status,
    statusText: incoming.statusMessage ?? '',
    headers,
  });
}

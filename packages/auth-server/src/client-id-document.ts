// Finds the client an authorization or token request names: a registered one, or, when `client_id`
// is an https URL, the Client ID Metadata Document fetched from it (AUTH-15), checked and cached.
// The URL comes from whoever sends the request (SEC-6): special-purpose addresses are refused, the
// body is read up to a cap, and every way of not getting a document gets one description, so the
// answers cannot map which ports are open behind the server.

import { isLoopbackHost, isPrivateHost, readCappedText } from 'mcpwire/auth';
import { checkClientMetadata } from './client-metadata.ts';
import type { AuthorizationStore } from './authorization-store.ts';
import { OAuthError } from './oauth-error.ts';
import type { ResolvedOptions } from './options.ts';
import type { ClientRecord } from './records.ts';

/** The largest document read (the CIMD draft's security section suggests about 5 KB). */
const MAX_DOCUMENT_BYTES = 5 * 1024;
const DEFAULT_CACHE_SECONDS = 300;
const MAX_CACHE_SECONDS = 86_400;
const FETCH_TIMEOUT_MS = 5_000;

/** Looks up a client by id; rejects with `invalid_client` saying why when there is none. */
export type ClientResolver = (clientId: string) => Promise<ClientRecord>;

/** A resolver over `store`, fetching metadata documents with `options.fetch` and caching them per Cache-Control. */
export function createClientResolver(store: AuthorizationStore, options: ResolvedOptions): ClientResolver {
  // Keyed by URLs anyone may send: bounded, the least recently used entry evicted first.
  const cache = new Map<string, { client: ClientRecord; expiresAt: number }>();
  return async (clientId) => {
    const known = store.getClient(clientId);
    if (known !== undefined) return known;
    const cached = cache.get(clientId);
    if (cached !== undefined) {
      cache.delete(clientId);
      if (cached.expiresAt > options.now()) {
        cache.set(clientId, cached);
        return cached.client;
      }
    }
    const url = documentUrl(clientId, options.canFetchLoopbackClientMetadata);
    const { body, maxAge } = await fetchDocument(url, options.fetch);
    const client = toClient(clientId, url, body);
    if (maxAge > 0) {
      cache.set(clientId, { client, expiresAt: options.now() + maxAge * 1000 });
      if (cache.size > options.maxCachedClientDocuments) cache.delete(cache.keys().next().value!);
    }
    return client;
  };
}

function documentUrl(clientId: string, canFetchLoopback: boolean): URL {
  let url: URL | undefined;
  try {
    url = new URL(clientId);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new OAuthError(
      'invalid_client',
      `unknown client_id "${clientId}": register it first, or use a Client ID Metadata Document URL`,
    );
  const isLoopback = isLoopbackHost(url.hostname);
  if (url.protocol === 'http:' && !(isLoopback && canFetchLoopback))
    throw new OAuthError(
      'invalid_client',
      `client_id "${clientId}" must be an https URL${isLoopback ? ' (start the server with loopback client metadata allowed for http://127.0.0.1)' : ''}`,
    );
  if (url.protocol === 'https:' && isPrivateHost(url.hostname) && !canFetchLoopback)
    throw new OAuthError(
      'invalid_client',
      `client_id "${clientId}" names a private or loopback host, which is not fetched (SEC-6)`,
    );
  // AUTH-14: the client_id URL has a path, and no fragment.
  if (url.pathname === '/' || url.hash !== '' || url.username !== '' || url.password !== '')
    throw new OAuthError(
      'invalid_client',
      `client_id "${clientId}" must have a path and no fragment or credentials`,
    );
  return url;
}

/**
 * What every failure to get a document says, whether nothing listens, the connection timed out, the
 * address was refused, or something answered that is not this client's document (SEC-6).
 */
function notFetched(url: URL): OAuthError {
  return new OAuthError(
    'invalid_client',
    `the client metadata document at ${url.href} could not be fetched: no JSON document of at most ${MAX_DOCUMENT_BYTES} bytes naming that URL as its client_id was answered there`,
  );
}

async function fetchDocument(url: URL, fetchFn: typeof fetch): Promise<{ body: unknown; maxAge: number }> {
  let text: string | undefined;
  let response: Response;
  try {
    response = await fetchFn(url, {
      headers: { accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw notFetched(url);
    }
    text = await readCappedText(response, MAX_DOCUMENT_BYTES);
  } catch {
    throw notFetched(url);
  }
  if (text === undefined) throw notFetched(url);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw notFetched(url);
  }
  return { body, maxAge: maxAgeOf(response.headers.get('cache-control')) };
}

function maxAgeOf(cacheControl: string | null): number {
  if (cacheControl === null) return DEFAULT_CACHE_SECONDS;
  if (/\b(no-store|no-cache)\b/i.test(cacheControl)) return 0;
  const match = /\bmax-age=(\d+)/i.exec(cacheControl);
  return match === null ? DEFAULT_CACHE_SECONDS : Math.min(Number(match[1]), MAX_CACHE_SECONDS);
}

function toClient(clientId: string, url: URL, body: unknown): ClientRecord {
  const document = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  // AUTH-15: the document's client_id equals the URL exactly. Anything else is not this client's
  // document, and is described as no document at all (what it holds is not told).
  if (document.client_id !== clientId) throw notFetched(url);
  if (typeof document.client_name !== 'string' || document.client_name === '')
    throw new OAuthError('invalid_client', 'the client metadata document has no client_name (AUTH-14)');
  if ('client_secret' in document || 'client_secret_expires_at' in document)
    throw new OAuthError('invalid_client', 'a client metadata document must not carry a client_secret');
  let checked;
  try {
    checked = checkClientMetadata(document, 'none');
  } catch (error) {
    throw new OAuthError(
      'invalid_client',
      `the client metadata document is invalid: ${(error as Error).message}`,
    );
  }
  if (checked.tokenEndpointAuthMethod !== 'none')
    throw new OAuthError(
      'invalid_client',
      'a metadata-document client must use token_endpoint_auth_method "none" here (private_key_jwt is not supported)',
    );
  return { ...checked, clientId, source: 'metadata-document' };
}

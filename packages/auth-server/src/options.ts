// The options of the development authorization server, and their defaults.

import { createAddressCheckedFetch } from 'mcpwire/auth/node';
import type { TokenEndpointAuthMethod } from './records.ts';

/** A client known from the start (pre-registration, AUTH-13 step 1). */
export interface StaticClient {
  clientId: string;
  /** Give one for a confidential client (`client_secret_basic` or `client_secret_post`). */
  clientSecret?: string;
  redirectUris: readonly string[];
  tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
  clientName?: string;
}

/** How the authorization server behaves. */
export interface AuthorizationServerOptions {
  /**
   * The issuer identifier (RFC 8414 §2): `http(s)://host[:port][/path]`, no query or fragment. Every
   * endpoint lives under it. Optional only when `listen` is used: it becomes `http://<host>:<port>`.
   */
  issuer?: string;
  /** Approve every valid authorization request at once, without the consent page; default false. */
  shouldAutoApprove?: boolean;
  /** The scopes to accept and publish in `scopes_supported`; default: any scope is accepted. */
  scopesSupported?: readonly string[];
  /**
   * Accept Client ID Metadata Document URLs on `http://127.0.0.1` / `http://[::1]` / `http://localhost`
   * (local development of a client); default false, only `https` URLs on public hosts (SEC-6).
   */
  canFetchLoopbackClientMetadata?: boolean;
  /** Clients registered from the start. */
  clients?: readonly StaticClient[];
  /** The `aud` of tokens requested without `resource`; default: such requests fail with `invalid_target`. */
  defaultResource?: string;
  /** Lifetime of access tokens; default 3600 s. */
  accessTokenTtlSeconds?: number;
  /** The subject (`sub`) the consent page proposes and auto-approval uses; default `dev-user`. */
  subject?: string;
  /**
   * The fetch used to read Client ID Metadata Documents. Default: one that connects only to public
   * addresses, checked as each connection is resolved (createAddressCheckedFetch of
   * mcpwire/auth/node), or the global fetch with `canFetchLoopbackClientMetadata`.
   */
  fetch?: typeof fetch;
  /** Client ID Metadata Documents kept in the cache at most (least recently used dropped); default 1,000. */
  maxCachedClientDocuments?: number;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
  /**
   * Where the state is kept: `'memory'` (the default; lost when the process ends) or a SQLite file
   * (`{ file }`, created if missing), where registrations, refresh tokens and the signing key
   * survive a restart.
   */
  store?: 'memory' | { file: string };
}

/** The options with every default applied and a known issuer. */
export interface ResolvedOptions {
  issuer: string;
  shouldAutoApprove: boolean;
  scopesSupported: readonly string[] | undefined;
  canFetchLoopbackClientMetadata: boolean;
  defaultResource: string | undefined;
  accessTokenTtlSeconds: number;
  subject: string;
  fetch: typeof fetch;
  maxCachedClientDocuments: number;
  now: () => number;
}

/** Lifetime of an authorization code (OAuth 2.1 §4.1.2 recommends at most 10 minutes). */
export const CODE_TTL_MS = 120_000;
/** How long a consent page stays valid. */
export const CONSENT_TTL_MS = 600_000;

/** Applies the defaults; throws when `issuer` is not a valid issuer identifier. */
export function resolveOptions(issuer: string, options: AuthorizationServerOptions): ResolvedOptions {
  checkIssuer(issuer);
  return {
    issuer,
    shouldAutoApprove: options.shouldAutoApprove ?? false,
    scopesSupported: options.scopesSupported,
    canFetchLoopbackClientMetadata: options.canFetchLoopbackClientMetadata ?? false,
    defaultResource: options.defaultResource,
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 3600,
    subject: options.subject ?? 'dev-user',
    fetch: options.fetch ?? defaultFetch(options.canFetchLoopbackClientMetadata === true),
    maxCachedClientDocuments: options.maxCachedClientDocuments ?? 1000,
    now: options.now ?? Date.now,
  };
}

function defaultFetch(canFetchLoopback: boolean): typeof fetch {
  if (canFetchLoopback) return globalThis.fetch;
  const checked = createAddressCheckedFetch();
  return (input, init) => checked(new Request(input, init));
}

function checkIssuer(issuer: string): void {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new TypeError(`issuer must be an absolute http(s) URL, received "${issuer}"`);
  }
  // RFC 8414 §2: a URL using https with no query or fragment; http allowed here for local development.
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '')
    throw new TypeError(`issuer must be an http(s) URL with no query or fragment, received "${issuer}"`);
  if (issuer.endsWith('/'))
    throw new TypeError(`issuer must not end with "/" (RFC 8414 §3), received "${issuer}"`);
}

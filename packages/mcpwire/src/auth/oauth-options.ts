// The options of the OAuth client (`createOAuthFetch`), and the authorize callback's contract.

import type { TokenEndpointAuth } from './client-authentication.ts';
import type { DpopOptions } from './dpop.ts';
import type { FetchLike } from './fetch-like.ts';
import type { OAuthGrant } from './grants.ts';
import type { ClientMetadata, PreRegisteredClient } from './registration.ts';
import type { ClientCredentials, TokenStore } from './token-store.ts';

/** The authorization request the user agent must visit. */
export interface AuthorizationRequest {
  /** The full authorization URL (response_type, client_id, PKCE challenge, state, resource, scope). */
  url: URL;
  /** The issuer of the authorization server. */
  issuer: string;
  state: string;
  redirectUri: string;
}

/**
 * Takes the user agent through `request.url` and resolves with the URL the authorization server
 * redirected back to (on `redirectUri`, carrying `code`, `state`, `iss`). A browser flow opens the URL
 * and waits on a loopback listener; a test follows the redirect itself.
 */
export type AuthorizeCallback = (request: AuthorizationRequest) => Promise<URL | string>;

/** A client identity the caller holds, for the machine grants. */
export interface ConfiguredClient extends ClientCredentials {
  /**
   * The authorization server these credentials belong to; they are then used nowhere else (S26-AUTH-4).
   * Without it they go to whichever authorization server the MCP server names.
   */
  issuer?: string;
}

/** How the OAuth client behaves. */
export interface OAuthClientOptions {
  /** How tokens are obtained; default `{ type: 'authorization_code' }` (needs `authorize`, `redirectUri`). */
  grant?: OAuthGrant;
  /** The browser step of the authorization_code grant. */
  authorize?: AuthorizeCallback;
  /** The registered redirect URI: `http://127.0.0.1:<port>/...` for a native client (AUTH-30). */
  redirectUri?: string;
  /**
   * The client's own credentials: for the client_credentials, jwt_bearer and identity_assertion grants,
   * and, for the authorization_code grant, a pre-registered client used before any other (AUTH-13).
   */
  client?: ConfiguredClient;
  /** How the client authenticates at the token endpoint; default chosen from the registration and metadata. */
  tokenEndpointAuth?: TokenEndpointAuth;
  /** Request DPoP-bound tokens and send a proof with each request (RFC 9449); default off (Bearer). */
  dpop?: DpopOptions;
  clientMetadata?: ClientMetadata;
  /** This client's Client ID Metadata Document URL (HTTPS, with a path; AUTH-14). */
  clientMetadataUrl?: string;
  /** Credentials issued out of band, each for one issuer. */
  preRegistered?: readonly PreRegisteredClient[];
  /** Default `native`. */
  applicationType?: 'native' | 'web';
  /** Where registrations and tokens are kept per issuer; default a new memory store. */
  store?: TokenStore;
  /** The fetch used for MCP requests and the auth layer's own; default the global fetch. */
  fetch?: FetchLike;
  /** Allow metadata and endpoints on loopback and private addresses (SEC-6); default false. */
  allowPrivateNetwork?: boolean;
  /** Authorizations one request may start before its 401/403 is returned as it is (AUTH-27); default 3. */
  maxAuthorizationsPerRequest?: number;
  /** The scope to request, instead of the one chosen from the challenge and metadata (AUTH-26). */
  scope?: string;
  /** Ask for `offline_access` where the authorization server lists it (S26-AUTH-7); default true. */
  isOfflineAccessWanted?: boolean;
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: () => number;
}

// The records the authorization server keeps: registered clients, authorizations waiting for consent,
// authorization codes and refresh-token families. Plain data, so a store can keep them anywhere.

/** How a client authenticates at the token endpoint (RFC 7591 §2); `none` for public clients. */
export type TokenEndpointAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

/** A client the server knows: registered dynamically (RFC 7591), by metadata document, or given at start. */
export interface ClientRecord {
  clientId: string;
  /** Only for `client_secret_basic` and `client_secret_post` clients. */
  clientSecret?: string;
  redirectUris: readonly string[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  grantTypes: readonly string[];
  clientName?: string;
  /** Where the client came from: `registered` (RFC 7591), `metadata-document` (CIMD) or `static`. */
  source: 'registered' | 'metadata-document' | 'static';
  /** The registered metadata as the client sent it, echoed in the registration response. */
  metadata: Readonly<Record<string, unknown>>;
}

/** What an authorization request asked for once it was validated; held until consent. */
export interface AuthorizationGrant {
  clientId: string;
  redirectUri: string;
  /** The requested scopes, in request order. */
  scopes: readonly string[];
  /** The RFC 8707 resource the token will be bound to (its `aud`). */
  resource: string;
  codeChallenge: string;
  state?: string;
  /** OpenID Connect `nonce`, carried into the ID token. */
  nonce?: string;
}

/** An authorization request shown on the consent page, waiting for approve or deny. */
export interface PendingConsent {
  id: string;
  /** The anti-CSRF value the consent form and its cookie must both carry (SEC-1). */
  csrf: string;
  grant: AuthorizationGrant;
  expiresAt: number;
}

/** An issued authorization code (stored under its hash). */
export interface CodeRecord {
  grant: AuthorizationGrant;
  subject: string;
  expiresAt: number;
  /** Set when the code is redeemed; a second redemption revokes what the first issued (RFC 6749 §4.1.2). */
  isUsed: boolean;
  /** The refresh-token family the redemption started, if any. */
  familyId?: string;
}

/** An issued refresh token (stored under its hash). Rotation marks it used and issues a successor. */
export interface RefreshRecord {
  familyId: string;
  clientId: string;
  subject: string;
  scopes: readonly string[];
  resource: string;
  isRotated: boolean;
}

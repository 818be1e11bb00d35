// The authorization server metadata (RFC 8414 §2), served at the RFC 8414 well-known URL and at the
// OpenID Connect Discovery one (AUTH-11), and where each endpoint lives under the issuer.

import type { ResolvedOptions } from './options.ts';

/** The endpoint URLs, all under the issuer. */
export interface Endpoints {
  authorization: string;
  token: string;
  registration: string;
  revocation: string;
  jwks: string;
}

/** The endpoints of `issuer`: `<issuer>/authorize`, `/token`, `/register`, `/revoke`, `/jwks.json`. */
export function endpointsOf(issuer: string): Endpoints {
  return {
    authorization: `${issuer}/authorize`,
    token: `${issuer}/token`,
    registration: `${issuer}/register`,
    revocation: `${issuer}/revoke`,
    jwks: `${issuer}/jwks.json`,
  };
}

/**
 * The well-known paths the metadata is served at for `issuer` (RFC 8414 §3.1 inserts the well-known
 * segment before the issuer's path; OIDC Discovery §4 appends it, and both are served).
 */
export function metadataPaths(issuer: string): string[] {
  const path = new URL(issuer).pathname.replace(/\/$/, '');
  return [
    `/.well-known/oauth-authorization-server${path}`,
    `/.well-known/openid-configuration${path}`,
    `${path}/.well-known/openid-configuration`,
  ];
}

/** The metadata document. */
export function toMetadata(options: ResolvedOptions): Record<string, unknown> {
  const endpoints = endpointsOf(options.issuer);
  return {
    issuer: options.issuer,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    registration_endpoint: endpoints.registration,
    revocation_endpoint: endpoints.revocation,
    jwks_uri: endpoints.jwks,
    ...(options.scopesSupported === undefined ? {} : { scopes_supported: options.scopesSupported }),
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    // PKCE with S256 only (AUTH-31; OAuth 2.1 §4.1.1): `plain` is refused.
    code_challenge_methods_supported: ['S256'],
    // RFC 9207 (S26-AUTH-1): `iss` is in every authorization response, errors included.
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    // OpenID Connect Discovery §3: an ID token is issued when `openid` is in the scope.
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES256'],
  };
}

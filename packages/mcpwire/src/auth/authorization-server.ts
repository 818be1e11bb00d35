// Authorization server metadata discovery (RFC 8414, OpenID Connect Discovery; AUTH-11, AUTH-12): the
// well-known URLs in the spec's order, the issuer-exact check (S26-AUTH-3) and the PKCE check (AUTH-31).

import { OAuthError } from './errors.ts';
import { fetchMetadata, type AuthFetchContext } from './metadata-fetch.ts';

/** The authorization server metadata fields the client reads (RFC 8414 §2). */
export interface AuthorizationServerMetadata {
  issuer: string;
  /** Required for the authorization_code grant; a server for machine grants only may omit it. */
  authorization_endpoint?: string;
  token_endpoint: string;
  registration_endpoint?: string;
  scopes_supported?: string[];
  grant_types_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  /** RFC 9449 §5.1: the JWS algorithms the server accepts in DPoP proofs. */
  dpop_signing_alg_values_supported?: string[];
  code_challenge_methods_supported?: string[];
  authorization_response_iss_parameter_supported?: boolean;
  client_id_metadata_document_supported?: boolean;
}

/**
 * The metadata URLs to try for `issuer`, in AUTH-12's order: with a path, RFC 8414 path-inserted, OIDC
 * path-inserted, OIDC path-appended; without a path, RFC 8414 then OIDC.
 */
export function authorizationServerMetadataUrls(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/$/, '');
  const at = (p: string): URL => new URL(p, issuer.origin);
  if (path === '')
    return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * Fetches the first metadata document found for `issuer` (the identifier exactly as the protected
 * resource listed it). Resolves undefined when no location answers; rejects with OAuthError when the
 * document's `issuer` is not identical to `issuer` (its endpoints are then never used), when it lacks
 * the token endpoint, or, for the browser grant (`isBrowserGrant`, the default), when it lacks the
 * authorization endpoint or does not advertise PKCE `S256` (AUTH-31).
 */
export async function discoverAuthorizationServer(
  issuer: string,
  context: AuthFetchContext,
  options: { isBrowserGrant?: boolean } = {},
): Promise<AuthorizationServerMetadata | undefined> {
  const step = 'authorization-server-discovery';
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(issuer);
  } catch {
    throw new OAuthError(step, `the authorization server "${issuer}" is not a URL`);
  }
  for (const url of authorizationServerMetadataUrls(issuerUrl)) {
    const document = await fetchMetadata(url, context, step);
    if (document === undefined) continue;
    if (document.issuer !== issuer)
      throw new OAuthError(
        step,
        `${url.href} names issuer ${JSON.stringify(document.issuer)}, not "${issuer}" (RFC 8414 §3.3); refusing its endpoints`,
      );
    return checkMetadata(document, url, options.isBrowserGrant ?? true);
  }
  return undefined;
}

/**
 * The endpoints a 2025-03-26 server without any metadata is assumed to have: `/authorize`, `/token` and
 * `/register` at the server's origin, with PKCE S256 (the 2025-03-26 revision's fallback).
 */
export function fallbackMetadata(origin: string): AuthorizationServerMetadata {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/authorize`,
    token_endpoint: `${origin}/token`,
    registration_endpoint: `${origin}/register`,
    code_challenge_methods_supported: ['S256'],
  };
}

function checkMetadata(
  document: Record<string, unknown>,
  url: URL,
  isBrowserGrant: boolean,
): AuthorizationServerMetadata {
  const step = 'authorization-server-discovery';
  const fields = isBrowserGrant ? ['authorization_endpoint', 'token_endpoint'] : ['token_endpoint'];
  for (const field of fields)
    if (typeof document[field] !== 'string') throw new OAuthError(step, `${url.href} has no "${field}"`);
  // PKCE protects the authorization code; the machine grants have none (AUTH-31).
  if (!isBrowserGrant) return document as unknown as AuthorizationServerMetadata;
  const methods = document.code_challenge_methods_supported;
  if (!Array.isArray(methods) || !methods.includes('S256'))
    throw new OAuthError(
      step,
      `${url.href} does not list S256 in code_challenge_methods_supported (${JSON.stringify(methods ?? null)}); PKCE cannot be confirmed, refusing to proceed (AUTH-31)`,
    );
  return document as unknown as AuthorizationServerMetadata;
}

// The first step of the identity assertion grant (SEP-990, draft-ietf-oauth-identity-assertion-authz-grant):
// an RFC 8693 token exchange at the enterprise IdP of the user's identity assertion for an ID-JAG, an
// Identity Assertion JWT Authorization Grant naming the authorization server and the resource.

import { OAuthError } from './errors.ts';
import type { AuthFetchContext } from './metadata-fetch.ts';
import { postTokenRequest } from './token-request.ts';

/** The enterprise IdP as the client knows it: configured by the caller, never learned from a server. */
export interface IdentityProvider {
  /** The IdP's token endpoint. */
  tokenEndpoint: string;
  /** The client's identity at the IdP (it differs from the one at the authorization server). */
  clientId: string;
  /** With a secret the client authenticates by client_secret_basic; without, client_id only. */
  clientSecret?: string;
  /** The IdP's issuer; default the token endpoint's origin. */
  issuer?: string;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

/** What is exchanged, at which IdP, for whom, and how the exchange is made. */
export interface ExchangeRequest {
  idp: IdentityProvider;
  /** The user's identity assertion. */
  subjectToken: string;
  /** Its RFC 8693 token type; default `urn:ietf:params:oauth:token-type:id_token`. */
  subjectTokenType: string | undefined;
  /** The authorization server's issuer: the ID-JAG's audience. */
  issuer: string;
  resource: string;
  scope: string | undefined;
  context: AuthFetchContext;
  now: () => number;
}

/**
 * Exchanges `request.subjectToken` at `request.idp` for an ID-JAG (`audience` the issuer, `resource` the
 * MCP server) and resolves with it. Rejects with OAuthError (step `token`) on a refusal or when the IdP
 * answers with another `issued_token_type`.
 */
export async function requestTokenExchange(request: ExchangeRequest): Promise<string> {
  const { idp } = request;
  const endpoint = new URL(idp.tokenEndpoint);
  const params = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG,
    audience: request.issuer,
    resource: request.resource,
    subject_token: request.subjectToken,
    subject_token_type: request.subjectTokenType ?? ID_TOKEN,
  });
  if (request.scope !== undefined) params.set('scope', request.scope);
  const body = await postTokenRequest(params, {
    // The IdP is the caller's choice, so the URL policy trusts its origin as it does the MCP server's.
    context: { ...request.context, trustedOrigin: endpoint.origin },
    now: request.now,
    client: {
      client_id: idp.clientId,
      ...(idp.clientSecret === undefined ? {} : { client_secret: idp.clientSecret }),
    },
    metadata: { issuer: idp.issuer ?? endpoint.origin, token_endpoint: endpoint.href },
  });
  if (body.issued_token_type !== ID_JAG || typeof body.access_token !== 'string' || body.access_token === '')
    throw new OAuthError(
      'token',
      `the token exchange at ${endpoint.href} answered issued_token_type ${JSON.stringify(body.issued_token_type)} (access_token ${typeof body.access_token}), expected an ID-JAG (${ID_JAG})`,
    );
  return body.access_token;
}

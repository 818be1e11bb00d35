// The grants that obtain a token without a user at a browser: client credentials (OAuth 2.1 §4.2),
// a JWT bearer assertion (RFC 7523 §2.1, as workload identity federation uses it), and the identity
// assertion grant of enterprise-managed authorization (an RFC 8693 exchange for an ID-JAG, then RFC 7523).

import { OAuthError } from './errors.ts';
import { requestTokenExchange, type IdentityProvider } from './token-exchange.ts';
import { requestToken, type TokenPostOptions } from './token-request.ts';
import type { Tokens } from './token-store.ts';

/** Whom an assertion is for: the authorization server's issuer (its `aud`) and the MCP server's resource. */
export interface AssertionTarget {
  issuer: string;
  resource: string;
}

/** Supplies a fresh JWT for `target`; called once per token request, so it may mint or fetch one each time. */
export type AssertionProvider = (target: AssertionTarget) => string | Promise<string>;

/** The default: a user authorizes in a browser (authorization code with PKCE). */
export interface AuthorizationCodeGrant {
  type: 'authorization_code';
}

/** The client acts on its own behalf with its credentials (`client` option, `tokenEndpointAuth`). */
export interface ClientCredentialsGrant {
  type: 'client_credentials';
}

/** RFC 7523 §2.1: an assertion issued elsewhere (a workload identity token, SEP-1933) is the grant. */
export interface JwtBearerGrant {
  type: 'jwt_bearer';
  assertion: AssertionProvider;
}

/**
 * Enterprise-managed authorization (SEP-990): the user's identity assertion (an ID token from the
 * enterprise IdP) is exchanged at the IdP for an ID-JAG naming this authorization server and resource,
 * which is then the JWT bearer grant at the authorization server.
 */
export interface IdentityAssertionGrant {
  type: 'identity_assertion';
  /** The identity assertion to exchange, e.g. the ID token of the user's sign-in at the IdP. */
  subjectToken: AssertionProvider;
  /** Its RFC 8693 token type; default `urn:ietf:params:oauth:token-type:id_token`. */
  subjectTokenType?: string;
  idp: IdentityProvider;
}

/** The `grant` option of `createOAuthFetch`. */
export type OAuthGrant =
  AuthorizationCodeGrant | ClientCredentialsGrant | JwtBearerGrant | IdentityAssertionGrant;

/** The grants `requestGrantToken` runs: all but the browser one. */
export type MachineGrant = Exclude<OAuthGrant, AuthorizationCodeGrant>;

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** One machine-grant token request: for `resource`, at most `scope`, posted as `post` says. */
export interface GrantRequest {
  resource: string;
  scope: string | undefined;
  post: TokenPostOptions;
}

/**
 * Runs `grant` once and resolves with its tokens. Never retries or falls back to another grant when
 * refused (SEP-1933): rejects with the OAuthError of the failed step.
 */
export async function requestGrantToken(grant: MachineGrant, request: GrantRequest): Promise<Tokens> {
  const { resource, scope, post } = request;
  const target: AssertionTarget = { issuer: post.metadata.issuer, resource };
  const params = new URLSearchParams();
  if (grant.type === 'client_credentials') {
    if (post.client === undefined)
      throw new OAuthError(
        'token',
        `the client_credentials grant needs the client's credentials: pass the client option (client_id, and client_secret or tokenEndpointAuth private_key_jwt)`,
      );
    params.set('grant_type', 'client_credentials');
  } else {
    const assertion =
      grant.type === 'jwt_bearer'
        ? await grant.assertion(target)
        : await requestTokenExchange({
            ...target,
            idp: grant.idp,
            subjectToken: await grant.subjectToken(target),
            subjectTokenType: grant.subjectTokenType,
            scope,
            context: post.context,
            now: post.now,
          });
    params.set('grant_type', JWT_BEARER);
    params.set('assertion', assertion);
  }
  params.set('resource', resource);
  if (scope !== undefined) params.set('scope', scope);
  return requestToken(params, post);
}

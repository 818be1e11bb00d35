// Token endpoint requests (OAuth 2.1 §3.2): the form POST with the client's authentication and, when
// DPoP is on, a proof (retried once with the server's nonce, RFC 9449 §8); the token response checked.

import {
  authenticateClient,
  type TokenEndpointAuth,
  type TokenEndpointMetadata,
} from './client-authentication.ts';
import type { DpopProver } from './dpop.ts';
import { OAuthError } from './errors.ts';
import { readJsonObject, type AuthFetchContext } from './metadata-fetch.ts';
import type { ClientCredentials, Tokens } from './token-store.ts';
import { checkUrl } from './url-policy.ts';

/** How one POST to a token endpoint is made. */
export interface TokenPostOptions {
  context: AuthFetchContext;
  now: () => number;
  /** The client identity to authenticate with; none for a grant that needs no client (RFC 7523 §3.1). */
  client?: ClientCredentials;
  /** The server's metadata: its advertised auth methods and algorithms, its issuer (assertion `aud`). */
  metadata: TokenEndpointMetadata;
  tokenEndpointAuth?: TokenEndpointAuth;
  /** Sends a DPoP proof with the request (RFC 9449 §5). */
  dpop?: DpopProver;
}

/**
 * POSTs `params` to `metadata.token_endpoint` and resolves with the JSON body of a 2xx answer. With
 * DPoP, a `use_dpop_nonce` refusal carrying a new `DPoP-Nonce` is retried once with it. Rejects with
 * OAuthError (step `token`, `oauthError` set from an error response) on a refusal or a body that is
 * not a JSON object.
 */
export async function postTokenRequest(
  params: URLSearchParams,
  options: TokenPostOptions,
): Promise<Record<string, unknown>> {
  const { metadata, context } = options;
  const endpoint = new URL(metadata.token_endpoint);
  checkUrl(endpoint, context.policy, context.trustedOrigin);
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  });
  const what = `POST ${endpoint.href} (grant_type ${params.get('grant_type')})`;
  for (let attempt = 0; ; attempt++) {
    // Inside the loop: a retry gets a fresh client assertion (its jti is single-use, RFC 7523 §3).
    if (options.client !== undefined)
      await authenticateClient(headers, params, {
        client: options.client,
        metadata,
        ...(options.tokenEndpointAuth === undefined ? {} : { configured: options.tokenEndpointAuth }),
        now: options.now,
      });
    if (options.dpop) headers.set('dpop', await options.dpop.createProof({ method: 'POST', url: endpoint }));
    let response: Response;
    try {
      response = await context.fetch(
        new Request(endpoint, { method: 'POST', headers, body: params.toString(), redirect: 'manual' }),
      );
    } catch (error) {
      throw new OAuthError('token', `${what} failed: ${(error as Error).message}`, { cause: error });
    }
    const hasNewNonce = options.dpop?.handleResponse(endpoint, response) ?? false;
    const body = await readJsonObject(response, what, 'token');
    if (response.ok) return body;
    const code = typeof body.error === 'string' ? body.error : 'invalid_response';
    if (code === 'use_dpop_nonce' && hasNewNonce && attempt === 0) continue;
    const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    throw new OAuthError('token', `${what} was refused with ${response.status} ${code}${description}`, {
      oauthError: code,
    });
  }
}

/**
 * A token request for an access token: `postTokenRequest`, then the response read as Tokens. Rejects
 * with OAuthError without an `access_token`, or with a `token_type` other than Bearer (or DPoP, when
 * the request carried a proof).
 */
export async function requestToken(params: URLSearchParams, options: TokenPostOptions): Promise<Tokens> {
  const body = await postTokenRequest(params, options);
  const what = `POST ${options.metadata.token_endpoint} (grant_type ${params.get('grant_type')})`;
  return toTokens(body, what, { now: options.now(), isDpop: options.dpop !== undefined });
}

function toTokens(body: Record<string, unknown>, what: string, at: { now: number; isDpop: boolean }): Tokens {
  const {
    access_token: accessToken,
    token_type: tokenType,
    refresh_token: refresh,
    expires_in: expiresIn,
    scope,
  } = body;
  if (typeof accessToken !== 'string' || accessToken === '')
    throw new OAuthError('token', `${what} answered without an access_token`);
  const type = typeof tokenType === 'string' ? tokenType.toLowerCase() : undefined;
  const isDpopBound = type === 'dpop' && at.isDpop;
  if (type !== 'bearer' && !isDpopBound)
    throw new OAuthError(
      'token',
      `${what} answered token_type ${JSON.stringify(tokenType)}, expected ${at.isDpop ? '"DPoP" or "Bearer"' : '"Bearer"'}`,
    );
  const tokens: Tokens = { accessToken, tokenType: isDpopBound ? 'DPoP' : 'Bearer' };
  if (typeof refresh === 'string' && refresh !== '') tokens.refreshToken = refresh;
  if (typeof expiresIn === 'number' && Number.isFinite(expiresIn))
    tokens.expiresAt = at.now + expiresIn * 1000;
  if (typeof scope === 'string') tokens.scope = scope;
  return tokens;
}

// Token endpoint requests (OAuth 2.1 §3.2): client authentication (client_secret_basic,
// client_secret_post, none), the form body, and the token response read and checked.

import type { AuthorizationServerMetadata } from './authorization-server.ts';
import { OAuthError } from './errors.ts';
import { readJsonObject, type AuthFetchContext } from './metadata-fetch.ts';
import type { ClientCredentials, Tokens } from './token-store.ts';
import { checkUrl } from './url-policy.ts';

/** The client authentication methods this client speaks at the token endpoint. */
export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

/**
 * The method to use: the one registered, when the server supports it; else basic, then post, when the
 * client has a secret; else none. An absent `token_endpoint_auth_methods_supported` means basic
 * (RFC 8414 §2).
 */
export function selectAuthMethod(
  client: ClientCredentials,
  supported: readonly string[] | undefined,
): TokenEndpointAuthMethod {
  const methods = supported ?? ['client_secret_basic'];
  const registered = client.token_endpoint_auth_method;
  if (isKnownMethod(registered) && methods.includes(registered)) return registered;
  if (client.client_secret !== undefined) {
    if (methods.includes('client_secret_basic')) return 'client_secret_basic';
    if (methods.includes('client_secret_post')) return 'client_secret_post';
  }
  return 'none';
}

function isKnownMethod(method: string | undefined): method is TokenEndpointAuthMethod {
  return method === 'client_secret_basic' || method === 'client_secret_post' || method === 'none';
}

/** What a token request needs besides the grant's own parameters. */
export interface TokenRequestOptions {
  metadata: AuthorizationServerMetadata;
  client: ClientCredentials;
  context: AuthFetchContext;
  now: () => number;
}

/**
 * POSTs `params` (the grant) to the token endpoint with the client's authentication and reads the
 * response. Rejects with OAuthError (step `token`, `oauthError` set from an error response) on a
 * refusal or a response without a Bearer `access_token`.
 */
export async function requestToken(params: URLSearchParams, options: TokenRequestOptions): Promise<Tokens> {
  const { metadata, client, context } = options;
  const endpoint = new URL(metadata.token_endpoint);
  checkUrl(endpoint, context.policy, context.trustedOrigin);
  const headers = new Headers({
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  });
  const method = selectAuthMethod(client, metadata.token_endpoint_auth_methods_supported);
  if (method === 'client_secret_basic') {
    // RFC 6749 §2.3.1: both parts form-encoded before base64.
    headers.set(
      'authorization',
      `Basic ${btoa(`${formEncode(client.client_id)}:${formEncode(client.client_secret ?? '')}`)}`,
    );
  } else {
    params.set('client_id', client.client_id);
    if (method === 'client_secret_post') params.set('client_secret', client.client_secret ?? '');
  }
  const what = `POST ${endpoint.href} (grant_type ${params.get('grant_type')})`;
  let response: Response;
  try {
    response = await context.fetch(
      new Request(endpoint, { method: 'POST', headers, body: params.toString(), redirect: 'manual' }),
    );
  } catch (error) {
    throw new OAuthError('token', `${what} failed: ${(error as Error).message}`, { cause: error });
  }
  const body = await readJsonObject(response, what, 'token');
  if (!response.ok) {
    const code = typeof body.error === 'string' ? body.error : 'invalid_response';
    const description = typeof body.error_description === 'string' ? `: ${body.error_description}` : '';
    throw new OAuthError('token', `${what} was refused with ${response.status} ${code}${description}`, {
      oauthError: code,
    });
  }
  return toTokens(body, what, options.now());
}

function toTokens(body: Record<string, unknown>, what: string, now: number): Tokens {
  const {
    access_token: accessToken,
    token_type: tokenType,
    refresh_token: refresh,
    expires_in: expiresIn,
    scope,
  } = body;
  if (typeof accessToken !== 'string' || accessToken === '')
    throw new OAuthError('token', `${what} answered without an access_token`);
  if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer')
    throw new OAuthError(
      'token',
      `${what} answered token_type ${JSON.stringify(tokenType)}, expected "Bearer"`,
    );
  const tokens: Tokens = { accessToken, tokenType: 'Bearer' };
  if (typeof refresh === 'string' && refresh !== '') tokens.refreshToken = refresh;
  if (typeof expiresIn === 'number' && Number.isFinite(expiresIn)) tokens.expiresAt = now + expiresIn * 1000;
  if (typeof scope === 'string') tokens.scope = scope;
  return tokens;
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

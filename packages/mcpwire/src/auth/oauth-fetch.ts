// The OAuth client as a fetch wrapper: give it to StreamableHttpClientTransport's `fetch` option. It
// adds the access token to every request to the MCP server (AUTH-21; as `DPoP` with a proof, RFC 9449
// §7.1, when the token is DPoP-bound) and answers 401 and 403 insufficient_scope by obtaining a new
// token and retrying the request.

import { Authorizer } from './authorizer.ts';
import type { DpopProver } from './dpop.ts';
import type { FetchLike } from './fetch-like.ts';
import type { OAuthClientOptions } from './oauth-options.ts';
import type { Tokens } from './token-store.ts';
import { parseBearerChallenge } from './www-authenticate.ts';

const DEFAULT_MAX_AUTHORIZATIONS = 3;

/**
 * A fetch for `serverUrl` (the MCP endpoint) that authorizes as the server requires. Requests to other
 * origins pass through without a token (AUTH-23). A request that meets 401, or 403 with
 * `insufficient_scope` (step-up, AUTH-27), is retried after a new token, at most
 * `maxAuthorizationsPerRequest` times; then the last 401/403 is returned as it is. A 401
 * `use_dpop_nonce` with a new `DPoP-Nonce` is retried once with the same token (RFC 9449 §9). A flow
 * that fails rejects the request with OAuthError, naming the step. Concurrent requests share one flow.
 */
export function createOAuthFetch(serverUrl: string | URL, options: OAuthClientOptions): FetchLike {
  const server = new URL(serverUrl);
  const authorizer = new Authorizer(server, options);
  const base: FetchLike = options.fetch ?? ((request) => fetch(request));
  const limit = options.maxAuthorizationsPerRequest ?? DEFAULT_MAX_AUTHORIZATIONS;
  return async (request) => {
    if (new URL(request.url).origin !== server.origin) return base(request);
    let isNonceRetried = false;
    for (let authorizations = 0; ;) {
      const tokens = await authorizer.currentTokens();
      const headers = await withToken(request, tokens, authorizer.dpop);
      const response = await base(new Request(request.clone(), { headers }));
      const hasNewNonce = authorizer.dpop?.handleResponse(request.url, response) ?? false;
      if (response.status !== 401 && response.status !== 403) return response;
      const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
      if (challenge.error === 'use_dpop_nonce' && hasNewNonce && !isNonceRetried) {
        isNonceRetried = true;
        await response.body?.cancel();
        continue;
      }
      if (response.status === 403 && challenge.error !== 'insufficient_scope') return response;
      if (authorizations >= limit) return response;
      authorizations++;
      await response.body?.cancel();
      await authorizer.handleChallenge({
        status: response.status,
        challenge,
        sentToken: tokens?.accessToken,
      });
    }
  };
}

/** The request's headers with the token: `Bearer`, or `DPoP` plus a fresh proof bound to it (`ath`). */
async function withToken(
  request: Request,
  tokens: Tokens | undefined,
  dpop: DpopProver | undefined,
): Promise<Headers> {
  const copy = new Headers(request.headers);
  if (tokens === undefined) return copy;
  if (tokens.tokenType === 'DPoP' && dpop !== undefined) {
    copy.set('authorization', `DPoP ${tokens.accessToken}`);
    copy.set(
      'dpop',
      await dpop.createProof({ method: request.method, url: request.url, accessToken: tokens.accessToken }),
    );
  } else copy.set('authorization', `Bearer ${tokens.accessToken}`);
  return copy;
}

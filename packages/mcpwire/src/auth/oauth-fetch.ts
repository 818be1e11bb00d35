// The OAuth client as a fetch wrapper: give it to StreamableHttpClientTransport's `fetch` option. It
// adds the bearer token to every request to the MCP server (AUTH-21) and answers 401 and 403
// insufficient_scope by obtaining a new token and retrying the request.

import { Authorizer } from './authorizer.ts';
import type { FetchLike } from './fetch-like.ts';
import type { OAuthClientOptions } from './oauth-options.ts';
import { parseBearerChallenge } from './www-authenticate.ts';

const DEFAULT_MAX_AUTHORIZATIONS = 3;

/**
 * A fetch for `serverUrl` (the MCP endpoint) that authorizes as the server requires. Requests to other
 * origins pass through without a token (AUTH-23). A request that meets 401, or 403 with
 * `insufficient_scope` (step-up, AUTH-27), is retried after a new token, at most
 * `maxAuthorizationsPerRequest` times; then the last 401/403 is returned as it is. A flow that fails
 * rejects the request with OAuthError, naming the step. Concurrent requests share one flow.
 */
export function createOAuthFetch(serverUrl: string | URL, options: OAuthClientOptions): FetchLike {
  const server = new URL(serverUrl);
  const authorizer = new Authorizer(server, options);
  const base: FetchLike = options.fetch ?? ((request) => fetch(request));
  const limit = options.maxAuthorizationsPerRequest ?? DEFAULT_MAX_AUTHORIZATIONS;
  return async (request) => {
    if (new URL(request.url).origin !== server.origin) return base(request);
    for (let authorizations = 0; ; authorizations++) {
      const token = await authorizer.accessToken();
      const attempt = new Request(request.clone(), { headers: withToken(request.headers, token) });
      const response = await base(attempt);
      if (response.status !== 401 && response.status !== 403) return response;
      const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
      if (response.status === 403 && challenge.error !== 'insufficient_scope') return response;
      if (authorizations >= limit) return response;
      await response.body?.cancel();
      await authorizer.handleChallenge({ status: response.status, challenge, sentToken: token });
    }
  };
}

function withToken(headers: Headers, token: string | undefined): Headers {
  const copy = new Headers(headers);
  if (token !== undefined) copy.set('authorization', `Bearer ${token}`);
  return copy;
}

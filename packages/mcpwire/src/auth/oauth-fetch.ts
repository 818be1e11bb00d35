// The OAuth client as a fetch wrapper: give it to a client transport's `fetch` option when the
// requests must go through a fetch (a recorder, a browser); else prefer createOAuthAuthorization and
// the transport's `authorization` option, which keeps Node's connection pool.

import type { FetchLike } from './fetch-like.ts';
import { createOAuthAuthorization } from './oauth-authorization.ts';
import type { OAuthClientOptions } from './oauth-options.ts';

/**
 * A fetch for `serverUrl` (the MCP endpoint) that authorizes as the server requires, as
 * createOAuthAuthorization's `send` does (the token only to the server's origin; a 401 or 403
 * insufficient_scope retried after a new token, at most `maxAuthorizationsPerRequest` times; a DPoP
 * nonce challenge retried once). Requests to other origins pass through to `options.fetch` (else the
 * global fetch) as they are. A flow that fails rejects the request with OAuthError, naming the step.
 */
export function createOAuthFetch(serverUrl: string | URL, options: OAuthClientOptions): FetchLike {
  const authorization = createOAuthAuthorization(serverUrl, options);
  const base: FetchLike = options.fetch ?? ((request) => fetch(request));
  return (request) => {
    const url = new URL(request.url);
    if (url.origin !== authorization.origin) return base(request);
    return authorization.send({ method: request.method, url, headers: request.headers }, (headers) =>
      base(new Request(request.clone(), { headers })),
    );
  };
}

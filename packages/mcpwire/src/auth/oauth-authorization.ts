// The OAuth client as an HTTP authorization: the credentials of every exchange with the MCP server
// (AUTH-21; `DPoP` with a proof when the token is DPoP-bound, RFC 9449 §7.1) and the flows a 401 or a
// 403 insufficient_scope starts, for any way of making the exchange (a transport's pool, or a fetch).

import { Authorizer } from './authorizer.ts';
import type { DpopProver } from './dpop.ts';
import type { OAuthClientOptions } from './oauth-options.ts';
import type { Tokens } from './token-store.ts';
import { parseBearerChallenge } from './www-authenticate.ts';

const DEFAULT_MAX_AUTHORIZATIONS = 3;

/** One HTTP exchange as an authorization sees it: what it adds credentials to. */
export interface AuthorizationExchange {
  method: string;
  url: URL;
  /** The exchange's own headers; never changed (the credentials go on a copy). */
  headers: Headers;
}

/**
 * The OAuth client of one MCP server, to give a Streamable HTTP or SSE client transport's
 * `authorization` option (the shape of mcpwire/http's HttpAuthorization).
 */
export interface OAuthAuthorization {
  /** The MCP server's origin: the only one whose exchanges get a token. */
  readonly origin: string;
  /**
   * Makes one exchange through `sendOnce`, called with the exchange's headers plus the credentials.
   * An exchange to another origin than the server's is sent once with its own headers, untouched
   * (AUTH-23: no token passthrough). A 401, or a 403 with `insufficient_scope` (step-up, AUTH-27),
   * starts a flow for a new token and the exchange is sent again, at most `maxAuthorizationsPerRequest`
   * times; then the last 401/403 is returned as it is. A 401 `use_dpop_nonce` with a new `DPoP-Nonce`
   * is sent again once with the same token (RFC 9449 §9). A refused response that is retried has its
   * body cancelled. A flow that fails rejects with OAuthError, naming the step. Concurrent exchanges
   * share one flow.
   */
  send(exchange: AuthorizationExchange, sendOnce: (headers: Headers) => Promise<Response>): Promise<Response>;
}

/**
 * The OAuth authorization of the MCP endpoint `serverUrl` (see {@link OAuthAuthorization}). Requests
 * the flow itself makes (metadata, registration, token) go through `options.fetch`.
 */
export function createOAuthAuthorization(
  serverUrl: string | URL,
  options: OAuthClientOptions,
): OAuthAuthorization {
  const server = new URL(serverUrl);
  const authorizer = new Authorizer(server, options);
  const limit = options.maxAuthorizationsPerRequest ?? DEFAULT_MAX_AUTHORIZATIONS;
  return {
    origin: server.origin,
    async send(exchange, sendOnce) {
      if (exchange.url.origin !== server.origin) return sendOnce(exchange.headers);
      let isNonceRetried = false;
      for (let authorizations = 0; ;) {
        const tokens = await authorizer.currentTokens();
        const response = await sendOnce(await withToken(exchange, tokens, authorizer.dpop));
        const hasNewNonce = authorizer.dpop?.handleResponse(exchange.url, response) ?? false;
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
    },
  };
}

/** The exchange's headers with the token: `Bearer`, or `DPoP` plus a fresh proof bound to it (`ath`). */
async function withToken(
  exchange: AuthorizationExchange,
  tokens: Tokens | undefined,
  dpop: DpopProver | undefined,
): Promise<Headers> {
  const copy = new Headers(exchange.headers);
  if (tokens === undefined) return copy;
  if (tokens.tokenType === 'DPoP' && dpop !== undefined) {
    copy.set('authorization', `DPoP ${tokens.accessToken}`);
    const proof = await dpop.createProof({
      method: exchange.method,
      url: exchange.url.href,
      accessToken: tokens.accessToken,
    });
    copy.set('dpop', proof);
  } else copy.set('authorization', `Bearer ${tokens.accessToken}`);
  return copy;
}

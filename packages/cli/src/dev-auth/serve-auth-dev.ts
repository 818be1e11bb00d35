// `mcpwire serve ... --http <port> --auth dev`: the development authorization server started beside
// the MCP endpoint, and the resource server (`bearerAuth` of mcpwire/auth) that accepts its tokens.
// For development only: the authorization server approves whoever the consent page names.

import { createAuthorizationServer, type ListeningAuthorizationServer } from '@mcpwire/auth-server';
import { bearerAuth, type BearerAuth } from 'mcpwire/auth';
import type { ChainableHandler } from 'mcpwire/http';

/** The authorization pieces of a served endpoint, bound to its URL once it listens. */
export interface DevAuth extends AsyncDisposable {
  /** The issuer of the development authorization server. */
  issuer: string;
  /** For `createHttpHandler`'s `auth` option. */
  auth: Pick<BearerAuth, 'authenticate' | 'authorize'>;
  /** The protected resource metadata endpoint (RFC 9728), to chain before the MCP handler. */
  metadata: ChainableHandler;
  /** Binds the resource server to the endpoint's canonical URL; call once, before serving requests. */
  bind(resource: string): void;
}

/**
 * Starts the development authorization server on `host` (any free port); `isAutoApproved` approves
 * every valid authorization request without the consent page (the demo).
 */
export async function startDevAuth(
  host: string,
  options: { isAutoApproved?: boolean } = {},
): Promise<DevAuth> {
  const authorizationServer: ListeningAuthorizationServer = await createAuthorizationServer(
    options.isAutoApproved === true ? { shouldAutoApprove: true } : {},
  ).listen({ host });
  const { issuer } = authorizationServer;
  let bearer: BearerAuth | undefined;
  const bound = (): BearerAuth => {
    if (bearer === undefined) throw new Error('the development resource server is not bound to a URL yet');
    return bearer;
  };
  return {
    issuer,
    auth: {
      authenticate: (request) => bound().authenticate(request),
      authorize: (principal, requests) => bound().authorize(principal, requests),
    },
    metadata: { exchange: (view) => bound().metadata.exchange(view) },
    bind(resource) {
      bearer = bearerAuth({ resource, issuer, jwksUri: `${issuer}/jwks.json` });
    },
    [Symbol.asyncDispose]: () => authorizationServer.close(),
  };
}

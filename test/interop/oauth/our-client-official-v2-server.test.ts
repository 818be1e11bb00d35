// Our client (`createOAuthFetch` from mcpwire/auth inside a `Client` over StreamableHttpClientTransport)
// completes the authorization code flow against the official v2 server (@modelcontextprotocol/server
// 2.4 `createMcpHandler`) behind the official bearer middleware (`requireBearerAuth`, `oauthMetadataResponse`),
// with our development authorization server as its authorization server; all over real sockets on
// 127.0.0.1, the consent page answered with fetch (issue 11, "What it must show" 2). The official
// middleware checks our JWT against our JWKS through a jose verifier (AUTH-22, the audience AUTH-20).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';

import { serve, type ServerType } from '@hono/node-server';
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError as OfficialOAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  requireBearerAuth,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { createRemoteJWKSet, jwtVerify } from 'jose';

import { createAuthorizationServer } from '@mcpwire/auth-server';
import { createOAuthFetch, type FetchLike } from 'mcpwire/auth';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { authorizeWithConsent } from '../../support/oauth-driver.ts';
import { freePort } from '../../support/free-port.ts';

const SCOPE = 'mcp:tools';

/** Verifies our authorization server's JWT access tokens with its JWKS, as the official middleware asks. */
function jwtVerifier(issuer: string, audience: string): OAuthTokenVerifier {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks.json`));
  return {
    async verifyAccessToken(token): Promise<AuthInfo> {
      try {
        const { payload } = await jwtVerify(token, jwks, { issuer, audience, typ: 'at+jwt' });
        return {
          token,
          clientId: String(payload.client_id),
          scopes: typeof payload.scope === 'string' ? payload.scope.split(' ') : [],
          ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }),
          resource: new URL(audience),
          extra: { subject: payload.sub },
        };
      } catch (error) {
        throw new OfficialOAuthError(
          OAuthErrorCode.InvalidToken,
          `token refused: ${(error as Error).message}`,
        );
      }
    },
  };
}

/** The official v2 server at `http://127.0.0.1:<port>/mcp`: `whoami` answers with what the middleware verified. */
async function startOfficialProtectedServer(
  issuer: string,
): Promise<{ url: string; statuses: number[] } & AsyncDisposable> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const oauthMetadata = (await (
    await fetch(`${issuer}/.well-known/oauth-authorization-server`)
  ).json()) as OAuthMetadata;
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'official-protected', version: '2.4.0' });
    server.registerTool('whoami', { description: 'The verified principal.' }, async (ctx) => {
      const authInfo = ctx.http?.authInfo;
      return {
        content: [
          {
            type: 'text',
            text: JSON.stringify({
              subject: authInfo?.extra?.subject,
              clientId: authInfo?.clientId,
              scopes: authInfo?.scopes,
            }),
          },
        ],
      };
    });
    return server;
  });
  const gate = requireBearerAuth({
    verifier: jwtVerifier(issuer, url),
    requiredScopes: [SCOPE],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)),
    expectedResource: new URL(url),
  });
  const statuses: number[] = [];
  const metadataOptions = {
    oauthMetadata,
    resourceServerUrl: new URL(url),
    scopesSupported: [SCOPE],
    // Our authorization server runs on http://127.0.0.1 in this test.
    dangerouslyAllowInsecureIssuerUrl: true,
  };
  const fetchHandler = async (request: Request): Promise<Response> => {
    const metadata = oauthMetadataResponse(request, metadataOptions);
    if (metadata !== undefined) return metadata;
    const authInfo = await gate(request);
    const response = authInfo instanceof Response ? authInfo : await handler.fetch(request, { authInfo });
    statuses.push(response.status);
    return response;
  };
  const server: ServerType = serve({ fetch: fetchHandler, hostname: '127.0.0.1', port });
  if (!server.listening) await once(server, 'listening');
  return {
    url,
    statuses,
    [Symbol.asyncDispose]: async () => {
      await handler.close();
      server.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await once(server, 'close');
    },
  };
}

test('our Client with createOAuthFetch completes the code flow against the official v2 server’s bearer middleware', async () => {
  await using authorizationServer = await createAuthorizationServer().listen();
  await using resource = await startOfficialProtectedServer(authorizationServer.issuer);
  const authorizations: URL[] = [];
  const seen: string[] = [];
  const logged: FetchLike = async (request) => {
    seen.push(`${request.method} ${new URL(request.url).pathname}`);
    return fetch(request);
  };
  const oauthFetch = createOAuthFetch(resource.url, {
    redirectUri: 'http://127.0.0.1:8976/callback',
    clientMetadata: { client_name: 'mcpwire interop' },
    allowPrivateNetwork: true,
    fetch: logged,
    authorize: async ({ url }) => {
      authorizations.push(url);
      return authorizeWithConsent(url.href);
    },
  });
  const client = new Client({ name: 'mcpwire-oauth-interop', version: '0.1.0' }, { eraCache: false });
  await client.connect(new StreamableHttpClientTransport(resource.url, { fetch: oauthFetch }));
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const [content] = result.content as { type: string; text: string }[];
    const principal = JSON.parse(content!.text) as { subject: string; clientId: string; scopes: string[] };
    assert.equal(principal.subject, 'alice', 'the subject the consent page approved');
    assert.match(principal.clientId, /^dev-client-/, 'registered dynamically');
    assert.deepEqual(principal.scopes, [SCOPE], 'the scope the challenge and the metadata named');
    assert.equal(authorizations.length, 1, 'one authorization for the whole session');
    const [authorization] = authorizations;
    assert.equal(
      authorization!.searchParams.get('resource'),
      resource.url,
      'resource as published (AUTH-19)',
    );
    assert.equal(authorization!.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(resource.statuses[0], 401, 'the first MCP request met the challenge');
    assert.ok(
      resource.statuses.slice(1).every((status) => status < 400),
      resource.statuses.join(' '),
    );
    // The discovery path: PRM from the challenge, the AS metadata, registration, the token.
    const path = seen.filter((line) => !line.endsWith(' /mcp'));
    assert.deepEqual(path, [
      'GET /.well-known/oauth-protected-resource/mcp',
      'GET /.well-known/oauth-authorization-server',
      'POST /register',
      'POST /token',
    ]);
  } finally {
    await client.close();
  }
});

// Our OAuth client (`mcpwire/auth`, createOAuthFetch) completes the authorization code flow against
// the development authorization server (@mcpwire/auth-server) for a protected resource, all over
// real sockets on 127.0.0.1, the consent page answered with fetch (issue 11, "What it must show" 2).
// The resource is a small test server: PRM (AUTH-4), a 401 challenge (AUTH-6a), JWT checks with the JWKS (AUTH-22).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { createAuthorizationServer } from '@mcpwire/auth-server';
import { createOAuthFetch } from 'mcpwire/auth';
import { authorizeWithConsent } from '../support/oauth-driver.ts';

/** A protected resource at `<base>/mcp` trusting `issuer`; it records the Authorization header of every call. */
async function protectedResource(issuer: string): Promise<{ url: string; seen: string[] } & AsyncDisposable> {
  const jwks = createRemoteJWKSet(new URL(`${issuer}/jwks.json`));
  const seen: string[] = [];
  let base = '';
  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.url === '/.well-known/oauth-protected-resource/mcp') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          resource: `${base}/mcp`,
          authorization_servers: [issuer],
          scopes_supported: ['mcp:tools'],
        }),
      );
      return;
    }
    const authorization = request.headers.authorization ?? '';
    seen.push(authorization === '' ? '(none)' : authorization.split(' ')[0]!);
    const challenge = `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools"`;
    try {
      const { payload } = await jwtVerify(authorization.replace(/^Bearer /, ''), jwks, {
        issuer,
        audience: `${base}/mcp`,
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ sub: payload.sub, scope: payload.scope, aud: payload.aud }));
    } catch {
      response.writeHead(401, { 'www-authenticate': challenge });
      response.end();
    }
  };
  const server = createServer((request, response) => void handle(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    seen,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

test('createOAuthFetch registers, is sent through the consent page, and calls the resource with a token for it', async () => {
  await using authorizationServer = await createAuthorizationServer().listen();
  await using resource = await protectedResource(authorizationServer.issuer);
  const authorizations: URL[] = [];
  const oauthFetch = createOAuthFetch(resource.url, {
    redirectUri: 'http://127.0.0.1:8976/callback',
    clientMetadata: { client_name: 'interop test' },
    allowPrivateNetwork: true,
    authorize: async ({ url }) => {
      authorizations.push(url);
      return (await authorizeWithConsent(url.href, { subject: 'alice' })).href;
    },
  });
  const call = (): Promise<Response> => oauthFetch(new Request(resource.url, { method: 'POST', body: '{}' }));
  const first = await call();
  assert.equal(first.status, 200);
  assert.deepEqual(await first.json(), { sub: 'alice', scope: 'mcp:tools', aud: resource.url });
  assert.equal(authorizations.length, 1);
  const [authorization] = authorizations;
  assert.equal(
    authorization!.searchParams.get('resource'),
    resource.url,
    'resource exactly as published (AUTH-19)',
  );
  assert.equal(authorization!.searchParams.get('code_challenge_method'), 'S256');
  const second = await call();
  assert.equal(second.status, 200);
  assert.equal(authorizations.length, 1, 'the token is reused: no second authorization');
  assert.deepEqual(resource.seen, ['(none)', 'Bearer', 'Bearer']);
});

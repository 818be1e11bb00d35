// Interop over real sockets on 127.0.0.1: our OAuth client (createOAuthFetch inside a Client's Streamable
// HTTP transport) completes the authorization code flow against our protected server and the test
// issuer, in both eras, and steps up when a tool needs more scope (AUTH-26, AUTH-27).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOAuthFetch, type AuthorizationRequest } from '../src/auth/index.ts';
import { Client } from '../src/client/index.ts';
import { StreamableHttpClientTransport } from '../src/transports/http/index.ts';
import type { Loose } from './support/http-kit.ts';
import { startProtectedServer } from './support/protected-server.ts';
import { startTestIssuer } from './support/token-issuer.ts';

/** The browser step of an auto-approving authorization server: follow the URL, return the redirect. */
async function followAuthorization(request: AuthorizationRequest): Promise<URL> {
  const response = await fetch(request.url, { redirect: 'manual' });
  await response.body?.cancel();
  return new URL(response.headers.get('location')!);
}

for (const era of ['handshake', 'stateless'] as const) {
  test(`our client completes the code flow against our protected server (${era} era), then steps up`, async () => {
    await using issuer = await startTestIssuer();
    await using server = await startProtectedServer({
      issuer: issuer.origin,
      jwksUri: issuer.jwksUri,
      scopes: ['mcp'],
      toolScopes: { deploy: ['deploy'] },
    });
    issuer.flowClaims = { sub: 'carol' };
    const authorizations: AuthorizationRequest[] = [];
    const oauthFetch = createOAuthFetch(server.url, {
      authorize: (request) => {
        authorizations.push(request);
        return followAuthorization(request);
      },
      redirectUri: 'http://127.0.0.1:1/callback',
      allowPrivateNetwork: true,
    });
    const client = new Client({ name: 'interop', version: '1.0.0' }, { era });
    await client.connect(new StreamableHttpClientTransport(server.url, { fetch: oauthFetch }));
    try {
      const whoami = await client.callTool({ name: 'whoami', arguments: {} });
      const seen = JSON.parse((whoami.content[0] as Loose).text as string) as Loose;
      assert.equal(seen.era, era);
      assert.equal(seen.auth.subject, 'carol');
      assert.deepEqual(seen.auth.scopes, ['mcp']);
      assert.equal(authorizations.length, 1);
      const first = authorizations[0]!.url.searchParams;
      assert.equal(first.get('resource'), server.url, 'AUTH-19: resource as published, no added slash');
      assert.equal(first.get('scope'), 'mcp', 'AUTH-18: the challenge scope');

      const deploy = await client.callTool({ name: 'deploy', arguments: {} });
      assert.equal((deploy.content[0] as Loose).text, 'deployed by carol');
      assert.equal(authorizations.length, 2, 'the 403 insufficient_scope started one step-up');
      assert.deepEqual(authorizations[1]!.url.searchParams.get('scope')?.split(' ').sort(), [
        'deploy',
        'mcp',
      ]);
    } finally {
      await client.close();
    }
  });
}

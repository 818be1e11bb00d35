// A hostile MCP server points the OAuth client's discovery at an internal service: its protected
// resource metadata names an authorization server at `localhost.`, an IPv4-mapped or -compatible or
// NAT64 loopback, or the shared (100.64.0.0/10) and benchmarking (198.18.0.0/15) ranges. The
// network is simulated by a fetch that routes every such URL to a victim listener on 127.0.0.1: no
// connection may reach it. And a metadata body that never ends is read only up to its cap.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOAuthFetch, OAuthError } from 'mcpwire/auth';
import { routeTo, startHostileServer, startVictim } from '../../support/ssrf-kit.ts';

function clientOf(server: { url: string }, fetch: (request: Request) => Promise<Response>) {
  return createOAuthFetch(server.url, {
    fetch,
    redirectUri: 'http://127.0.0.1:1/callback',
    authorize: () => Promise.reject(new Error('the flow must not get as far as the browser')),
  });
}

const post = (url: string): Request => new Request(url, { method: 'POST', body: '{}' });

test('an authorization server URL on a special-purpose address, in any spelling, is never connected to', async () => {
  await using victim = await startVictim();
  const port = victim.port;
  const named = [
    `https://localhost.:${port}`,
    `https://[::127.0.0.1]:${port}`,
    `https://[::ffff:127.0.0.1]:${port}`,
    `https://[64:ff9b::7f00:1]:${port}`,
    `https://100.100.100.200:${port}`,
    `https://198.18.0.1:${port}`,
  ];
  for (const authorizationServer of named) {
    await using server = await startHostileServer(authorizationServer);
    const oauthFetch = clientOf(server, routeTo(victim, server.origin));
    const error: unknown = await oauthFetch(post(server.url)).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.equal(victim.connections, 0, `${authorizationServer} reached the victim`);
    assert.ok(error instanceof OAuthError, `${authorizationServer}: ${String(error)}`);
    assert.equal(error.step, 'url-policy', `${authorizationServer}: ${error.message}`);
  }
});

test(
  'a metadata body that never ends is read up to its cap, then the connection is dropped',
  { timeout: 20_000 },
  async () => {
    await using server = await startHostileServer('https://as.example', { endlessMetadata: true });
    const oauthFetch = clientOf(server, (request) => fetch(request));
    await assert.rejects(oauthFetch(post(server.url)), (error: unknown) => {
      assert.ok(error instanceof OAuthError);
      assert.equal(error.step, 'protected-resource-discovery');
      assert.match(error.message, /over \d+ bytes/);
      return true;
    });
    // The client hung up on the endless body (else this waits until the test times out).
    await server.abandoned;
  },
);

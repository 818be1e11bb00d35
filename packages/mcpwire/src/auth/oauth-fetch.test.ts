// The OAuth client over real HTTP on 127.0.0.1 against a small protected resource and authorization
// server (test/support/oauth-fixture.ts), for what the conformance suite's auth scenarios do not prove:
// single-flight refresh, the SSRF guard, the PKCE refusal and the discovery order for an issuer with a path.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultMetadata, startOAuthFixture } from '../../test/support/oauth-fixture.ts';
import { OAuthError } from './errors.ts';
import { createOAuthFetch } from './oauth-fetch.ts';
import type { AuthorizationRequest, OAuthClientOptions } from './oauth-options.ts';

const REDIRECT_URI = 'http://127.0.0.1:1/callback';

/** The authorize step of an auto-approving server: follow the URL, return the redirect; counts calls. */
function authorizeCounting(): { calls: number; authorize: (r: AuthorizationRequest) => Promise<URL> } {
  const counter = {
    calls: 0,
    authorize: async (request: AuthorizationRequest): Promise<URL> => {
      counter.calls++;
      const response = await fetch(request.url, { redirect: 'manual' });
      await response.body?.cancel();
      return new URL(response.headers.get('location')!);
    },
  };
  return counter;
}

function mcpPost(origin: string): Request {
  return new Request(`${origin}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
}

function options(
  overrides: Partial<OAuthClientOptions> & Pick<OAuthClientOptions, 'authorize'>,
): OAuthClientOptions {
  return { redirectUri: REDIRECT_URI, allowPrivateNetwork: true, ...overrides };
}

test('AUTH-10, AUTH-21: a 401 runs the flow once and the retried request carries the bearer token', async () => {
  await using server = await startOAuthFixture();
  const counter = authorizeCounting();
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, options({ authorize: counter.authorize }));
  const response = await oauthFetch(mcpPost(server.origin));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { ok: true });
  const calls = server.requests.filter((r) => r.path === '/mcp');
  assert.deepEqual(
    calls.map((r) => r.authorization?.startsWith('Bearer at-') ?? false),
    [false, true],
  );
  assert.equal(counter.calls, 1);
  const token = server.requests.find((r) => r.path === '/token')!;
  assert.equal(token.form.get('resource'), `${server.origin}/mcp`);
  assert.equal(token.form.get('grant_type'), 'authorization_code');
});

test('AUTH-29 (single-flight refresh): 20 concurrent requests meeting a 401 cause exactly one refresh', async () => {
  await using server = await startOAuthFixture();
  const counter = authorizeCounting();
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, options({ authorize: counter.authorize }));
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);
  server.revokeAccessTokens();
  const responses = await Promise.all(Array.from({ length: 20 }, () => oauthFetch(mcpPost(server.origin))));
  assert.deepEqual(
    responses.map((r) => r.status),
    Array.from({ length: 20 }, () => 200),
  );
  const grants = server.requests.filter((r) => r.path === '/token').map((r) => r.form.get('grant_type'));
  assert.deepEqual(grants, ['authorization_code', 'refresh_token']);
  assert.equal(counter.calls, 1, 'the refresh replaced the token: no second authorization');
});

test('SEC-6: resource_metadata on another origin at a loopback address is not fetched unless allowed', async () => {
  await using elsewhere = await startOAuthFixture();
  await using server = await startOAuthFixture({
    challenge: () =>
      `Bearer resource_metadata="${elsewhere.origin}/.well-known/oauth-protected-resource/mcp"`,
  });
  const counter = authorizeCounting();
  const guarded = createOAuthFetch(`${server.origin}/mcp`, {
    authorize: counter.authorize,
    redirectUri: REDIRECT_URI,
  });
  await assert.rejects(guarded(mcpPost(server.origin)), (error: unknown) => {
    assert.ok(error instanceof OAuthError);
    assert.equal(error.code, 'OAUTH_URL_POLICY');
    assert.match(error.message, /allowPrivateNetwork/);
    return true;
  });
  assert.equal(elsewhere.requests.length, 0);
  const allowed = createOAuthFetch(`${server.origin}/mcp`, options({ authorize: counter.authorize }));
  // Allowed, the document is fetched, and refused for naming another server as its resource.
  await assert.rejects(allowed(mcpPost(server.origin)), /is not the MCP server/);
  assert.deepEqual(
    elsewhere.requests.map((r) => r.path),
    ['/.well-known/oauth-protected-resource/mcp'],
  );
  assert.equal(counter.calls, 0);
});

test('AUTH-31: metadata without code_challenge_methods_supported stops the flow before authorization', async () => {
  await using server = await startOAuthFixture({
    metadata: (origin) => {
      const { code_challenge_methods_supported: _dropped, ...rest } = defaultMetadata(origin);
      return rest;
    },
  });
  const counter = authorizeCounting();
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, options({ authorize: counter.authorize }));
  await assert.rejects(oauthFetch(mcpPost(server.origin)), (error: unknown) => {
    assert.ok(error instanceof OAuthError);
    assert.equal(error.step, 'authorization-server-discovery');
    assert.match(error.message, /S256/);
    return true;
  });
  assert.equal(counter.calls, 0);
  assert.equal(
    server.requests.filter((r) => ['/register', '/authorize', '/token'].includes(r.path)).length,
    0,
  );
});

test('AUTH-7, AUTH-12: without resource_metadata, PRM path-inserted then root; AS metadata in the spec order', async () => {
  await using server = await startOAuthFixture({
    challenge: () => 'Bearer',
    missing: ['/.well-known/oauth-protected-resource/mcp'],
  });
  const counter = authorizeCounting();
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, options({ authorize: counter.authorize }));
  // The root PRM is missing too (the fixture serves only the path-inserted one), so the client takes the
  // 2025-03-26 path: the server's origin as issuer, RFC 8414 metadata at the root.
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);
  assert.deepEqual(
    server.requests.filter((r) => r.path.startsWith('/.well-known/')).map((r) => r.path),
    [
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-authorization-server',
    ],
  );
});

test('RFC 9207, S26-AUTH-2: an authorization response whose iss is another issuer is refused before the token request', async () => {
  await using server = await startOAuthFixture({ iss: () => 'https://evil.example' });
  const counter = authorizeCounting();
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, options({ authorize: counter.authorize }));
  await assert.rejects(oauthFetch(mcpPost(server.origin)), (error: unknown) => {
    assert.ok(error instanceof OAuthError);
    assert.equal(error.step, 'authorization-response');
    assert.match(error.message, /iss "https:\/\/evil\.example" is not the issuer/);
    return true;
  });
  assert.equal(counter.calls, 1);
  assert.equal(server.requests.filter((r) => r.path === '/token').length, 0, 'the code is never redeemed');
});

// Authorization server metadata (AUTH-11, RFC 8414 §3): served at the RFC 8414 and OpenID Connect
// well-known URLs, for an issuer with and without a path, with `issuer` identical to the issuer
// (S26-AUTH-3), PKCE S256 only (AUTH-31), `iss` in responses (S26-AUTH-1) and CIMD support (AUTH-3).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAuthorizationServer } from '../src/index.ts';

test('the metadata is at both well-known URLs and says what the server does', async () => {
  await using server = await createAuthorizationServer().listen();
  const { issuer } = server;
  assert.match(issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    const response = await fetch(`${issuer}${path}`);
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    const metadata = (await response.json()) as Record<string, unknown>;
    assert.equal(metadata.issuer, issuer);
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(metadata.response_types_supported, ['code']);
    assert.equal(metadata.authorization_response_iss_parameter_supported, true);
    assert.equal(metadata.client_id_metadata_document_supported, true);
    assert.equal(metadata.token_endpoint, `${issuer}/token`);
    assert.equal(metadata.registration_endpoint, `${issuer}/register`);
    assert.equal(metadata.scopes_supported, undefined, 'no scope list unless one is configured');
  }
  const jwks = (await (await fetch(`${issuer}/jwks.json`)).json()) as {
    keys: Array<Record<string, unknown>>;
  };
  assert.equal(jwks.keys.length, 1);
  assert.deepEqual([jwks.keys[0]!.kty, jwks.keys[0]!.crv, jwks.keys[0]!.alg], ['EC', 'P-256', 'ES256']);
  assert.equal(jwks.keys[0]!.d, undefined, 'no private part is published');
  assert.equal((await fetch(`${issuer}/token`)).status, 405);
  assert.equal((await fetch(`${issuer}/nothing`)).status, 404);
});

test('an issuer with a path: path-inserted RFC 8414 URL, both OIDC URLs, endpoints under the path', async () => {
  const server = createAuthorizationServer({
    issuer: 'https://auth.example.com/tenant1',
    scopesSupported: ['mcp'],
  });
  assert.equal(server.issuer, 'https://auth.example.com/tenant1');
  for (const path of [
    '/.well-known/oauth-authorization-server/tenant1',
    '/.well-known/openid-configuration/tenant1',
    '/tenant1/.well-known/openid-configuration',
  ]) {
    const response = await server.handle(new Request(`https://auth.example.com${path}`));
    assert.equal(response.status, 200, path);
    const metadata = (await response.json()) as Record<string, unknown>;
    assert.equal(metadata.issuer, 'https://auth.example.com/tenant1');
    assert.equal(metadata.authorization_endpoint, 'https://auth.example.com/tenant1/authorize');
    assert.deepEqual(metadata.scopes_supported, ['mcp']);
  }
  const root = await server.handle(
    new Request('https://auth.example.com/.well-known/oauth-authorization-server'),
  );
  assert.equal(root.status, 404, 'not at the root: that would be another issuer');
});

test('an issuer with a trailing slash, a query or another scheme is refused at creation', () => {
  for (const issuer of [
    'https://auth.example.com/',
    'https://auth.example.com?x=1',
    'ftp://auth.example.com',
    'auth',
  ])
    assert.throws(() => createAuthorizationServer({ issuer }), TypeError, issuer);
});

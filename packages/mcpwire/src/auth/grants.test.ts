// The grants without a browser over real HTTP on 127.0.0.1 (test/support/oauth-fixture.ts): client
// credentials with client_secret_basic and private_key_jwt, the JWT bearer grant (no retry after a
// refusal), and the identity assertion grant's token exchange at a second server acting as the IdP.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { defaultMetadata, startOAuthFixture, type LoggedRequest } from '../../test/support/oauth-fixture.ts';
import { OAuthError } from './errors.ts';
import { createOAuthFetch } from './oauth-fetch.ts';

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function mcpPost(origin: string): Request {
  return new Request(`${origin}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
}

function tokenRequests(requests: readonly LoggedRequest[]): LoggedRequest[] {
  return requests.filter((r) => r.path === '/token');
}

/**
 * Metadata of a server for machine grants only, taking `methods` at its token endpoint: no registration,
 * no authorization endpoint and no PKCE methods (which only the browser grant needs, AUTH-31).
 */
function machineMetadata(methods: string[]): (origin: string) => Record<string, unknown> {
  return (origin) => {
    const {
      registration_endpoint: _registration,
      authorization_endpoint: _authorization,
      code_challenge_methods_supported: _pkce,
      ...rest
    } = defaultMetadata(origin);
    return {
      ...rest,
      grant_types_supported: ['client_credentials', JWT_BEARER],
      token_endpoint_auth_methods_supported: methods,
    };
  };
}

test('S26-XAUTH-1: client_credentials with client_secret_basic: no authorization endpoint or PKCE needed, Basic credentials, resource sent', async () => {
  await using server = await startOAuthFixture({ metadata: machineMetadata(['client_secret_basic']) });
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, {
    grant: { type: 'client_credentials' },
    client: { client_id: 'svc a', client_secret: 's3cret:x' },
    allowPrivateNetwork: true,
  });
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);
  const [token, ...more] = tokenRequests(server.requests);
  assert.equal(more.length, 0);
  assert.equal(token!.form.get('grant_type'), 'client_credentials');
  assert.equal(token!.form.get('resource'), `${server.origin}/mcp`);
  assert.equal(token!.form.get('client_secret'), null, 'the secret is not also in the body');
  // RFC 6749 §2.3.1: each part form-encoded, then base64.
  assert.equal(token!.authorization, `Basic ${btoa('svc+a:s3cret%3Ax')}`);
  assert.equal(server.requests.filter((r) => r.path === '/authorize' || r.path === '/register').length, 0);
});

test('S26-XAUTH-1: client_credentials with private_key_jwt: a signed assertion with iss = sub = client_id, aud = issuer, fresh jti', async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  await using server = await startOAuthFixture({ metadata: machineMetadata(['private_key_jwt']) });
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, {
    grant: { type: 'client_credentials' },
    client: { client_id: 'svc-jwt' },
    tokenEndpointAuth: { method: 'private_key_jwt', key: await exportPKCS8(privateKey), alg: 'ES256' },
    allowPrivateNetwork: true,
  });
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);
  server.revokeAccessTokens();
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);
  const tokens = tokenRequests(server.requests);
  assert.equal(tokens.length, 2, 'the revoked token is replaced by running the grant again');
  const jtis = [];
  for (const token of tokens) {
    assert.equal(token.authorization, undefined);
    assert.equal(
      token.form.get('client_assertion_type'),
      'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    );
    const { payload } = await jwtVerify(token.form.get('client_assertion')!, publicKey, {
      issuer: 'svc-jwt',
      subject: 'svc-jwt',
      audience: server.origin,
    });
    jtis.push(payload.jti);
  }
  assert.equal(new Set(jtis).size, 2);
});

test('client_credentials refuses a configured auth method the server does not list, before any token request', async () => {
  await using server = await startOAuthFixture({ metadata: machineMetadata(['private_key_jwt']) });
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, {
    grant: { type: 'client_credentials' },
    client: { client_id: 'svc', client_secret: 's' },
    tokenEndpointAuth: 'client_secret_post',
    allowPrivateNetwork: true,
  });
  await assert.rejects(
    oauthFetch(mcpPost(server.origin)),
    /client_secret_post.*supports only private_key_jwt/,
  );
  assert.equal(tokenRequests(server.requests).length, 0);
});

test('S26-XAUTH-4: the jwt_bearer grant sends the assertion; a refusal rejects once, with no retry and no other grant', async () => {
  const seen: Array<{ issuer: string; resource: string }> = [];
  let isRefusing = false;
  await using server = await startOAuthFixture({
    metadata: machineMetadata(['none']),
    token: () => (isRefusing ? { status: 400, body: { error: 'invalid_grant' } } : undefined),
  });
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, {
    grant: {
      type: 'jwt_bearer',
      assertion: (target) => {
        seen.push(target);
        return `workload-jwt-${seen.length}`;
      },
    },
    client: { client_id: 'workload' },
    allowPrivateNetwork: true,
  });
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);
  const [first] = tokenRequests(server.requests);
  assert.equal(first!.form.get('grant_type'), JWT_BEARER);
  assert.equal(first!.form.get('assertion'), 'workload-jwt-1');
  assert.equal(first!.form.get('client_id'), 'workload');
  assert.deepEqual(seen, [{ issuer: server.origin, resource: `${server.origin}/mcp` }]);

  isRefusing = true;
  server.revokeAccessTokens();
  await assert.rejects(oauthFetch(mcpPost(server.origin)), (error: unknown) => {
    assert.ok(error instanceof OAuthError);
    assert.equal(error.oauthError, 'invalid_grant');
    return true;
  });
  // The fixture's refresh token is tried first (and refused too); then the grant runs once, no more.
  assert.deepEqual(
    tokenRequests(server.requests).map((r) => r.form.get('grant_type')),
    [JWT_BEARER, 'refresh_token', JWT_BEARER],
  );
});

test('S26-XAUTH-2: identity_assertion exchanges the ID token at the IdP for an ID-JAG, then presents it as a JWT bearer grant', async () => {
  await using idp = await startOAuthFixture({
    token: () => ({
      status: 200,
      body: {
        access_token: 'the-id-jag',
        issued_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
        token_type: 'N_A',
      },
    }),
  });
  await using server = await startOAuthFixture({ metadata: machineMetadata(['client_secret_basic']) });
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, {
    grant: {
      type: 'identity_assertion',
      subjectToken: () => 'the-id-token',
      idp: { tokenEndpoint: `${idp.origin}/token`, clientId: 'idp-client' },
    },
    client: { client_id: 'as-client', client_secret: 'as-secret' },
    allowPrivateNetwork: true,
  });
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);
  const [exchange] = tokenRequests(idp.requests);
  assert.deepEqual(Object.fromEntries(exchange!.form), {
    grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
    requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
    audience: server.origin,
    resource: `${server.origin}/mcp`,
    subject_token: 'the-id-token',
    subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
    client_id: 'idp-client',
  });
  const [grant] = tokenRequests(server.requests);
  assert.equal(grant!.form.get('grant_type'), JWT_BEARER);
  assert.equal(grant!.form.get('assertion'), 'the-id-jag');
  assert.equal(grant!.authorization, `Basic ${btoa('as-client:as-secret')}`);
});

test('S26-XAUTH-2: an IdP answer that is not an ID-JAG stops before the authorization server', async () => {
  await using idp = await startOAuthFixture({
    token: () => ({ status: 200, body: { access_token: 'x', token_type: 'Bearer' } }),
  });
  await using server = await startOAuthFixture({ metadata: machineMetadata(['client_secret_basic']) });
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, {
    grant: {
      type: 'identity_assertion',
      subjectToken: () => 'the-id-token',
      idp: { tokenEndpoint: `${idp.origin}/token`, clientId: 'idp-client' },
    },
    client: { client_id: 'as-client', client_secret: 'as-secret' },
    allowPrivateNetwork: true,
  });
  await assert.rejects(oauthFetch(mcpPost(server.origin)), /expected an ID-JAG/);
  assert.equal(tokenRequests(server.requests).length, 0);
});

test('client_credentials without the client option, and the default grant without authorize, say what to pass', async () => {
  await using server = await startOAuthFixture({ metadata: machineMetadata(['none']) });
  const withoutClient = createOAuthFetch(`${server.origin}/mcp`, {
    grant: { type: 'client_credentials' },
    allowPrivateNetwork: true,
  });
  await assert.rejects(
    withoutClient(mcpPost(server.origin)),
    /needs the client's credentials: pass the client option/,
  );
  assert.equal(tokenRequests(server.requests).length, 0);
  await using browserServer = await startOAuthFixture();
  const withoutAuthorize = createOAuthFetch(`${browserServer.origin}/mcp`, { allowPrivateNetwork: true });
  await assert.rejects(
    withoutAuthorize(mcpPost(browserServer.origin)),
    /needs the authorize and redirectUri options/,
  );
  assert.equal(browserServer.requests.filter((r) => r.path === '/register' || r.path === '/token').length, 0);
});

// What the server refuses, and how, as RFC 6749 words it: a bad client or redirect URI is shown on
// a page and never redirected to (AUTH-32, RFC 6749 §4.1.2.1); later problems go back to the client
// with `error`, `state` and `iss`; token endpoint errors are JSON with the status of §5.2.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAuthorizationServer } from '../src/index.ts';
import {
  authorizationUrl,
  codeFor,
  createPkce,
  openAuthorization,
  registerClient,
  registerPublicClient,
  tokenRequest,
} from '../../../test/support/oauth-driver.ts';

const REDIRECT = 'http://127.0.0.1:8765/callback';
const RESOURCE = 'http://127.0.0.1:3000/mcp';

test('a wrong PKCE verifier is refused with invalid_grant; the right one then works', async () => {
  await using server = await createAuthorizationServer({ shouldAutoApprove: true }).listen();
  const clientId = await registerPublicClient(server.issuer, REDIRECT);
  const { code, pkce } = await codeFor(server.issuer, clientId, {
    redirectUri: REDIRECT,
    resource: RESOURCE,
  });
  const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId };
  const wrong = await tokenRequest(server.issuer, { ...form, code_verifier: createPkce().verifier });
  assert.deepEqual([wrong.status, wrong.json.error], [400, 'invalid_grant']);
  assert.equal(wrong.headers.get('cache-control'), 'no-store', 'RFC 6749 §5.2 errors are not cached either');
  const missing = await tokenRequest(server.issuer, form);
  assert.deepEqual([missing.status, missing.json.error], [400, 'invalid_request']);
  const right = await tokenRequest(server.issuer, { ...form, code_verifier: pkce.verifier });
  assert.equal(right.status, 200, JSON.stringify(right.json));
});

test('an unregistered redirect_uri is shown on a page, never redirected to; a loopback IP may change only its port', async () => {
  await using server = await createAuthorizationServer({ shouldAutoApprove: true }).listen();
  const clientId = await registerPublicClient(server.issuer, REDIRECT);
  const { challenge } = createPkce();
  const base = {
    client_id: clientId,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: RESOURCE,
  };
  for (const redirectUri of [
    'http://127.0.0.1:8765/other',
    'https://evil.example/callback',
    'http://localhost:8765/callback',
  ]) {
    const response = await openAuthorization(
      authorizationUrl(server.issuer, { ...base, redirect_uri: redirectUri }),
    );
    assert.equal(response.status, 400, redirectUri);
    assert.equal(response.headers.get('location'), null, `no redirect to ${redirectUri}`);
    assert.match(await response.text(), /is not registered for this client/);
  }
  // RFC 8252 §7.3: any port on a loopback IP literal.
  const otherPort = await openAuthorization(
    authorizationUrl(server.issuer, { ...base, redirect_uri: 'http://127.0.0.1:9999/callback' }),
  );
  assert.equal(otherPort.status, 303);
  assert.match(otherPort.headers.get('location')!, /^http:\/\/127\.0\.0\.1:9999\/callback\?code=/);
});

test('a token request whose redirect_uri differs from the authorization request is refused', async () => {
  await using server = await createAuthorizationServer({ shouldAutoApprove: true }).listen();
  const clientId = await registerPublicClient(server.issuer, REDIRECT);
  const { code, pkce } = await codeFor(server.issuer, clientId, {
    redirectUri: REDIRECT,
    resource: RESOURCE,
  });
  const response = await tokenRequest(server.issuer, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: 'http://127.0.0.1:8765/elsewhere',
    code_verifier: pkce.verifier,
    client_id: clientId,
  });
  assert.deepEqual([response.status, response.json.error], [400, 'invalid_grant']);
});

test('no PKCE, plain PKCE, no resource and an unknown scope go back to the client as errors with state and iss', async () => {
  await using server = await createAuthorizationServer({
    shouldAutoApprove: true,
    scopesSupported: ['mcp'],
  }).listen();
  const clientId = await registerPublicClient(server.issuer, REDIRECT);
  const { challenge } = createPkce();
  const base = { client_id: clientId, redirect_uri: REDIRECT, state: 'st', resource: RESOURCE };
  const cases: Array<[Record<string, string>, string, RegExp]> = [
    [{}, 'invalid_request', /PKCE is required/],
    [{ code_challenge: challenge }, 'invalid_request', /means plain/],
    [{ code_challenge: challenge, code_challenge_method: 'plain' }, 'invalid_request', /must be S256/],
    [
      { code_challenge: challenge, code_challenge_method: 'S256', resource: '' },
      'invalid_target',
      /not an absolute URI/,
    ],
    [
      { code_challenge: challenge, code_challenge_method: 'S256', scope: 'mcp admin' },
      'invalid_scope',
      /unknown scope admin/,
    ],
    [
      { code_challenge: challenge, code_challenge_method: 'S256', response_type: 'token' },
      'unsupported_response_type',
      /only "code"/,
    ],
  ];
  for (const [params, error, description] of cases) {
    const response = await openAuthorization(authorizationUrl(server.issuer, { ...base, ...params }));
    const back = new URL(response.headers.get('location')!);
    assert.equal(back.searchParams.get('error'), error, JSON.stringify(params));
    assert.match(back.searchParams.get('error_description')!, description);
    assert.equal(back.searchParams.get('state'), 'st');
    assert.equal(back.searchParams.get('iss'), server.issuer, 'RFC 9207: iss in error responses too');
  }
  const noResource = await openAuthorization(
    `${server.issuer}/authorize?response_type=code&client_id=${encodeURIComponent(clientId)}&code_challenge=${challenge}&code_challenge_method=S256`,
  );
  assert.equal(new URL(noResource.headers.get('location')!).searchParams.get('error'), 'invalid_target');
});

test('an unknown client_id is shown on a page; the token endpoint answers RFC 6749 §5.2 errors', async () => {
  await using server = await createAuthorizationServer().listen();
  const unknown = await openAuthorization(
    authorizationUrl(server.issuer, { client_id: 'nobody', redirect_uri: REDIRECT }),
  );
  assert.equal(unknown.status, 400);
  assert.equal(unknown.headers.get('location'), null);
  const clientId = await registerPublicClient(server.issuer, REDIRECT);
  const grant = await tokenRequest(server.issuer, { grant_type: 'password', client_id: clientId });
  assert.deepEqual([grant.status, grant.json.error], [400, 'unsupported_grant_type']);
  const noClient = await tokenRequest(server.issuer, { grant_type: 'authorization_code', code: 'x' });
  assert.deepEqual([noClient.status, noClient.json.error], [401, 'invalid_client']);
  const badCode = await tokenRequest(server.issuer, {
    grant_type: 'authorization_code',
    code: 'x',
    client_id: clientId,
  });
  assert.deepEqual([badCode.status, badCode.json.error], [400, 'invalid_grant']);
  const twice = await fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=refresh_token&grant_type=refresh_token&client_id=${encodeURIComponent(clientId)}`,
  });
  assert.deepEqual(
    [twice.status, ((await twice.json()) as { error: string }).error],
    [400, 'invalid_request'],
  );
  const json = await fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.deepEqual([json.status, ((await json.json()) as { error: string }).error], [400, 'invalid_request']);
});

test('registration refuses redirect URIs that are not https or loopback, and unsupported methods (RFC 7591 §3.2.2)', async () => {
  await using server = await createAuthorizationServer().listen();
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ redirect_uris: ['http://example.com/cb'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: ['https://example.com/cb#x'] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [] }, 'invalid_redirect_uri'],
    [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' }, 'invalid_client_metadata'],
    [{ redirect_uris: [REDIRECT], grant_types: ['implicit'] }, 'invalid_client_metadata'],
  ];
  for (const [body, error] of cases) {
    const { status, json } = await registerClient(server.issuer, body);
    assert.deepEqual([status, json.error], [400, error], JSON.stringify(body));
  }
  const native = await registerClient(server.issuer, {
    redirect_uris: ['com.example.app:/oauth'],
    token_endpoint_auth_method: 'none',
  });
  assert.equal(native.status, 201, 'a private-use scheme of a native app (RFC 8252 §7.1)');
});

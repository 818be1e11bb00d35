// The authorization code flow end to end over real HTTP on 127.0.0.1, the consent page driven with
// fetch: dynamic registration (AUTH-3), authorize with PKCE S256 (AUTH-31), consent (SEC-1), the
// redirect with `iss` (S26-AUTH-1), the token (RFC 6749 §5.1), its `aud` (AUTH-22) checked with the JWKS.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { createAuthorizationServer } from '../src/index.ts';
import {
  authorizationUrl,
  createPkce,
  fetchMetadata,
  openAuthorization,
  readConsentPage,
  registerClient,
  submitConsent,
  tokenRequest,
} from '../../../test/support/oauth-driver.ts';

const REDIRECT = 'http://127.0.0.1:8765/callback';
const RESOURCE = 'http://127.0.0.1:3000/mcp';

test('a registered public client completes the code flow; the token is a JWT for the resource, verified by the JWKS', async () => {
  await using server = await createAuthorizationServer().listen();
  const { issuer } = server;
  const registration = await registerClient(issuer, {
    client_name: 'Flow Test',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    application_type: 'native',
  });
  assert.equal(registration.status, 201);
  const clientId = registration.json.client_id as string;
  assert.equal(registration.json.client_secret, undefined, 'a public client gets no secret');
  assert.equal(
    registration.json.application_type,
    'native',
    'the registered metadata is echoed (RFC 7591 §3.2.1)',
  );

  const pkce = createPkce();
  const url = authorizationUrl(issuer, {
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: 'state-123',
    scope: 'mcp:tools offline_access',
    resource: RESOURCE,
  });
  const pageResponse = await openAuthorization(url);
  assert.equal(pageResponse.headers.get('x-frame-options'), 'DENY');
  assert.match(pageResponse.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
  const page = await readConsentPage(pageResponse);
  assert.equal(page.status, 200);
  assert.match(page.html, /Development authorization server/);
  assert.match(page.html, /Flow Test/, 'names the client');
  assert.match(page.html, /<strong>127\.0\.0\.1:8765<\/strong>/, 'shows the redirect host');
  assert.match(page.html, /mcp:tools offline_access/);

  const answer = await submitConsent(page, 'approve', { subject: 'alice' });
  assert.equal(answer.status, 303);
  const back = new URL(answer.headers.get('location')!);
  assert.equal(`${back.origin}${back.pathname}`, REDIRECT);
  assert.equal(back.searchParams.get('state'), 'state-123');
  assert.equal(back.searchParams.get('iss'), issuer, 'RFC 9207 iss is the exact issuer');
  const code = back.searchParams.get('code')!;
  assert.ok(code.length >= 32);

  const token = await tokenRequest(issuer, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: pkce.verifier,
    client_id: clientId,
    resource: RESOURCE,
  });
  assert.equal(token.status, 200, JSON.stringify(token.json));
  assert.equal(token.headers.get('cache-control'), 'no-store');
  assert.match(token.headers.get('content-type')!, /^application\/json/);
  assert.equal(token.json.token_type, 'Bearer');
  assert.equal(token.json.scope, 'mcp:tools offline_access');
  assert.equal(typeof token.json.refresh_token, 'string');

  const accessToken = token.json.access_token as string;
  assert.equal(decodeProtectedHeader(accessToken).typ, 'at+jwt', 'RFC 9068 access token');
  const metadata = await fetchMetadata(issuer);
  const jwks = createRemoteJWKSet(new URL(metadata.jwks_uri!));
  const { payload } = await jwtVerify(accessToken, jwks, {
    issuer,
    audience: RESOURCE,
    algorithms: ['ES256'],
  });
  assert.equal(payload.aud, RESOURCE, 'aud is the requested resource, exactly');
  assert.equal(payload.sub, 'alice', 'the subject the consent page was answered with');
  assert.equal(payload.client_id, clientId);
  assert.equal(payload.scope, 'mcp:tools offline_access');
  await assert.rejects(jwtVerify(accessToken, jwks, { issuer, audience: 'http://127.0.0.1:3000/other' }), {
    code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
  });
});

test('a confidential client authenticates with client_secret_basic; a wrong secret is a 401 invalid_client', async () => {
  await using server = await createAuthorizationServer({ shouldAutoApprove: true }).listen();
  const { issuer } = server;
  const { json } = await registerClient(issuer, { client_name: 'Basic', redirect_uris: [REDIRECT] });
  assert.equal(json.token_endpoint_auth_method, 'client_secret_basic', 'RFC 7591 §2 default');
  const secret = json.client_secret as string;
  const pkce = createPkce();
  const redirect = await openAuthorization(
    authorizationUrl(issuer, {
      client_id: json.client_id as string,
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      resource: RESOURCE,
    }),
  );
  const code = new URL(redirect.headers.get('location')!).searchParams.get('code')!;
  const form = {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: pkce.verifier,
  };
  const basic = (id: string, password: string): Record<string, string> => ({
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(password)}`).toString('base64')}`,
  });
  const wrong = await tokenRequest(issuer, form, basic(json.client_id as string, 'not-the-secret'));
  assert.equal(wrong.status, 401);
  assert.equal(wrong.json.error, 'invalid_client');
  assert.match(wrong.headers.get('www-authenticate') ?? '', /^Basic/);
  const right = await tokenRequest(issuer, form, basic(json.client_id as string, secret));
  assert.equal(right.status, 200, JSON.stringify(right.json));
  assert.equal(
    right.json.refresh_token,
    undefined,
    'no refresh token: the client registered only authorization_code',
  );
});

test('denying consent redirects back with access_denied, state and iss; a form without its cookie is refused', async () => {
  await using server = await createAuthorizationServer().listen();
  const { issuer } = server;
  const { json } = await registerClient(issuer, {
    client_name: 'Deny',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
  });
  const pkce = createPkce();
  const url = authorizationUrl(issuer, {
    client_id: json.client_id as string,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: 's1',
    resource: RESOURCE,
  });
  const forged = await readConsentPage(await openAuthorization(url));
  const noCookie = await submitConsent(forged, 'approve', { cookie: '' });
  assert.equal(noCookie.status, 400);
  assert.equal(noCookie.headers.get('location'), null);
  assert.match(await noCookie.text(), /CSRF/);

  const page = await readConsentPage(await openAuthorization(url));
  const denied = await submitConsent(page, 'deny');
  const back = new URL(denied.headers.get('location')!);
  assert.deepEqual(
    [
      back.searchParams.get('error'),
      back.searchParams.get('state'),
      back.searchParams.get('iss'),
      back.searchParams.get('code'),
    ],
    ['access_denied', 's1', issuer, null],
  );
  const again = await submitConsent(page, 'approve');
  assert.equal(again.status, 400, 'a consent is answered once');
});

// bearerAuth on its own, against a real JWKS and introspection endpoint on 127.0.0.1 (the test issuer):
// which tokens pass, the exact challenges of each refusal, key rotation, introspection caching, and
// per-tool scopes. The clock is fake (`now`); the handler-level behaviour is in test/protected-server.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SignJWT } from 'jose';
import { startTestIssuer, type TestIssuer } from '../../../test/support/token-issuer.ts';
import { bearerAuth, type BearerAuthOptions } from './bearer-auth.ts';
import { parseBearerChallenge } from '../www-authenticate.ts';

const RESOURCE = 'https://mcp.example.com/mcp';
const NOW = 1_900_000_000; // seconds; the fake clock of every test
const METADATA_URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

function jwtAuth(issuer: TestIssuer, extra: Partial<BearerAuthOptions> = {}) {
  return bearerAuth({
    resource: RESOURCE,
    issuer: issuer.origin,
    jwksUri: issuer.jwksUri,
    now: () => NOW * 1000,
    onError: () => {},
    ...extra,
  });
}

function call(token?: string, init: { scheme?: string; url?: string } = {}): Request {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = `${init.scheme ?? 'Bearer'} ${token}`;
  return new Request(init.url ?? RESOURCE, { method: 'POST', headers, body: '{}' });
}

async function refusalOf(outcome: unknown) {
  assert.ok(outcome instanceof Response, `expected a refusal, got ${JSON.stringify(outcome)}`);
  return {
    status: outcome.status,
    challenge: parseBearerChallenge(outcome.headers.get('www-authenticate')),
    raw: outcome.headers.get('www-authenticate'),
    body: (await outcome.json()) as { error: string },
  };
}

test('AUTH-22: a valid JWT gives the principal (subject, client, scopes, expiry, claims) and not the token', async () => {
  await using issuer = await startTestIssuer();
  const auth = jwtAuth(issuer);
  const token = await issuer.mint(
    { sub: 'alice', client_id: 'app-1', aud: RESOURCE, scope: 'mcp read' },
    { now: NOW },
  );
  const principal = await auth.authenticate(call(token));
  assert.ok(!(principal instanceof Response));
  assert.equal(principal.subject, 'alice');
  assert.equal(principal.clientId, 'app-1');
  assert.deepEqual(principal.scopes, ['mcp', 'read']);
  assert.equal(principal.expiresAt, NOW + 300);
  assert.equal(principal.claims?.iss, issuer.origin);
  assert.equal(principal.principal, JSON.stringify([issuer.origin, 'alice', 'app-1']));
  assert.ok(!JSON.stringify(principal).includes(token), 'SEC-5: the token is not in the principal');
});

test('AUTH-6, AUTH-8: no token gets 401 naming the metadata and the scope, without an error code', async () => {
  await using issuer = await startTestIssuer();
  const refusal = await refusalOf(await jwtAuth(issuer, { scopes: ['mcp'] }).authenticate(call()));
  assert.equal(refusal.status, 401);
  assert.equal(refusal.raw, `Bearer scope="mcp", resource_metadata="${METADATA_URL}"`);
});

test('AUTH-22, SEC-5: a token for another audience is refused with 401 invalid_token', async () => {
  await using issuer = await startTestIssuer();
  const token = await issuer.mint({ sub: 'alice', aud: 'https://other.example.com/mcp' }, { now: NOW });
  const refusal = await refusalOf(await jwtAuth(issuer).authenticate(call(token)));
  assert.equal(refusal.status, 401);
  assert.equal(refusal.challenge.error, 'invalid_token');
  assert.equal(refusal.challenge.resourceMetadata, METADATA_URL);
  assert.match(refusal.challenge.errorDescription ?? '', /"aud"/);
});

test('AUTH-22: expiry with a 30 s clock skew: 10 s late passes, 60 s late is refused; so is a future nbf', async () => {
  await using issuer = await startTestIssuer();
  const auth = jwtAuth(issuer);
  const claims = { sub: 'alice', aud: RESOURCE };
  const late = await issuer.mint(claims, { now: NOW - 310 });
  assert.ok(!((await auth.authenticate(call(late))) instanceof Response));
  const expired = await issuer.mint(claims, { now: NOW - 360 });
  const refusal = await refusalOf(await auth.authenticate(call(expired)));
  assert.equal(refusal.status, 401);
  assert.equal(refusal.challenge.errorDescription, 'The access token has expired');
  const early = await issuer.mint({ ...claims, nbf: NOW + 120 }, { now: NOW });
  assert.equal((await refusalOf(await auth.authenticate(call(early)))).status, 401);
});

test('AUTH-22: wrong issuer, a foreign signature, HMAC and a token without exp are refused', async () => {
  await using issuer = await startTestIssuer();
  await using stranger = await startTestIssuer();
  const auth = jwtAuth(issuer);
  const claims = { sub: 'alice', aud: RESOURCE };
  const foreignIss = await issuer.mint({ ...claims, iss: 'https://evil.example' }, { now: NOW });
  // Same kid as the issuer's key, signed by another key.
  const forged = await stranger.mint({ ...claims, iss: issuer.origin }, { now: NOW });
  const hmac = await new SignJWT({ ...claims, iss: issuer.origin, exp: NOW + 60 })
    .setProtectedHeader({ alg: 'HS256', kid: issuer.keyId })
    .sign(new TextEncoder().encode('a shared secret of at least 32 bytes!'));
  const noExp = await issuer.mint({ ...claims, exp: undefined }, { now: NOW });
  for (const token of [foreignIss, forged, hmac, noExp]) {
    const refusal = await refusalOf(await auth.authenticate(call(token)));
    assert.equal(refusal.status, 401, refusal.challenge.errorDescription);
    assert.equal(refusal.challenge.error, 'invalid_token');
  }
});

test('key rotation: a token signed by a new key passes after one JWKS refetch; the retired key fails', async () => {
  await using issuer = await startTestIssuer();
  const auth = jwtAuth(issuer, { jwksCooldownMs: 0 });
  const claims = { sub: 'alice', aud: RESOURCE };
  const old = await issuer.mint(claims, { now: NOW });
  assert.ok(!((await auth.authenticate(call(old))) instanceof Response));
  assert.ok(!((await auth.authenticate(call(old))) instanceof Response));
  assert.equal(issuer.counts.jwks, 1, 'the key set is cached');
  await issuer.rotate();
  const fresh = await issuer.mint(claims, { now: NOW });
  assert.ok(!((await auth.authenticate(call(fresh))) instanceof Response));
  assert.equal(issuer.counts.jwks, 2, 'an unknown kid refetches the key set');
  assert.equal((await refusalOf(await auth.authenticate(call(old)))).status, 401);
});

test('a key set that cannot be fetched is 503 (the verifier failed), not 401, and is reported', async () => {
  await using issuer = await startTestIssuer();
  issuer.jwksStatus = 500;
  const errors: Error[] = [];
  const auth = jwtAuth(issuer, { onError: (error) => errors.push(error) });
  const token = await issuer.mint({ sub: 'alice', aud: RESOURCE }, { now: NOW });
  const refusal = await refusalOf(await auth.authenticate(call(token)));
  assert.equal(refusal.status, 503);
  assert.equal(refusal.raw, null);
  assert.equal(errors.length, 1);
});

test('AUTH-21, AUTH-25: a token in the query string or a malformed header is 400 invalid_request', async () => {
  await using issuer = await startTestIssuer();
  const auth = jwtAuth(issuer);
  const query = await refusalOf(
    await auth.authenticate(call(undefined, { url: `${RESOURCE}?access_token=x` })),
  );
  assert.equal(query.status, 400);
  assert.equal(query.challenge.error, 'invalid_request');
  const basic = await refusalOf(await auth.authenticate(call('dXNlcjpwYXNz', { scheme: 'Basic' })));
  assert.equal(basic.status, 400);
});

test('AUTH-26: a token without a required scope gets 403 insufficient_scope naming needed and held scopes', async () => {
  await using issuer = await startTestIssuer();
  const auth = jwtAuth(issuer, { scopes: ['mcp'], toolScopes: { deploy: ['deploy'] } });
  const lacking = await issuer.mint(
    { sub: 'alice', aud: RESOURCE, scope: 'read offline_access' },
    { now: NOW },
  );
  const refusal = await refusalOf(await auth.authenticate(call(lacking)));
  assert.equal(refusal.status, 403);
  assert.equal(refusal.challenge.error, 'insufficient_scope');
  assert.equal(refusal.challenge.scope, 'read mcp', 'S26-AUTH-7: offline_access is never challenged');
  assert.equal(refusal.challenge.resourceMetadata, METADATA_URL);

  const token = await issuer.mint({ sub: 'alice', aud: RESOURCE, scope: 'mcp' }, { now: NOW });
  const principal = await auth.authenticate(call(token));
  assert.ok(!(principal instanceof Response));
  const deploy = { method: 'tools/call', params: { name: 'deploy', arguments: {} } };
  const other = { method: 'tools/call', params: { name: 'echo' } };
  assert.equal(auth.authorize(principal, [other, { method: 'tools/list', params: {} }]), undefined);
  const stepUp = await refusalOf(auth.authorize(principal, [other, deploy]));
  assert.equal(stepUp.status, 403);
  assert.equal(stepUp.challenge.scope, 'mcp deploy');
  assert.equal(stepUp.challenge.errorDescription, 'This request needs the scope deploy');
  const allowed = { ...principal, scopes: ['mcp', 'deploy'] };
  assert.equal(auth.authorize(allowed, [deploy]), undefined);
});

test('RFC 7662: introspection answers are cached by token until the cache time or exp, whichever is first', async () => {
  await using issuer = await startTestIssuer();
  let now = NOW * 1000;
  const auth = bearerAuth({
    resource: RESOURCE,
    issuer: issuer.origin,
    introspection: {
      endpoint: issuer.introspectionEndpoint,
      clientId: 'resource-server',
      clientSecret: 'rs-secret',
      cacheMs: 60_000,
    },
    now: () => now,
  });
  issuer.opaque.set('opaque-1', {
    active: true,
    sub: 'bob',
    client_id: 'app-2',
    aud: RESOURCE,
    scope: 'mcp',
    exp: NOW + 90,
  });
  issuer.opaque.set('opaque-foreign', {
    active: true,
    sub: 'bob',
    aud: 'https://other.example/mcp',
    exp: NOW + 90,
  });
  const first = await auth.authenticate(call('opaque-1'));
  assert.ok(!(first instanceof Response));
  assert.equal(first.subject, 'bob');
  assert.deepEqual(first.scopes, ['mcp']);
  await auth.authenticate(call('opaque-1'));
  assert.equal(issuer.counts.introspection, 1, 'the second check is served from the cache');
  now += 61_000;
  assert.ok(!((await auth.authenticate(call('opaque-1'))) instanceof Response));
  assert.equal(issuer.counts.introspection, 2, 'past the cache time the endpoint is asked again');
  now += 60_000; // past exp and the skew
  assert.equal((await refusalOf(await auth.authenticate(call('opaque-1')))).status, 401);
  assert.equal((await refusalOf(await auth.authenticate(call('opaque-foreign')))).status, 401);
  const inactive = await refusalOf(await auth.authenticate(call('unknown')));
  assert.equal(inactive.challenge.errorDescription, 'The access token is not active');
});

test('AUTH-4, AUTH-6: the metadata document is served at the path-inserted and the root well-known URL', async () => {
  await using issuer = await startTestIssuer();
  const auth = jwtAuth(issuer, { scopes: ['mcp'], toolScopes: { deploy: ['deploy'] }, resourceName: 'Demo' });
  assert.equal(auth.resourceMetadataUrl, METADATA_URL);
  for (const url of [METADATA_URL, 'https://mcp.example.com/.well-known/oauth-protected-resource']) {
    const response = await auth.metadata(new Request(url));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    const document = (await response.json()) as Record<string, unknown>;
    assert.equal(document.resource, RESOURCE, 'S26-AUTH-9: exactly the resource, no added slash');
    assert.deepEqual(document.authorization_servers, [issuer.origin]);
    assert.deepEqual(document.scopes_supported, ['mcp', 'deploy']);
    assert.equal(document.resource_name, 'Demo');
  }
  assert.equal(await auth.metadata.exchange({ method: 'GET', pathname: '/mcp' }), undefined);
  assert.equal((await auth.metadata(new Request(METADATA_URL, { method: 'POST' }))).status, 405);
});

// DPoP (RFC 9449): the proofs themselves (header, claims, signature, `ath`, fresh `jti`), and the OAuth
// client over real HTTP on 127.0.0.1 against an authorization server and a resource that both demand
// a nonce first: one retry each, the token sent as `DPoP`, never as `Bearer`.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, EmbeddedJWK, jwtVerify } from 'jose';
import { startOAuthFixture } from '../../test/support/oauth-fixture.ts';
import { DpopProver } from './dpop.ts';
import { createOAuthFetch } from './oauth-fetch.ts';
import type { AuthorizationRequest } from './oauth-options.ts';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

test('S26-XAUTH-3, RFC 9449 §4.2: a proof is a dpop+jwt with the public jwk, htm, htu without query, iat, a fresh jti and ath', async () => {
  const prover = new DpopProver({}, () => NOW);
  const first = await prover.createProof({
    method: 'post',
    url: 'https://mcp.example/mcp?x=1#f',
    accessToken: 'the-token',
  });
  const second = await prover.createProof({ method: 'GET', url: 'https://mcp.example/mcp' });
  const header = decodeProtectedHeader(first);
  assert.equal(header.typ, 'dpop+jwt');
  assert.equal(header.alg, 'ES256');
  assert.equal(Object.hasOwn(header.jwk!, 'd'), false, 'no private key in the header');
  assert.equal(await calculateJwkThumbprint(header.jwk!, 'sha256'), await prover.thumbprint());
  const { payload } = await jwtVerify(first, EmbeddedJWK, { currentDate: new Date(NOW) });
  assert.equal(payload.htm, 'POST');
  assert.equal(payload.htu, 'https://mcp.example/mcp');
  assert.equal(payload.iat, NOW / 1000);
  assert.equal(payload.ath, createHash('sha256').update('the-token').digest('base64url'));
  assert.equal(payload.nonce, undefined);
  const later = decodeJwt(second);
  assert.equal(later.ath, undefined, 'no ath without an access token');
  assert.notEqual(later.jti, payload.jti);
});

test('S26-XAUTH-3: only asymmetric algorithms: none and HMAC are refused', () => {
  for (const alg of ['none', 'HS256']) assert.throws(() => new DpopProver({ alg }, () => NOW), /asymmetric/);
});

test('RFC 9449 §8: a DPoP-Nonce is kept per origin and carried by the next proofs there only', async () => {
  const prover = new DpopProver({}, () => NOW);
  const answer = new Response(null, { status: 400, headers: { 'dpop-nonce': 'n-1' } });
  assert.equal(prover.handleResponse('https://as.example/token', answer), true);
  assert.equal(prover.handleResponse('https://as.example/other', answer), false, 'the same nonce again');
  const there = decodeJwt(await prover.createProof({ method: 'POST', url: 'https://as.example/token' }));
  const elsewhere = decodeJwt(await prover.createProof({ method: 'POST', url: 'https://mcp.example/mcp' }));
  assert.equal(there.nonce, 'n-1');
  assert.equal(elsewhere.nonce, undefined);
});

/** Follows the authorization URL of the fixture, which approves at once. */
async function followAuthorization(request: AuthorizationRequest): Promise<URL> {
  const response = await fetch(request.url, { redirect: 'manual' });
  await response.body?.cancel();
  return new URL(response.headers.get('location')!);
}

/** The nonce a proof carries, if it verifies. */
async function nonceOf(proof: string | undefined): Promise<unknown> {
  if (proof === undefined) return undefined;
  return (await jwtVerify(proof, EmbeddedJWK)).payload.nonce;
}

test('S26-XAUTH-3, RFC 9449 §5, §7.1, §8, §9: a DPoP-bound token after one AS nonce retry; the DPoP scheme and one RS nonce retry', async () => {
  let issued = 0;
  await using server = await startOAuthFixture({
    token: async (request) => {
      if ((await nonceOf(request.dpop)) !== 'as-nonce')
        return { status: 400, body: { error: 'use_dpop_nonce' }, headers: { 'dpop-nonce': 'as-nonce' } };
      const token = `dpop-at-${++issued}`;
      server.acceptAccessToken(token);
      return { status: 200, body: { access_token: token, token_type: 'DPoP', expires_in: 3600 } };
    },
    mcp: async (request) => {
      if (request.authorization === undefined || (await nonceOf(request.dpop)) === 'rs-nonce')
        return undefined;
      return {
        status: 401,
        body: { error: 'use_dpop_nonce' },
        headers: { 'www-authenticate': 'DPoP error="use_dpop_nonce"', 'dpop-nonce': 'rs-nonce' },
      };
    },
  });
  const oauthFetch = createOAuthFetch(`${server.origin}/mcp`, {
    authorize: followAuthorization,
    redirectUri: 'http://127.0.0.1:1/callback',
    allowPrivateNetwork: true,
    dpop: {},
  });
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);
  assert.equal((await oauthFetch(mcpPost(server.origin))).status, 200);

  const tokens = server.requests.filter((r) => r.path === '/token');
  assert.deepEqual(await Promise.all(tokens.map((r) => nonceOf(r.dpop))), [undefined, 'as-nonce']);
  for (const token of tokens)
    assert.deepEqual(
      { htm: decodeJwt(token.dpop!).htm, htu: decodeJwt(token.dpop!).htu },
      { htm: 'POST', htu: `${server.origin}/token` },
    );
  const calls = server.requests.filter((r) => r.path === '/mcp');
  assert.deepEqual(
    calls.map((r) => r.authorization),
    [undefined, 'DPoP dpop-at-1', 'DPoP dpop-at-1', 'DPoP dpop-at-1'],
  );
  // One fixture is both servers, one origin: the first resource proof carries the nonce the AS gave it.
  assert.deepEqual(await Promise.all(calls.map((r) => nonceOf(r.dpop))), [
    undefined,
    'as-nonce',
    'rs-nonce',
    'rs-nonce',
  ]);
  for (const call of calls.slice(1))
    assert.equal(decodeJwt(call.dpop!).ath, createHash('sha256').update('dpop-at-1').digest('base64url'));
  assert.equal(
    new Set(calls.slice(1).map((r) => decodeJwt(r.dpop!).jti)).size,
    3,
    'a fresh proof per request',
  );
  assert.equal(server.requests.filter((r) => r.path === '/authorize').length, 1);
});

function mcpPost(origin: string): Request {
  return new Request(`${origin}/mcp`, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
}

// DPoP-bound tokens at the resource server (RFC 9449 §4.3, §7; S26-XAUTH-3's server-side rules): a
// bound token passes only as `DPoP` with a fresh proof by the bound key for this request and token.

import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { startTestIssuer, type TestIssuer } from '../../../test/support/token-issuer.ts';
import { parseBearerChallenge } from '../www-authenticate.ts';
import { bearerAuth } from './bearer-auth.ts';

const RESOURCE = 'https://mcp.example.com/mcp';
const NOW = 1_900_000_000;

interface Holder {
  privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  jwk: JWK;
  jkt: string;
}

async function holder(): Promise<Holder> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk, 'sha256') };
}

function ath(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

async function proof(key: Holder, token: string, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ htm: 'POST', htu: RESOURCE, iat: NOW, jti: randomUUID(), ath: ath(token), ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}

function request(authorization: string, dpop?: string): Request {
  const headers: Record<string, string> = { authorization };
  if (dpop !== undefined) headers.dpop = dpop;
  return new Request(`${RESOURCE}?ignored=1`, { method: 'POST', headers, body: '{}' });
}

async function setUp(issuer: TestIssuer) {
  const auth = bearerAuth({
    resource: RESOURCE,
    issuer: issuer.origin,
    jwksUri: issuer.jwksUri,
    now: () => NOW * 1000,
  });
  const key = await holder();
  const token = await issuer.mint({ sub: 'alice', aud: RESOURCE, cnf: { jkt: key.jkt } }, { now: NOW });
  return { auth, key, token };
}

async function refusal(outcome: Principal | Response) {
  assert.ok(outcome instanceof Response, 'expected a refusal');
  return { status: outcome.status, raw: outcome.headers.get('www-authenticate') ?? '' };
}

type Principal = Exclude<Awaited<ReturnType<ReturnType<typeof bearerAuth>['authenticate']>>, Response>;

test('S26-XAUTH-3: a DPoP-bound token with a valid proof passes; the same proof again is a replay', async () => {
  await using issuer = await startTestIssuer();
  const { auth, key, token } = await setUp(issuer);
  const once = await proof(key, token);
  const principal = await auth.authenticate(request(`DPoP ${token}`, once));
  assert.ok(!(principal instanceof Response));
  assert.equal(principal.subject, 'alice');
  assert.equal('boundKeyThumbprint' in principal, false);
  const replay = await refusal(await auth.authenticate(request(`DPoP ${token}`, once)));
  assert.equal(replay.status, 401);
  assert.match(replay.raw, /^DPoP error="invalid_dpop_proof", error_description="[^"]*replay/);
  assert.match(replay.raw, /algs="[^"]*ES256/);
});

test('RFC 9449 §7.2: a bound token sent as Bearer, or without a proof, is refused', async () => {
  await using issuer = await startTestIssuer();
  const { auth, token } = await setUp(issuer);
  const asBearer = await refusal(await auth.authenticate(request(`Bearer ${token}`)));
  assert.equal(asBearer.status, 401);
  assert.equal(parseBearerChallenge(asBearer.raw).error, 'invalid_token');
  const noProof = await refusal(await auth.authenticate(request(`DPoP ${token}`)));
  assert.equal(parseBearerChallenge(noProof.raw).error, 'invalid_dpop_proof');
});

test('RFC 9449 §4.3: wrong htm, htu, ath, stale iat, another key, or an unbound token are refused', async () => {
  await using issuer = await startTestIssuer();
  const { auth, key, token } = await setUp(issuer);
  const stranger = await holder();
  const unbound = await issuer.mint({ sub: 'alice', aud: RESOURCE }, { now: NOW });
  const cases: [string, string, string][] = [
    ['htm', token, await proof(key, token, { htm: 'GET' })],
    ['htu', token, await proof(key, token, { htu: 'https://mcp.example.com/other' })],
    ['ath', token, await proof(key, token, { ath: ath('another token') })],
    ['iat', token, await proof(key, token, { iat: NOW - 301 })],
    ['key', token, await proof(stranger, token)],
    ['unbound', unbound, await proof(key, unbound)],
  ];
  for (const [name, presented, dpop] of cases) {
    const refused = await refusal(await auth.authenticate(request(`DPoP ${presented}`, dpop)));
    assert.equal(refused.status, 401, name);
    const error = parseBearerChallenge(refused.raw).error;
    assert.equal(error, name === 'unbound' ? 'invalid_token' : 'invalid_dpop_proof', name);
  }
  // The checks above are each the only thing wrong: the same proof shape with nothing changed passes.
  assert.ok(
    !((await auth.authenticate(request(`DPoP ${token}`, await proof(key, token)))) instanceof Response),
  );
});

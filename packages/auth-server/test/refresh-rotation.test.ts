// Refresh tokens rotate (AUTH-29: the AS MUST rotate refresh tokens for public clients; OAuth 2.1
// §4.3.1): each use returns a successor, and presenting a spent one again revokes the whole family.
// A code redeemed twice revokes what it issued (RFC 6749 §4.1.2); RFC 7009 revocation ends a family.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeJwt } from 'jose';
import { createAuthorizationServer } from '../src/index.ts';
import { codeFor, registerPublicClient, tokenRequest } from '../../../test/support/oauth-driver.ts';

const REDIRECT = 'http://127.0.0.1:8765/callback';
const RESOURCE = 'https://mcp.example.com/mcp';

async function startFlow(): Promise<{
  server: Awaited<ReturnType<ReturnType<typeof createAuthorizationServer>['listen']>>;
  clientId: string;
  tokens: Record<string, unknown>;
  code: string;
  verifier: string;
}> {
  const server = await createAuthorizationServer({ shouldAutoApprove: true }).listen();
  const clientId = await registerPublicClient(server.issuer, REDIRECT);
  const { code, pkce } = await codeFor(server.issuer, clientId, {
    redirectUri: REDIRECT,
    resource: RESOURCE,
    scope: 'a b',
  });
  const { status, json } = await tokenRequest(server.issuer, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: pkce.verifier,
    client_id: clientId,
  });
  assert.equal(status, 200, JSON.stringify(json));
  return { server, clientId, tokens: json, code, verifier: pkce.verifier };
}

test('a refresh returns a new refresh token and a new access token for the same resource; scope may narrow', async () => {
  const { server, clientId, tokens } = await startFlow();
  await using _ = server;
  const first = tokens.refresh_token as string;
  const refreshed = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: first,
    client_id: clientId,
    scope: 'a',
  });
  assert.equal(refreshed.status, 200, JSON.stringify(refreshed.json));
  assert.notEqual(refreshed.json.refresh_token, first, 'rotated');
  const claims = decodeJwt(refreshed.json.access_token as string);
  assert.deepEqual([claims.aud, claims.scope], [RESOURCE, 'a']);
  const wider = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: refreshed.json.refresh_token as string,
    client_id: clientId,
    scope: 'a c',
  });
  assert.deepEqual([wider.status, wider.json.error], [400, 'invalid_scope']);
  // RFC 6749 §6: the successor keeps the original scope, so it can still get "a b".
  const successor = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: refreshed.json.refresh_token as string,
    client_id: clientId,
  });
  assert.equal(successor.status, 200, JSON.stringify(successor.json));
  assert.equal(successor.json.scope, 'a b');
});

test('reuse of a rotated refresh token is refused and revokes its family, the newest token included', async () => {
  const { server, clientId, tokens } = await startFlow();
  await using _ = server;
  const first = tokens.refresh_token as string;
  const second = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: first,
    client_id: clientId,
  });
  assert.equal(second.status, 200);
  const replay = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: first,
    client_id: clientId,
  });
  assert.deepEqual([replay.status, replay.json.error], [400, 'invalid_grant']);
  assert.match(replay.json.error_description as string, /already used/);
  const newest = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: second.json.refresh_token as string,
    client_id: clientId,
  });
  assert.deepEqual([newest.status, newest.json.error], [400, 'invalid_grant'], 'the family is revoked');
});

test('a refresh token of another client, or for another resource, is refused', async () => {
  const { server, clientId, tokens } = await startFlow();
  await using _ = server;
  const other = await registerPublicClient(server.issuer, REDIRECT);
  const stolen = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token as string,
    client_id: other,
  });
  assert.deepEqual([stolen.status, stolen.json.error], [400, 'invalid_grant']);
  const retarget = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token as string,
    client_id: clientId,
    resource: 'https://other.example.com/mcp',
  });
  assert.deepEqual([retarget.status, retarget.json.error], [400, 'invalid_target']);
});

test('a code redeemed twice is refused and the refresh token it issued is revoked', async () => {
  const { server, clientId, tokens, code, verifier } = await startFlow();
  await using _ = server;
  const again = await tokenRequest(server.issuer, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_id: clientId,
  });
  assert.deepEqual([again.status, again.json.error], [400, 'invalid_grant']);
  const refresh = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token as string,
    client_id: clientId,
  });
  assert.deepEqual([refresh.status, refresh.json.error], [400, 'invalid_grant']);
});

test('RFC 7009: revoking the refresh token ends it; an unknown token is a 200 too', async () => {
  const { server, clientId, tokens } = await startFlow();
  await using _ = server;
  const revoke = (token: string): Promise<Response> =>
    fetch(`${server.issuer}/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, client_id: clientId, token_type_hint: 'refresh_token' }).toString(),
    });
  assert.equal((await revoke(tokens.refresh_token as string)).status, 200);
  assert.equal((await revoke('no-such-token')).status, 200);
  const refresh = await tokenRequest(server.issuer, {
    grant_type: 'refresh_token',
    refresh_token: tokens.refresh_token as string,
    client_id: clientId,
  });
  assert.deepEqual([refresh.status, refresh.json.error], [400, 'invalid_grant']);
});

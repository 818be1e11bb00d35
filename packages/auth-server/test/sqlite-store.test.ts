// The SQLite store (`store: { file }`): what a restart must keep (registrations, refresh-token
// families with their reuse detection, AUTH-29; the signing key, so tokens still verify), what must
// go (consents and codes past their lifetime, OAuth 2.1 §4.1.2), and how the file is opened.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { createAuthorizationServer, type AuthorizationServerOptions } from '../src/index.ts';
import { createMemoryStore } from '../src/memory-store.ts';
import { CODE_TTL_MS, CONSENT_TTL_MS } from '../src/options.ts';
import {
  authorizationUrl,
  codeFor,
  createPkce,
  openAuthorization,
  readConsentPage,
  registerPublicClient,
  submitConsent,
  tokenRequest,
} from '../../../test/support/oauth-driver.ts';

const REDIRECT = 'http://127.0.0.1:8765/callback';
const RESOURCE = 'https://mcp.example.com/mcp';

/** A temporary folder with a database path in it; disposing removes the folder. */
function tempDatabase(): { file: string } & Disposable {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-auth-db-'));
  return {
    file: join(dir, 'nested', 'auth.db'),
    [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** One issuer for every start: a restart keeps it, while each start gets a port of its own. */
const ISSUER = 'http://auth.invalid';

/**
 * Listens on a free port with the SQLite store at `file`; `base` is where to reach it. A new port per
 * start keeps a restart clear of the client's pooled connections to the previous process.
 */
async function start(
  file: string,
  options: AuthorizationServerOptions = {},
): Promise<{ base: string; close(): Promise<void> } & AsyncDisposable> {
  const server = await createAuthorizationServer({ issuer: ISSUER, store: { file }, ...options }).listen();
  return {
    base: `http://127.0.0.1:${server.port}`,
    close: () => server.close(),
    [Symbol.asyncDispose]: () => server.close(),
  };
}

/** The row counts of `tables` in the database at `file`, read over a connection of its own. */
function countRows(file: string, tables: readonly string[]): Record<string, number> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      tables.map((table) => [table, db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number]),
    );
  } finally {
    db.close();
  }
}

test('a refresh token issued before a restart is accepted after it, and so is the access token', async () => {
  using database = tempDatabase();
  const before = await start(database.file, { shouldAutoApprove: true });
  const clientId = await registerPublicClient(before.base, REDIRECT);
  const { code, pkce } = await codeFor(before.base, clientId, {
    redirectUri: REDIRECT,
    resource: RESOURCE,
  });
  const issued = await tokenRequest(before.base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: pkce.verifier,
    client_id: clientId,
  });
  assert.equal(issued.status, 200, JSON.stringify(issued.json));
  await before.close();

  await using after = await start(database.file);
  const jwks = createRemoteJWKSet(new URL(`${after.base}/jwks.json`));
  const verified = await jwtVerify(issued.json.access_token as string, jwks, {
    issuer: ISSUER,
    audience: RESOURCE,
  });
  assert.equal(verified.payload.client_id, clientId, 'the signing key survived the restart');
  const refreshed = await tokenRequest(after.base, {
    grant_type: 'refresh_token',
    refresh_token: issued.json.refresh_token as string,
    client_id: clientId,
  });
  assert.equal(refreshed.status, 200, JSON.stringify(refreshed.json));
  assert.notEqual(refreshed.json.refresh_token, issued.json.refresh_token, 'rotated');
});

test('reuse detection survives a restart: a token rotated before it revokes its family after it', async () => {
  using database = tempDatabase();
  const before = await start(database.file, { shouldAutoApprove: true });
  const clientId = await registerPublicClient(before.base, REDIRECT);
  const { code, pkce } = await codeFor(before.base, clientId, {
    redirectUri: REDIRECT,
    resource: RESOURCE,
  });
  const first = await tokenRequest(before.base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: pkce.verifier,
    client_id: clientId,
  });
  const second = await tokenRequest(before.base, {
    grant_type: 'refresh_token',
    refresh_token: first.json.refresh_token as string,
    client_id: clientId,
  });
  assert.equal(second.status, 200, JSON.stringify(second.json));
  await before.close();

  await using after = await start(database.file);
  const replay = await tokenRequest(after.base, {
    grant_type: 'refresh_token',
    refresh_token: first.json.refresh_token as string,
    client_id: clientId,
  });
  assert.deepEqual([replay.status, replay.json.error], [400, 'invalid_grant']);
  assert.match(replay.json.error_description as string, /already used/);
  const newest = await tokenRequest(after.base, {
    grant_type: 'refresh_token',
    refresh_token: second.json.refresh_token as string,
    client_id: clientId,
  });
  assert.deepEqual([newest.status, newest.json.error], [400, 'invalid_grant'], 'the family is revoked');
});

test('consents and codes past their lifetime are refused and deleted from the file', async () => {
  using database = tempDatabase();
  let clock = Date.parse('2026-01-01T00:00:00Z');
  // The issuer is where it listens here: the consent form posts to `<issuer>/authorize`.
  await using listening = await createAuthorizationServer({
    store: database,
    now: () => clock,
  }).listen();
  const server = { base: listening.issuer };
  const clientId = await registerPublicClient(server.base, REDIRECT);
  const authorize = async () =>
    readConsentPage(
      await openAuthorization(
        authorizationUrl(server.base, {
          client_id: clientId,
          redirect_uri: REDIRECT,
          code_challenge: createPkce().challenge,
          code_challenge_method: 'S256',
          resource: RESOURCE,
        }),
      ),
    );
  const unanswered = await authorize();
  const approved = await submitConsent(await authorize(), 'approve');
  const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
  const tables = ['pending_consents', 'authorization_codes'];
  assert.deepEqual(countRows(database.file, tables), { pending_consents: 1, authorization_codes: 1 });

  clock += Math.max(CODE_TTL_MS, CONSENT_TTL_MS);
  const late = await submitConsent(unanswered, 'approve');
  assert.equal(late.status, 400);
  assert.match(await late.text(), /expired or was already answered/);
  const redeemed = await tokenRequest(server.base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: createPkce().verifier,
    client_id: clientId,
  });
  assert.deepEqual([redeemed.status, redeemed.json.error], [400, 'invalid_grant']);
  assert.deepEqual(countRows(database.file, tables), { pending_consents: 0, authorization_codes: 0 });
  assert.equal(countRows(database.file, ['clients']).clients, 1, 'registrations are kept');
});

test('the memory store deletes expired consents and codes too', () => {
  const store = createMemoryStore();
  const grant = { clientId: 'c', redirectUri: REDIRECT, scopes: [], resource: RESOURCE, codeChallenge: 'x' };
  store.putPending({ id: 'old', csrf: 'x', grant, expiresAt: 100 });
  store.putPending({ id: 'new', csrf: 'x', grant, expiresAt: 300 });
  store.putCode('old-code', { grant, subject: 's', expiresAt: 100, isUsed: false });
  store.deleteExpired(200);
  assert.equal(store.getCode('old-code'), undefined);
  assert.equal(store.takePending('old'), undefined);
  assert.equal(store.takePending('new')?.id, 'new');
});

test('the file is created owner-only, in WAL mode, at the newest schema; a newer schema is refused', async () => {
  using database = tempDatabase();
  await createAuthorizationServer({ issuer: 'http://127.0.0.1:1', store: database }).close();
  assert.equal(statSync(database.file).mode & 0o777, 0o600);
  const db = new Database(database.file);
  try {
    assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
    assert.equal(db.pragma('user_version', { simple: true }), 1);
    db.pragma('user_version = 99');
  } finally {
    db.close();
  }
  assert.throws(
    () => createAuthorizationServer({ issuer: 'http://127.0.0.1:1', store: database }),
    /schema version 99, newer than this server's 1; upgrade @mcpwire\/auth-server/,
  );
});

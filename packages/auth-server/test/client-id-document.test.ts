// Client ID Metadata Documents (AUTH-15): a client_id that is a URL is fetched, its `client_id` must
// equal the URL, its redirect URIs govern the request, and it is cached per Cache-Control. The
// documents are served by a real HTTP server on 127.0.0.1, which only an explicit option lets through (SEC-6).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createAuthorizationServer } from '../src/index.ts';
import {
  authorizationUrl,
  authorizeWithConsent,
  createPkce,
  openAuthorization,
  tokenRequest,
} from '../../../test/support/oauth-driver.ts';

const REDIRECT = 'http://127.0.0.1:8765/callback';
const RESOURCE = 'http://127.0.0.1:3000/mcp';

/** A document host: serves `documents[path]` (with its Cache-Control) and counts the requests per path. */
async function documentHost(
  documents: Record<
    string,
    (base: string) => { body: unknown; cacheControl?: string; status?: number; location?: string }
  >,
): Promise<{ base: string; hits: Map<string, number> } & AsyncDisposable> {
  const hits = new Map<string, number>();
  let base = '';
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const make = documents[path];
    if (make === undefined) return void response.writeHead(404).end();
    const { body, cacheControl, status, location } = make(base);
    response.writeHead(status ?? 200, {
      'content-type': 'application/json',
      ...(cacheControl === undefined ? {} : { 'cache-control': cacheControl }),
      ...(location === undefined ? {} : { location }),
    });
    response.end(JSON.stringify(body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    hits,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

const goodDocument = (base: string): { body: unknown; cacheControl: string } => ({
  body: {
    client_id: `${base}/client.json`,
    client_name: 'Metadata Document Client',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
  },
  cacheControl: 'max-age=60',
});

function authorizeParams(clientId: string): Record<string, string> {
  return {
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createPkce().challenge,
    code_challenge_method: 'S256',
    resource: RESOURCE,
  };
}

test('a client identified by its metadata document URL completes the code flow; the document is cached per max-age', async () => {
  await using host = await documentHost({ '/client.json': goodDocument });
  await using server = await createAuthorizationServer({ canFetchLoopbackClientMetadata: true }).listen();
  const clientId = `${host.base}/client.json`;
  const pkce = createPkce();
  const page = await openAuthorization(
    authorizationUrl(server.issuer, { ...authorizeParams(clientId), code_challenge: pkce.challenge }),
  );
  assert.match(
    await page.clone().text(),
    /Metadata Document Client/,
    'the consent page names the client from its document',
  );
  const back = await authorizeWithConsent(
    authorizationUrl(server.issuer, { ...authorizeParams(clientId), code_challenge: pkce.challenge }),
  );
  const token = await tokenRequest(server.issuer, {
    grant_type: 'authorization_code',
    code: back.searchParams.get('code')!,
    redirect_uri: REDIRECT,
    code_verifier: pkce.verifier,
    client_id: clientId,
  });
  assert.equal(token.status, 200, JSON.stringify(token.json));
  assert.equal(host.hits.get('/client.json'), 1, 'fetched once, then served from the cache (max-age=60)');
});

test('a document whose client_id is not its URL, one without client_name, a redirect, and a redirect_uri it does not list are refused', async () => {
  await using host = await documentHost({
    '/wrong-id.json': (base) => ({
      body: { ...(goodDocument(base).body as object), client_id: `${base}/other.json` },
    }),
    '/no-name.json': (base) => ({ body: { client_id: `${base}/no-name.json`, redirect_uris: [REDIRECT] } }),
    '/moved.json': (base) => ({ body: {}, status: 302, location: `${base}/client.json` }),
    '/client.json': goodDocument,
  });
  await using server = await createAuthorizationServer({ canFetchLoopbackClientMetadata: true }).listen();
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    // Not this client's document: described as no document at all (SEC-6).
    ['/wrong-id.json', {}, /could not be fetched/],
    ['/no-name.json', {}, /no client_name/],
    ['/moved.json', {}, /could not be fetched/],
    ['/client.json', { redirect_uri: 'http://127.0.0.1:8765/not-listed' }, /not registered for this client/],
  ];
  for (const [path, extra, message] of cases) {
    const response = await openAuthorization(
      authorizationUrl(server.issuer, { ...authorizeParams(`${host.base}${path}`), ...extra }),
    );
    assert.equal(response.status, 400, path);
    assert.equal(response.headers.get('location'), null, `${path}: no redirect`);
    assert.match(await response.text(), message, path);
  }
});

test('without the loopback option, an http://127.0.0.1 document URL is not fetched (SEC-6)', async () => {
  await using host = await documentHost({ '/client.json': goodDocument });
  await using server = await createAuthorizationServer().listen();
  const response = await openAuthorization(
    authorizationUrl(server.issuer, authorizeParams(`${host.base}/client.json`)),
  );
  assert.equal(response.status, 400);
  assert.match(await response.text(), /must be an https URL/);
  assert.equal(host.hits.size, 0, 'nothing was fetched');
});

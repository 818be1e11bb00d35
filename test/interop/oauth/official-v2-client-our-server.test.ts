// The official v2 client (@modelcontextprotocol/client 2.4) with its OAuth provider completes the
// authorization code flow against our server protected by `bearerAuth` and our development
// authorization server, over real sockets on 127.0.0.1 (issue 11, "What it must show" 2): the 401
// (AUTH-6a), protected resource metadata (AUTH-4), AS metadata, dynamic registration (AUTH-3), the
// consent page answered with fetch, the token, the reconnection whose tool call sees `ctx.auth`;
// then a refresh (AUTH-29: rotated, so the spent refresh token is refused afterwards).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';

import { createAuthorizationServer } from '@mcpwire/auth-server';
import { bearerAuth } from 'mcpwire/auth';
import { chainHandlers, createHttpHandler } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { Server } from 'mcpwire/server';
import { freePort } from '../../support/free-port.ts';
import { authorizeWithConsent, tokenRequest } from '../../support/oauth-driver.ts';

const REDIRECT_URL = 'http://127.0.0.1:8977/callback';
const SCOPE = 'mcp:tools';

type ClientInformation = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];
type Tokens = Parameters<OAuthClientProvider['saveTokens']>[0];
type DiscoveryState = Parameters<NonNullable<OAuthClientProvider['saveDiscoveryState']>>[0];

/** An in-memory provider whose "browser" answers our consent page and keeps the callback URL. */
class ConsentingProvider implements OAuthClientProvider {
  callback: URL | undefined;
  readonly authorizationUrls: URL[] = [];
  client: ClientInformation | undefined;
  saved: Tokens | undefined;
  #verifier = '';
  #discovery: DiscoveryState | undefined;

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata() {
    return {
      client_name: 'official-v2-oauth-interop',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(information: ClientInformation): void {
    this.client = information;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: Tokens): void {
    this.saved = tokens;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    this.callback = await authorizeWithConsent(url.href);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }

  // Kept so the callback leg checks the code comes from the authorization server discovered (SEP-2352).
  saveDiscoveryState(state: DiscoveryState): void {
    this.#discovery = state;
  }

  discoveryState(): DiscoveryState | undefined {
    return this.#discovery;
  }
}

/** A fetch for the official transport that names each request it makes (and each token grant). */
function loggingFetch(log: string[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const path = new URL(request.url).pathname;
    const grant =
      path === '/token' ? ` ${new URLSearchParams(await request.clone().text()).get('grant_type')}` : '';
    const response = await fetch(request);
    log.push(`${request.method} ${path}${grant} -> ${response.status}`);
    return response;
  };
}

/**
 * Our server protected by `bearerAuth` for `issuer`'s JWTs, at `http://127.0.0.1:<port>/mcp`:
 * `whoami` answers with `ctx.auth`. (The library's own tests have a twin in packages/mcpwire/test/support,
 * which the package rule keeps out of reach here: this one uses the public entry points only.)
 */
async function startOurProtectedServer(
  issuer: string,
): Promise<{ url: string; logs: string[] } & AsyncDisposable> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const logs: string[] = [];
  const auth = bearerAuth({
    resource: url,
    issuer,
    jwksUri: `${issuer}/jwks.json`,
    scopes: [SCOPE],
    onRefusal: (refusal) => logs.push(JSON.stringify(refusal)),
    onError: (error) => logs.push(`${error.message} ${String(error.cause ?? '')}`),
  });
  const server = new Server({ name: 'protected', version: '1.0.0' });
  server.tool({ name: 'whoami' }, (_args, ctx) => JSON.stringify({ auth: ctx.auth }));
  const handler = createHttpHandler(server, { auth, onError: (error) => logs.push(error.message) });
  const handle = await serveHttp(chainHandlers(auth.metadata, handler), { port });
  return { url, logs, [Symbol.asyncDispose]: () => handle.close() };
}

async function whoami(client: Client): Promise<{ subject: string; scopes: string[]; clientId: string }> {
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  const [content] = result.content as { type: string; text: string }[];
  return (JSON.parse(content!.text) as { auth: { subject: string; scopes: string[]; clientId: string } })
    .auth;
}

test('the official v2 client’s OAuth provider completes the flow against our server and our authorization server, then refreshes', async () => {
  await using authorizationServer = await createAuthorizationServer().listen();
  const { issuer } = authorizationServer;
  await using server = await startOurProtectedServer(issuer);
  const provider = new ConsentingProvider();
  const log: string[] = [];
  const transport = (): StreamableHTTPClientTransport =>
    new StreamableHTTPClientTransport(new URL(server.url), {
      authProvider: provider,
      fetch: loggingFetch(log),
    });

  const first = transport();
  await assert.rejects(
    new Client({ name: 'official', version: '2.4.0' }).connect(first),
    (error) => error instanceof UnauthorizedError,
  );
  assert.ok(provider.callback, 'the provider went through the consent page');
  assert.equal(provider.callback.searchParams.get('iss'), issuer, 'RFC 9207 iss in the redirect');
  const [authorization] = provider.authorizationUrls;
  assert.equal(authorization!.searchParams.get('resource'), server.url, 'resource as published (AUTH-19)');
  assert.equal(authorization!.searchParams.get('code_challenge_method'), 'S256');
  assert.match(provider.client?.client_id ?? '', /^dev-client-/, 'registered dynamically at our server');
  await first.finishAuth(provider.callback.searchParams);
  await first.close();
  const authorizationLog = log.filter((line) => !line.startsWith('POST /mcp'));
  // With the discovery state kept, the callback leg reuses it: one discovery, then the token request.
  assert.deepEqual(authorizationLog, [
    'GET /.well-known/oauth-protected-resource/mcp -> 200',
    'GET /.well-known/oauth-authorization-server -> 200',
    'POST /register -> 201',
    'POST /token authorization_code -> 200',
  ]);
  assert.equal(log[0], 'POST /mcp -> 401', 'the first request met the challenge');

  const client = new Client({ name: 'official', version: '2.4.0' });
  await client.connect(transport());
  try {
    const principal = await whoami(client);
    assert.equal(principal.subject, 'alice', 'ctx.auth.subject is whom the consent page approved');
    assert.deepEqual(principal.scopes, [SCOPE]);
    assert.equal(principal.clientId, provider.client?.client_id);
  } finally {
    await client.close();
  }

  // The access token stops working; the refresh token still does: the 401 leads to a refresh grant.
  const spent = provider.saved!.refresh_token!;
  assert.ok(spent, 'a refresh token was issued');
  provider.saved = { ...provider.saved!, access_token: 'revoked-access-token' };
  log.length = 0;
  const refreshed = new Client({ name: 'official', version: '2.4.0' });
  await refreshed.connect(transport());
  try {
    assert.equal((await whoami(refreshed)).subject, 'alice');
  } finally {
    await refreshed.close();
  }
  assert.deepEqual(
    log.filter((line) => line.startsWith('POST /token')),
    ['POST /token refresh_token -> 200'],
    'exactly one refresh, no new authorization',
  );
  assert.equal(provider.authorizationUrls.length, 1);
  assert.notEqual(provider.saved!.refresh_token, spent, 'the refresh token rotated');
  const replay = await tokenRequest(issuer, {
    grant_type: 'refresh_token',
    refresh_token: spent,
    client_id: provider.client!.client_id,
  });
  assert.deepEqual([replay.status, replay.json.error], [400, 'invalid_grant'], 'the spent token is refused');
  assert.ok(
    server.logs.every((line) => !line.includes(spent) && !line.includes('revoked-access-token')),
    'no token in the server’s logs',
  );
});

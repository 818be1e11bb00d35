// Interop over real sockets on 127.0.0.1: the official v2 client (@modelcontextprotocol/client) with its
// OAuth provider completes the authorization code flow against our protected server and the test
// issuer: 401 -> protected resource metadata -> AS metadata -> registration -> authorize -> token ->
// the retried connection, whose tool call sees the principal in `ctx.auth`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import type { Loose } from './support/http-kit.ts';
import { startProtectedServer } from './support/protected-server.ts';
import { startTestIssuer } from './support/token-issuer.ts';

const REDIRECT_URL = 'http://127.0.0.1:1/callback';

type ClientInformation = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];
type Tokens = Parameters<OAuthClientProvider['saveTokens']>[0];

/** An in-memory provider whose "browser" follows the authorization URL and keeps the callback URL. */
class MemoryProvider implements OAuthClientProvider {
  callback: URL | undefined;
  authorizationUrls: URL[] = [];
  #client: ClientInformation | undefined;
  #tokens: Tokens | undefined;
  #verifier = '';

  get redirectUrl(): string {
    return REDIRECT_URL;
  }

  get clientMetadata() {
    return {
      client_name: 'official-v2-interop',
      redirect_uris: [REDIRECT_URL],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.#client;
  }

  saveClientInformation(information: ClientInformation): void {
    this.#client = information;
  }

  tokens() {
    return this.#tokens;
  }

  saveTokens(tokens: Tokens): void {
    this.#tokens = tokens;
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    this.authorizationUrls.push(url);
    const response = await fetch(url, { redirect: 'manual' });
    await response.body?.cancel();
    this.callback = new URL(response.headers.get('location')!);
  }

  saveCodeVerifier(verifier: string): void {
    this.#verifier = verifier;
  }

  codeVerifier(): string {
    return this.#verifier;
  }
}

test('the official v2 client’s OAuth provider completes the code flow against our protected server', async () => {
  await using issuer = await startTestIssuer();
  await using server = await startProtectedServer({
    issuer: issuer.origin,
    jwksUri: issuer.jwksUri,
    scopes: ['mcp'],
  });
  issuer.flowClaims = { sub: 'dave' };
  const provider = new MemoryProvider();
  const first = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  await assert.rejects(
    new Client({ name: 'official', version: '2.0.0' }).connect(first),
    (error) => error instanceof UnauthorizedError,
  );
  assert.ok(provider.callback, 'the provider was sent to the authorization endpoint');
  assert.equal(provider.authorizationUrls[0]!.searchParams.get('resource'), server.url);
  await first.finishAuth(provider.callback.searchParams);
  await first.close();

  const client = new Client({ name: 'official', version: '2.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { authProvider: provider });
  await client.connect(transport);
  try {
    const result = await client.callTool({ name: 'whoami', arguments: {} });
    const seen = JSON.parse((result.content as Loose)[0].text as string) as Loose;
    assert.equal(seen.auth.subject, 'dave');
    assert.deepEqual(seen.auth.scopes, ['mcp']);
    assert.equal(issuer.counts.token, 1);
  } finally {
    await client.close();
  }
});

// OAuth beneath the HTTP client's pool (issue 26): a Client whose transport takes
// createOAuthAuthorization (not an OAuth fetch) sends its MCP requests over Node's keep-alive pool,
// never the global fetch, and still completes 401 -> authorization -> retry against the development
// authorization server (@mcpwire/auth-server) and a bearer-protected mcpwire server, all on 127.0.0.1.
// The token goes to the MCP server's origin only (AUTH-23, no token passthrough).

import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { createAuthorizationServer } from '@mcpwire/auth-server';
import { bearerAuth, createOAuthAuthorization, type OAuthClientOptions } from 'mcpwire/auth';
import { Client } from 'mcpwire/client';
import { chainHandlers, createHttpHandler, StreamableHttpClientTransport } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { Server } from 'mcpwire/server';
import { freePort } from '../support/free-port.ts';
import { authorizeWithConsent } from '../support/oauth-driver.ts';

/** A bearer-protected mcpwire server trusting `issuer`; records each request's Authorization scheme. */
async function protectedServer(issuer: string): Promise<{ url: string; seen: string[] } & AsyncDisposable> {
  const url = `http://127.0.0.1:${await freePort()}/mcp`;
  const auth = bearerAuth({ resource: url, issuer, jwksUri: `${issuer}/jwks.json` });
  const server = new Server({ name: 'protected', version: '1.0.0' });
  server.tool({ name: 'whoami' }, (_args, ctx) => ctx.auth?.subject ?? 'nobody');
  const handle = await serveHttp(chainHandlers(auth.metadata, createHttpHandler(server, { auth })), {
    port: Number(new URL(url).port),
  });
  const seen: string[] = [];
  handle.server.on('request', (request: { url?: string; headers: { authorization?: string } }) => {
    if (request.url === '/mcp') seen.push(request.headers.authorization?.split(' ')[0] ?? '(none)');
  });
  return { url, seen, [Symbol.asyncDispose]: () => handle.close() };
}

/** The global fetch refuses the MCP endpoint while `run` runs (others pass: metadata, consent, token). */
async function withoutGlobalFetchFor<T>(endpoint: string, run: () => Promise<T>): Promise<T> {
  const saved = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (new URL(url).href === endpoint)
      return Promise.reject(new Error(`the global fetch was called for ${url}`));
    return saved(input, init);
  };
  try {
    return await run();
  } finally {
    globalThis.fetch = saved;
  }
}

function oauthOptions(authorizations: URL[]): OAuthClientOptions {
  return {
    redirectUri: 'http://127.0.0.1:8976/callback',
    clientMetadata: { client_name: 'pool test' },
    allowPrivateNetwork: true,
    authorize: async ({ url }) => {
      authorizations.push(url);
      return (await authorizeWithConsent(url.href, { subject: 'alice' })).href;
    },
  };
}

for (const era of ['handshake', 'stateless'] as const) {
  test(`${era}: a client with createOAuthAuthorization authorizes over the pool, the global fetch unused`, async () => {
    await using authorizationServer = await createAuthorizationServer().listen();
    await using resource = await protectedServer(authorizationServer.issuer);
    const authorizations: URL[] = [];
    const authorization = createOAuthAuthorization(resource.url, oauthOptions(authorizations));
    const client = new Client({ name: 'pool-auth', version: '1.0.0' }, { era, eraCache: false });
    after(() => client.close());
    const subjects = await withoutGlobalFetchFor(resource.url, async () => {
      await client.connect(new StreamableHttpClientTransport(resource.url, { authorization }));
      const texts: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        texts.push((result.content[0] as { text?: string }).text);
      }
      return texts;
    });
    assert.deepEqual(subjects, ['alice', 'alice', 'alice']);
    assert.equal(authorizations.length, 1, 'one authorization, the token reused');
    assert.equal(resource.seen[0], '(none)', 'the first request carried no token and met the 401');
    assert.ok(resource.seen.length >= 4);
    assert.deepEqual(new Set(resource.seen.slice(1)), new Set(['Bearer']));
  });
}

test('createOAuthAuthorization adds the token to its server origin only (AUTH-23)', async () => {
  await using authorizationServer = await createAuthorizationServer().listen();
  await using resource = await protectedServer(authorizationServer.issuer);
  const authorization = createOAuthAuthorization(resource.url, oauthOptions([]));
  const client = new Client({ name: 'pool-auth', version: '1.0.0' }, { era: 'stateless', eraCache: false });
  after(() => client.close());
  await client.connect(new StreamableHttpClientTransport(resource.url, { authorization }));
  await client.callTool({ name: 'whoami', arguments: {} });
  const sent: (string | null)[] = [];
  const sendOnce = (headers: Headers): Promise<Response> => {
    sent.push(headers.get('authorization'));
    return Promise.resolve(new Response(null, { status: 401, headers: { 'www-authenticate': 'Bearer' } }));
  };
  // Same host, another port; another scheme; another host: none is the server's origin.
  const port = Number(new URL(resource.url).port);
  for (const other of [
    `http://127.0.0.1:${port + 1}/mcp`,
    `https://127.0.0.1:${port}/mcp`,
    'http://localhost/mcp',
  ]) {
    const response = await authorization.send(
      { method: 'POST', url: new URL(other), headers: new Headers() },
      sendOnce,
    );
    assert.equal(
      response.status,
      401,
      'a refusal from another origin starts no flow and is returned as it is',
    );
  }
  assert.deepEqual(sent.slice(), [null, null, null] as (string | null)[]);
  const own = await authorization.send(
    { method: 'POST', url: new URL(resource.url), headers: new Headers() },
    (headers) => {
      sent.push(headers.get('authorization'));
      return Promise.resolve(new Response('{}'));
    },
  );
  assert.equal(own.status, 200);
  assert.match(sent.at(-1) ?? '', /^Bearer ./, 'the server origin gets the token');
});

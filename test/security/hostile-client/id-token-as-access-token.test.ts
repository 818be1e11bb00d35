// A client that holds an ID token (issued to it by the same authorization server, signed by the same
// key) presents it as an access token. RFC 9068 §4: a resource server checks the `typ` header is
// `at+jwt`, so a JWT minted for another purpose never passes as an access token. Real sockets: a
// JWKS on 127.0.0.1 and the MCP server with bearerAuth served by mcpwire/node.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { bearerAuth, parseBearerChallenge, type BearerAuthOptions } from 'mcpwire/auth';
import { chainHandlers, createHttpHandler } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { Server } from 'mcpwire/server';
import { freePort } from '../../support/free-port.ts';

interface Issuer extends AsyncDisposable {
  origin: string;
  /** A JWT with every claim an access token for `resource` needs, and `typ` as given. */
  sign(resource: string, typ: string): Promise<string>;
}

async function startIssuer(): Promise<Issuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const http = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    origin,
    sign: (resource, typ) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: origin,
        sub: 'alice',
        aud: resource,
        client_id: 'app',
        iat: now,
        exp: now + 300,
      })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ })
        .sign(privateKey);
    },
    [Symbol.asyncDispose]: async () => {
      http.closeAllConnections();
      http.close();
      await once(http, 'close');
    },
  };
}

async function startResource(issuer: Issuer, extra: Partial<BearerAuthOptions> = {}) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const auth = bearerAuth({
    resource: url,
    issuer: issuer.origin,
    jwksUri: `${issuer.origin}/jwks.json`,
    onError: () => {},
    ...extra,
  });
  const server = new Server({ name: 'protected', version: '1.0.0' });
  server.tool({ name: 'whoami' }, (_args, ctx) => ctx.auth?.subject ?? 'nobody');
  const handle = await serveHttp(chainHandlers(auth.metadata, createHttpHandler(server, { auth })), { port });
  return { url, handle };
}

function initialize(url: string, token: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });
}

test('a correctly signed JWT with typ "JWT" (an ID token) is refused as an access token: 401 invalid_token', async () => {
  await using issuer = await startIssuer();
  const { url, handle } = await startResource(issuer);
  await using _server = handle;
  const idToken = await initialize(url, await issuer.sign(url, 'JWT'));
  await idToken.body?.cancel();
  assert.equal(idToken.status, 401, 'an ID-token-shaped JWT must not pass as an access token');
  const challenge = parseBearerChallenge(idToken.headers.get('www-authenticate'));
  assert.equal(challenge.error, 'invalid_token');
  assert.match(challenge.errorDescription ?? '', /at\+jwt/);
  const noTyp = await initialize(url, await issuer.sign(url, ''));
  await noTyp.body?.cancel();
  assert.equal(noTyp.status, 401, 'a JWT without typ is refused too');
});

test('typ "at+jwt" and "application/AT+JWT" (RFC 9068, case-insensitive) pass', async () => {
  await using issuer = await startIssuer();
  const { url, handle } = await startResource(issuer);
  await using _server = handle;
  for (const typ of ['at+jwt', 'application/AT+JWT']) {
    const response = await initialize(url, await issuer.sign(url, typ));
    await response.body?.cancel();
    assert.equal(response.status, 200, typ);
  }
});

test('a server that opts out (acceptedTypes: "any") accepts a JWT of another typ', async () => {
  await using issuer = await startIssuer();
  const { url, handle } = await startResource(issuer, { acceptedTypes: 'any' });
  await using _server = handle;
  const response = await initialize(url, await issuer.sign(url, 'JWT'));
  await response.body?.cancel();
  assert.equal(response.status, 200);
});

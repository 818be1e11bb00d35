// A hostile client makes the development authorization server fetch its "Client ID Metadata Document"
// (AUTH-15) from an internal address: `localhost.`, IPv4-mapped/compatible/NAT64 loopback, the
// shared and benchmarking ranges. The network is simulated by a fetch that routes every document
// URL to a victim on 127.0.0.1: it must not be reached. The server's answers must not tell a closed
// port from an open one; a document that never ends is read up to its cap; and the document cache
// is bounded.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createAuthorizationServer, type AuthorizationServerOptions } from '@mcpwire/auth-server';
import { authorizationUrl, createPkce } from '../../support/oauth-driver.ts';
import { freePort } from '../../support/free-port.ts';
import { drip, routeTo, startVictim } from '../../support/ssrf-kit.ts';

const REDIRECT = 'http://127.0.0.1:8765/callback';

/** GET /authorize for `clientId`; the status and the error page's text. */
async function authorize(issuer: string, clientId: string): Promise<{ status: number; text: string }> {
  const url = authorizationUrl(issuer, {
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: createPkce().challenge,
    code_challenge_method: 'S256',
    resource: 'http://127.0.0.1:3000/mcp',
  });
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, text: await response.text() };
}

/** A plain HTTP server on 127.0.0.1 answering with `answer`, counting requests per path. */
async function startDocumentHost(
  answer: (path: string, base: string, response: import('node:http').ServerResponse) => void,
) {
  const hits = new Map<string, number>();
  let base = '';
  const server = createServer((request, response) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    answer(path, base, response);
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

async function listen(options: AuthorizationServerOptions) {
  return createAuthorizationServer(options).listen();
}

test('a client_id URL on a special-purpose address, in any spelling, is never fetched', async () => {
  await using victim = await startVictim();
  await using server = await listen({ fetch: routeTo(victim, '') });
  const port = victim.port;
  for (const clientId of [
    `https://localhost.:${port}/client.json`,
    `https://[::127.0.0.1]:${port}/client.json`,
    `https://[64:ff9b::7f00:1]:${port}/client.json`,
    `https://100.100.100.200:${port}/client.json`,
    `https://198.18.0.1:${port}/client.json`,
  ]) {
    const { status, text } = await authorize(server.issuer, clientId);
    assert.equal(victim.connections, 0, `${clientId} reached the victim`);
    assert.equal(status, 400, clientId);
    assert.match(text, /invalid_client/, clientId);
  }
});

test('a closed port, a 404, a non-JSON answer and JSON that is not the document get the same description', async () => {
  await using host = await startDocumentHost((path, _base, response) => {
    if (path === '/not-json.json') return void response.writeHead(200).end('SSH-2.0-OpenSSH_9.6\r\n');
    if (path === '/other-json.json')
      return void response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    response.writeHead(404).end();
  });
  await using server = await listen({ canFetchLoopbackClientMetadata: true });
  const closed = `http://127.0.0.1:${await freePort()}`;
  const descriptions = new Set<string>();
  for (const clientId of [
    `${closed}/client.json`,
    `${host.base}/missing.json`,
    `${host.base}/not-json.json`,
    `${host.base}/other-json.json`,
  ]) {
    const { status, text } = await authorize(server.issuer, clientId);
    assert.equal(status, 400, clientId);
    const description = /<code>invalid_client<\/code>: ([^<]*)</.exec(text)?.[1] ?? text;
    descriptions.add(
      description.replaceAll(new URL(clientId).host, 'HOST').replace(/\/[a-z-]+\.json/, '/DOC'),
    );
  }
  assert.equal(descriptions.size, 1, [...descriptions].join('\n'));
});

test('a document that never ends is read up to its cap, then dropped', { timeout: 20_000 }, async () => {
  let onAbandoned = (): void => {};
  const abandoned = new Promise<void>((resolve) => (onAbandoned = resolve));
  await using host = await startDocumentHost((_path, _base, response) => drip(response, onAbandoned));
  await using server = await listen({ canFetchLoopbackClientMetadata: true });
  const { status, text } = await authorize(server.issuer, `${host.base}/client.json`);
  assert.equal(status, 400);
  assert.match(text, /invalid_client/);
  // The server hung up on the endless body (else this waits until the test times out).
  await abandoned;
});

test('the document cache holds at most maxCachedClientDocuments entries (least recently used evicted)', async () => {
  await using host = await startDocumentHost((path, base, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(
      JSON.stringify({
        client_id: `${base}${path}`,
        client_name: 'Cached Client',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      }),
    );
  });
  await using server = await listen({ canFetchLoopbackClientMetadata: true, maxCachedClientDocuments: 2 });
  for (const path of ['/a.json', '/b.json', '/a.json', '/c.json', '/b.json']) {
    const { status, text } = await authorize(server.issuer, `${host.base}${path}`);
    assert.equal(status, 200, text);
  }
  // a, b cached; a used again; c evicts b (the least recently used); b is fetched again.
  assert.deepEqual(Object.fromEntries(host.hits), { '/a.json': 1, '/b.json': 2, '/c.json': 1 });
});

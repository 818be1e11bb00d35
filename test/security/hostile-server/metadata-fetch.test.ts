// A hostile MCP server points the OAuth client's discovery at an internal service: its protected
// resource metadata names an authorization server at `localhost.`, an IPv4-mapped or -compatible or
// NAT64 loopback, or the shared (100.64.0.0/10) and benchmarking (198.18.0.0/15) ranges. The
// network is simulated by a fetch that routes every such URL to a victim listener on 127.0.0.1: no
// connection may reach it. A metadata body that never ends is read only up to its cap, and what the
// client reports does not tell a closed port from one that answered something else.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createOAuthFetch, OAuthError } from 'mcpwire/auth';
import { freePort } from '../../support/free-port.ts';
import { routeTo, startHostileServer, startVictim } from '../../support/ssrf-kit.ts';

function clientOf(server: { url: string }, fetch: (request: Request) => Promise<Response>) {
  return createOAuthFetch(server.url, {
    fetch,
    redirectUri: 'http://127.0.0.1:1/callback',
    authorize: () => Promise.reject(new Error('the flow must not get as far as the browser')),
  });
}

const post = (url: string): Request => new Request(url, { method: 'POST', body: '{}' });

test('an authorization server URL on a special-purpose address, in any spelling, is never connected to', async () => {
  await using victim = await startVictim();
  const port = victim.port;
  const named = [
    `https://localhost.:${port}`,
    `https://[::127.0.0.1]:${port}`,
    `https://[::ffff:127.0.0.1]:${port}`,
    `https://[64:ff9b::7f00:1]:${port}`,
    `https://100.100.100.200:${port}`,
    `https://198.18.0.1:${port}`,
  ];
  for (const authorizationServer of named) {
    await using server = await startHostileServer(authorizationServer);
    const oauthFetch = clientOf(server, routeTo(victim, server.origin));
    const error: unknown = await oauthFetch(post(server.url)).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.equal(victim.connections, 0, `${authorizationServer} reached the victim`);
    assert.ok(error instanceof OAuthError, `${authorizationServer}: ${String(error)}`);
    assert.equal(error.step, 'url-policy', `${authorizationServer}: ${error.message}`);
  }
});

test(
  'a metadata body that never ends is read up to its cap, then the connection is dropped',
  { timeout: 20_000 },
  async () => {
    await using server = await startHostileServer('https://as.example', { endlessMetadata: true });
    const oauthFetch = clientOf(server, (request) => fetch(request));
    await assert.rejects(oauthFetch(post(server.url)), (error: unknown) => {
      assert.ok(error instanceof OAuthError);
      assert.equal(error.step, 'protected-resource-discovery');
      assert.match(String(error.cause), /over \d+ bytes/);
      return true;
    });
    // The client hung up on the endless body (else this waits until the test times out).
    await server.abandoned;
  },
);

test('a closed port, a 500 and a non-JSON answer fail discovery with the same message (no port map)', async () => {
  const answers: Record<string, (response: import('node:http').ServerResponse) => void> = {
    'server-error': (response) => response.writeHead(500).end('internal'),
    'not-json': (response) => response.writeHead(200).end('SSH-2.0-OpenSSH_9.6\r\n'),
  };
  const messages = new Set<string>();
  const closed = `http://127.0.0.1:${await freePort()}`;
  for (const kind of ['closed', ...Object.keys(answers)]) {
    await using other = kind === 'closed' ? undefined : await startAnswering(answers[kind]!);
    const authorizationServer = other?.origin ?? closed;
    await using server = await startHostileServer(authorizationServer);
    const oauthFetch = createOAuthFetch(server.url, {
      allowPrivateNetwork: true,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: () => Promise.reject(new Error('the flow must not get as far as the browser')),
    });
    const error: unknown = await oauthFetch(post(server.url)).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof OAuthError, `${kind}: ${String(error)}`);
    messages.add(error.message.replaceAll(new URL(authorizationServer).port, 'PORT'));
  }
  assert.equal(messages.size, 1, [...messages].join('\n'));
});

/** An HTTP server on 127.0.0.1 that answers every request with `answer`. */
async function startAnswering(answer: (response: import('node:http').ServerResponse) => void) {
  const server = createServer((request, response) => {
    request.resume();
    answer(response);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

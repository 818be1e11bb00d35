// A hostile MCP server names an authorization server by a DNS name that resolves to this machine
// (a rebinding name, or an alias of localhost): only the address a connection is made to tells. On
// Node, createAddressCheckedFetch checks each connection's resolved address. There is no DNS in the
// tests, so names resolve through the `lookup` seam: `*.rebind.test` is 127.0.0.1.

import assert from 'node:assert/strict';
import { lookup as dnsLookup } from 'node:dns';
import { request } from 'node:http';
import type { LookupFunction } from 'node:net';
import { test } from 'node:test';
import { createOAuthFetch, OAuthError } from 'mcpwire/auth';
import { createAddressCheckedFetch, PrivateAddressError } from 'mcpwire/auth/node';
import { startHostileServer, startVictim } from '../../support/ssrf-kit.ts';

/** `*.rebind.test` resolves to 127.0.0.1 (IPv4 only), every other name as the system does. */
const rebindLookup: LookupFunction = (hostname, options, callback) => {
  if (!hostname.replace(/\.$/, '').endsWith('.rebind.test')) return dnsLookup(hostname, options, callback);
  if (options.all === true) return void callback(null, [{ address: '127.0.0.1', family: 4 }] as never, 4);
  callback(null, '127.0.0.1', 4);
};

test('control: without the check, the lookup seam leads a rebind.test name to the victim', async () => {
  await using victim = await startVictim();
  await new Promise<void>((resolve, reject) => {
    const outgoing = request(
      `http://as.rebind.test:${victim.port}/`,
      { lookup: rebindLookup },
      (incoming) => {
        incoming.resume();
        incoming.on('end', resolve);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
  assert.equal(victim.connections, 1);
});

test('a metadata URL whose name resolves to a loopback address is refused when it connects', async () => {
  await using victim = await startVictim();
  for (const host of ['as.rebind.test', 'as.rebind.test.']) {
    await using server = await startHostileServer(`https://${host}:${victim.port}`);
    const checked = createAddressCheckedFetch({ trustedOrigins: [server.origin], lookup: rebindLookup });
    const oauthFetch = createOAuthFetch(server.url, {
      fetch: checked,
      redirectUri: 'http://127.0.0.1:1/callback',
      authorize: () => Promise.reject(new Error('the flow must not get as far as the browser')),
    });
    const error: unknown = await oauthFetch(new Request(server.url, { method: 'POST', body: '{}' })).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    assert.equal(victim.connections, 0, `${host}: the victim was reached`);
    assert.ok(error instanceof OAuthError, String(error));
    assert.ok(error.cause instanceof PrivateAddressError, `${host}: ${String(error.cause)}`);
  }
});

test('the checked fetch refuses special-purpose literals and names, and passes the trusted origin', async () => {
  await using victim = await startVictim();
  const trusted = `http://127.0.0.1:${victim.port}`;
  const checked = createAddressCheckedFetch({ trustedOrigins: [trusted], lookup: rebindLookup });
  for (const url of [
    `http://[::ffff:127.0.0.1]:${victim.port}/`,
    `http://localhost:${victim.port}/`,
    `http://localhost.:${victim.port}/`,
    `http://a.rebind.test:${victim.port}/`,
    `http://100.100.100.200:${victim.port}/`,
  ])
    await assert.rejects(checked(new Request(url)), PrivateAddressError, url);
  assert.equal(victim.connections, 0);
  const answer = await checked(new Request(`${trusted}/`));
  assert.deepEqual(await answer.json(), { secret: 'yes!' });
  assert.equal(victim.connections, 1);
});

// A hostile client names its metadata document by a DNS name that resolves to this machine: the
// development authorization server, given createAddressCheckedFetch (its default on Node), checks the
// address each connection is made to. No DNS in tests: `*.rebind.test` resolves through the seam.

import assert from 'node:assert/strict';
import type { LookupFunction } from 'node:net';
import { test } from 'node:test';
import { createAuthorizationServer } from '@mcpwire/auth-server';
import { createAddressCheckedFetch } from 'mcpwire/auth/node';
import { authorizationUrl, createPkce } from '../../support/oauth-driver.ts';
import { startVictim } from '../../support/ssrf-kit.ts';

const rebindLookup: LookupFunction = (_hostname, options, callback) => {
  if (options.all === true) return void callback(null, [{ address: '127.0.0.1', family: 4 }] as never, 4);
  callback(null, '127.0.0.1', 4);
};

test('a client_id URL whose name resolves to 127.0.0.1 is refused at connect time', async () => {
  await using victim = await startVictim();
  const fetch = createAddressCheckedFetch({ lookup: rebindLookup });
  await using server = await createAuthorizationServer({
    fetch: (input, init) => fetch(new Request(input, init)),
  }).listen();
  const response = await globalThis.fetch(
    authorizationUrl(server.issuer, {
      client_id: `https://client.rebind.test:${victim.port}/client.json`,
      redirect_uri: 'http://127.0.0.1:8765/callback',
      code_challenge: createPkce().challenge,
      code_challenge_method: 'S256',
    }),
    { redirect: 'manual' },
  );
  assert.equal(response.status, 400);
  assert.match(await response.text(), /invalid_client/);
  assert.equal(victim.connections, 0);
});

// `mcpwire serve everything --http <port> --auth dev` as a process: a development authorization
// server beside the endpoint; a call without a token gets the 401 challenge naming the protected
// resource metadata (AUTH-6a, AUTH-25); our OAuth client goes through the consent page and then
// initializes; a token minted for another resource is refused (AUTH-22, SEC-5). Real sockets throughout.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { test } from 'node:test';
import { createOAuthFetch } from 'mcpwire/auth';
import { freePort } from '../../../test/support/free-port.ts';
import { MCPWIRE, ROOT, childEnv, runCli } from './support/cli-process.ts';
import { approveConsent } from './support/dev-auth-server.ts';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'auth-dev-test', version: '1' },
  },
});
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

test('--auth dev: 401 with resource_metadata, the code flow through the consent page, then initialize; a foreign token is refused', async () => {
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}/mcp`;
  const child = spawn(
    MCPWIRE[0]!,
    [...MCPWIRE.slice(1), 'serve', 'everything', '--http', String(port), '--auth', 'dev'],
    {
      cwd: ROOT,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    let stderr = '';
    child.stderr.setEncoding('utf8');
    while (!/development authorization server at (\S+)/.test(stderr)) {
      const [chunk] = (await Promise.race([once(child.stderr, 'data'), once(child, 'exit')])) as [string];
      assert.equal(typeof chunk, 'string', `exited before listening: ${stderr}`);
      stderr += chunk;
    }
    const issuer = /development authorization server at (\S+)/.exec(stderr)![1]!;
    assert.match(stderr, /for development only, not for production/);

    const bare = await fetch(endpoint, { method: 'POST', headers: HEADERS, body: INITIALIZE });
    assert.equal(bare.status, 401);
    const challenge = bare.headers.get('www-authenticate') ?? '';
    assert.match(challenge, /^Bearer /);
    assert.ok(
      challenge.includes(
        `resource_metadata="http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp"`,
      ),
      challenge,
    );
    const prm = (await (
      await fetch(`http://127.0.0.1:${port}/.well-known/oauth-protected-resource/mcp`)
    ).json()) as {
      resource: string;
      authorization_servers: string[];
    };
    assert.deepEqual([prm.resource, prm.authorization_servers], [endpoint, [issuer]]);

    let consents = 0;
    const oauthFetch = createOAuthFetch(endpoint, {
      redirectUri: 'http://127.0.0.1:8977/callback',
      clientMetadata: { client_name: 'serve --auth dev test' },
      allowPrivateNetwork: true,
      authorize: async ({ url }) => {
        consents++;
        return approveConsent(url.href);
      },
    });
    const initialized = await oauthFetch(
      new Request(endpoint, { method: 'POST', headers: HEADERS, body: INITIALIZE }),
    );
    assert.equal(initialized.status, 200, await initialized.clone().text());
    assert.equal(consents, 1);
    assert.match(await initialized.text(), /"protocolVersion":"2025-11-25"/);

    // A token of the same authorization server, for another resource.
    const registration = (await (
      await fetch(`${issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'x',
          redirect_uris: ['http://127.0.0.1:8978/cb'],
          token_endpoint_auth_method: 'none',
        }),
      })
    ).json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${issuer}/authorize`);
    authorize.search = new URLSearchParams({
      response_type: 'code',
      client_id: registration.client_id,
      redirect_uri: 'http://127.0.0.1:8978/cb',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: 'http://127.0.0.1:1/other',
    }).toString();
    const code = new URL(await approveConsent(authorize.href)).searchParams.get('code')!;
    const token = (await (
      await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: 'http://127.0.0.1:8978/cb',
          code_verifier: verifier,
          client_id: registration.client_id,
        }).toString(),
      })
    ).json()) as { access_token: string };
    const foreign = await fetch(endpoint, {
      method: 'POST',
      headers: { ...HEADERS, authorization: `Bearer ${token.access_token}` },
      body: INITIALIZE,
    });
    assert.equal(foreign.status, 401, 'a token for another audience is refused');
    await foreign.body?.cancel();

    child.kill('SIGTERM');
    const [exitCode] = (await once(child, 'exit')) as [number | null];
    assert.equal(exitCode, 0);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

test('--auth needs --http, and only "dev" is known', async () => {
  const stdio = await runCli(['serve', 'everything', '--auth', 'dev']);
  assert.equal(stdio.code, 2);
  assert.match(stdio.stderr, /^mcpwire: --auth applies with --http <port>/);
  const unknown = await runCli(['serve', 'everything', '--http', '0', '--auth', 'prod']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /expected "dev"/);
});

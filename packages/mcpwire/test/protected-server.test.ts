// The resource server end to end over real sockets on 127.0.0.1: createHttpHandler with bearerAuth
// (JWT against the test issuer's JWKS), served by mcpwire/node. The verified principal reaches the
// tool handler in both eras, per-tool scopes get the step-up challenge in both eras, a session id is
// useless with another principal's token, and no token is ever in a log line.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseBearerChallenge } from '../src/auth/index.ts';
import { statelessPost, type Loose } from './support/http-kit.ts';
import { startProtectedServer, type ProtectedServer } from './support/protected-server.ts';
import { startTestIssuer, type TestIssuer } from './support/token-issuer.ts';

async function setUp(issuer: TestIssuer): Promise<ProtectedServer> {
  return startProtectedServer({
    issuer: issuer.origin,
    jwksUri: issuer.jwksUri,
    scopes: ['mcp'],
    toolScopes: { deploy: ['deploy'] },
  });
}

function tokenFor(issuer: TestIssuer, server: ProtectedServer, sub: string, scope = 'mcp'): Promise<string> {
  return issuer.mint({ sub, client_id: `${sub}-app`, aud: server.url, scope });
}

/** A handshake-era POST (JSON only, so each answer is one JSON body). */
function handshakePost(
  url: string,
  body: unknown,
  headers: { token?: string; session?: string } = {},
): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(headers.token === undefined ? {} : { authorization: `Bearer ${headers.token}` }),
      ...(headers.session === undefined
        ? {}
        : { 'mcp-session-id': headers.session, 'mcp-protocol-version': '2025-11-25' }),
    },
    body: JSON.stringify(body),
  });
}

/** Opens a handshake-era session as the holder of `token`; resolves with its id. */
async function openSession(url: string, token: string): Promise<string> {
  const init = await handshakePost(
    url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    },
    { token },
  );
  assert.equal(init.status, 200);
  await init.body?.cancel();
  const session = init.headers.get('mcp-session-id')!;
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  assert.equal((await handshakePost(url, initialized, { token, session })).status, 202);
  return session;
}

function callTool(name: string, id = 1): object {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } };
}

/** A stateless-era tools/call to the real endpoint, with every standard header. */
function statelessCall(url: string, name: string, token: string): Promise<Response> {
  const template = statelessPost(
    'tools/call',
    { name, arguments: {} },
    { headers: { authorization: `Bearer ${token}` } },
  );
  return fetch(new Request(url, template));
}

function textOf(result: Loose): string {
  return result.result.content[0].text as string;
}

test('ctx.auth in the handshake era: the verified subject, client, scopes and expiry reach the tool', async () => {
  await using issuer = await startTestIssuer();
  await using server = await setUp(issuer);
  const token = await tokenFor(issuer, server, 'alice');
  const session = await openSession(server.url, token);
  const response = await handshakePost(server.url, callTool('whoami'), { token, session });
  assert.equal(response.status, 200);
  const seen = JSON.parse(textOf(await response.json())) as Loose;
  assert.equal(seen.era, 'handshake');
  assert.equal(seen.auth.subject, 'alice');
  assert.equal(seen.auth.clientId, 'alice-app');
  assert.deepEqual(seen.auth.scopes, ['mcp']);
  assert.equal(typeof seen.auth.expiresAt, 'number');
  assert.equal(seen.auth.claims.aud, server.url);
  assert.ok(!JSON.stringify(seen).includes(token), 'SEC-5: the handler never sees the token');
});

test('ctx.auth follows each request: a refreshed token in the same session shows its new scopes', async () => {
  await using issuer = await startTestIssuer();
  await using server = await setUp(issuer);
  const first = await tokenFor(issuer, server, 'alice');
  const session = await openSession(server.url, first);
  const refreshed = await tokenFor(issuer, server, 'alice', 'mcp deploy');
  const response = await handshakePost(server.url, callTool('whoami'), { token: refreshed, session });
  assert.deepEqual((JSON.parse(textOf(await response.json())) as Loose).auth.scopes, ['mcp', 'deploy']);
});

test('ctx.auth in the stateless era (2026-07-28): the same principal reaches the tool', async () => {
  await using issuer = await startTestIssuer();
  await using server = await setUp(issuer);
  const token = await tokenFor(issuer, server, 'bob');
  const response = await statelessCall(server.url, 'whoami', token);
  assert.equal(response.status, 200);
  const seen = JSON.parse(textOf(await response.json())) as Loose;
  assert.equal(seen.era, 'stateless');
  assert.equal(seen.auth.subject, 'bob');
  assert.equal(seen.auth.clientId, 'bob-app');
});

test('AUTH-26: a tool needing a scope the token lacks gets 403 insufficient_scope in both eras', async () => {
  await using issuer = await startTestIssuer();
  await using server = await setUp(issuer);
  const token = await tokenFor(issuer, server, 'alice');
  const session = await openSession(server.url, token);
  const handshake = await handshakePost(server.url, callTool('deploy'), { token, session });
  const stateless = await statelessCall(server.url, 'deploy', token);
  for (const response of [handshake, stateless]) {
    assert.equal(response.status, 403);
    const challenge = parseBearerChallenge(response.headers.get('www-authenticate'));
    assert.equal(challenge.error, 'insufficient_scope');
    assert.equal(challenge.scope, 'mcp deploy');
    assert.equal(challenge.resourceMetadata, server.auth.resourceMetadataUrl);
  }
  const stepped = await tokenFor(issuer, server, 'alice', 'mcp deploy');
  const allowed = await handshakePost(server.url, callTool('deploy', 2), { token: stepped, session });
  assert.equal(textOf(await allowed.json()), 'deployed by alice');
  assert.equal((await statelessCall(server.url, 'deploy', stepped)).status, 200);
});

test('SEC-7: a session id used with another principal’s valid token is refused (404)', async () => {
  await using issuer = await startTestIssuer();
  await using server = await setUp(issuer);
  const alice = await tokenFor(issuer, server, 'alice');
  const session = await openSession(server.url, alice);
  const mallory = await tokenFor(issuer, server, 'mallory');
  const hijack = await handshakePost(server.url, callTool('whoami'), { token: mallory, session });
  assert.equal(hijack.status, 404);
  // Same subject through another client is another principal too (bound by subject and client).
  const otherClient = await issuer.mint({
    sub: 'alice',
    client_id: 'other-app',
    aud: server.url,
    scope: 'mcp',
  });
  assert.equal(
    (await handshakePost(server.url, callTool('whoami'), { token: otherClient, session })).status,
    404,
  );
  const owner = await handshakePost(server.url, callTool('whoami'), { token: alice, session });
  assert.equal(owner.status, 200);
});

test('AUTH-6, AUTH-22, AUTH-34: no token and a foreign-audience token get 401 before any MCP work', async () => {
  await using issuer = await startTestIssuer();
  await using server = await setUp(issuer);
  const none = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(none.status, 401);
  assert.equal(
    none.headers.get('www-authenticate'),
    `Bearer scope="mcp", resource_metadata="${server.auth.resourceMetadataUrl}"`,
  );
  const foreign = await issuer.mint({ sub: 'alice', aud: 'http://127.0.0.1:1/mcp', scope: 'mcp' });
  const refused = await statelessCall(server.url, 'whoami', foreign);
  assert.equal(refused.status, 401);
  assert.equal(parseBearerChallenge(refused.headers.get('www-authenticate')).error, 'invalid_token');
  const metadata = await fetch(server.auth.resourceMetadataUrl);
  assert.equal(((await metadata.json()) as Loose).resource, server.url);
});

test('no token passthrough: across good, refused and hijacking requests, no token is in any log line', async () => {
  await using issuer = await startTestIssuer();
  await using server = await setUp(issuer);
  const alice = await tokenFor(issuer, server, 'alice');
  const mallory = await tokenFor(issuer, server, 'mallory');
  const expired = await issuer.mint({ sub: 'eve', aud: server.url, scope: 'mcp' }, { now: 1_000_000_000 });
  const foreign = await issuer.mint({ sub: 'eve', aud: 'https://elsewhere.example/mcp', scope: 'mcp' });
  const session = await openSession(server.url, alice);
  await (await handshakePost(server.url, callTool('deploy'), { token: alice, session })).body?.cancel();
  await (await handshakePost(server.url, callTool('whoami'), { token: mallory, session })).body?.cancel();
  for (const token of [expired, foreign, 'not-a-jwt']) {
    await (await statelessCall(server.url, 'whoami', token)).body?.cancel();
  }
  assert.ok(server.logs.length >= 4, `the refusals were reported: ${server.logs.join('\n')}`);
  for (const token of [alice, mallory, expired, foreign, 'not-a-jwt']) {
    for (const line of server.logs) assert.ok(!line.includes(token), `a token in a log line: ${line}`);
  }
});

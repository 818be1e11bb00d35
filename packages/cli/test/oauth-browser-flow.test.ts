// The browser flow of the client commands against `mcpwire serve everything --http <port> --auth dev`,
// with no browser: the test reads the authorization URL the command prints, approves the consent page
// over HTTP and follows the redirect to the command's loopback listener (AUTH-30, RFC 8252 §7.3). The
// token lands in an owner-only file store (AUTH-29) and the next run uses it without a new consent;
// --trace and --record show the auth exchanges with no token or secret in them (SEC tokens-in-logs).

import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from './support/cli-process.ts';
import {
  completeBrowserStep,
  startCli,
  startProtectedServer,
  type ProtectedServer,
} from './support/dev-auth-server.ts';

interface StoreFile {
  version: 1;
  issuers: Record<
    string,
    { client?: { client_id: string }; tokens?: { accessToken: string; refreshToken?: string } }
  >;
}

describe('OAuth in the client commands', { concurrency: 1, timeout: 600_000 }, () => {
  let server: ProtectedServer;
  let home: string;

  before(async () => {
    server = await startProtectedServer();
    home = await mkdtemp(join(tmpdir(), 'mcpwire-oauth-'));
  });

  after(async () => {
    await server?.[Symbol.asyncDispose]();
    if (home !== undefined) await rm(home, { recursive: true, force: true });
  });

  test('list: the consent through the printed URL and the loopback listener, then a second run reuses the stored token', async () => {
    const env = { XDG_DATA_HOME: join(home, 'data') };
    const first = startCli(['list', server.url, 'tools'], env);
    const { authorizationUrl, redirect, page } = await completeBrowserStep(first);
    const authorization = new URL(authorizationUrl);
    assert.equal(authorization.origin, server.issuer);
    assert.equal(authorization.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(authorization.searchParams.get('resource'), server.url, 'resource exactly as published');
    assert.match(authorization.searchParams.get('redirect_uri')!, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.ok(redirect.startsWith(authorization.searchParams.get('redirect_uri')!), redirect);
    assert.match(page, /You can close this tab/);
    const done = await first.done();
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, /^echo +Returns the given message/m);
    assert.match(done.stderr, /needs authorization from/);

    // One owner-only file per server in $XDG_DATA_HOME/mcpwire/oauth, holding the token.
    const directory = join(home, 'data', 'mcpwire', 'oauth');
    const files = await readdir(directory);
    assert.equal(files.length, 1, files.join());
    const storePath = join(directory, files[0]!);
    assert.equal((await stat(storePath)).mode & 0o777, 0o600);
    assert.equal((await stat(directory)).mode & 0o777, 0o700);
    const store = JSON.parse(await readFile(storePath, 'utf8')) as StoreFile;
    const token = store.issuers[server.issuer]?.tokens?.accessToken;
    assert.ok(token !== undefined && token.length > 0, 'the access token is stored for the issuer');

    // No URL printed, no consent: the stored token is used (a consent would wait and time out).
    const second = await runCli(['call', server.url, 'echo', 'message=again', '--auth-timeout', '20'], {
      env,
      timeoutMs: 120_000,
    });
    assert.deepEqual([second.code, second.stdout], [0, 'again\n'], second.stderr);
    assert.doesNotMatch(second.stderr, /Open this URL/);
  });

  test('--trace and --record show the 401, discovery, registration and token request, no token or secret in them', async () => {
    const storePath = join(home, 'trace-store.json');
    const recordPath = join(home, 'auth.jsonl');
    const cli = startCli([
      'list',
      server.url,
      'prompts',
      '--trace',
      '--record',
      recordPath,
      '--token-store',
      storePath,
    ]);
    const { redirect } = await completeBrowserStep(cli);
    const done = await cli.done();
    assert.equal(done.code, 0, done.stderr);
    const record = await readFile(recordPath, 'utf8');
    const entries = record
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; url?: string; status?: number; body?: string });
    const requested = entries.filter((entry) => entry.type === 'http-request').map((entry) => entry.url!);
    const issuer = server.issuer;
    for (const url of [
      `http://127.0.0.1:${new URL(server.url).port}/.well-known/oauth-protected-resource/mcp`,
      `${issuer}/.well-known/oauth-authorization-server`,
      `${issuer}/register`,
      `${issuer}/token`,
    ])
      assert.ok(requested.includes(url), `recorded a request to ${url}: ${requested.join(', ')}`);
    assert.ok(entries.some((entry) => entry.type === 'http-response' && entry.status === 401));
    const tokenRequest = entries.find(
      (entry) => entry.type === 'http-request' && entry.url === `${issuer}/token`,
    );
    assert.match(tokenRequest?.body ?? '', /grant_type=authorization_code/);
    assert.match(tokenRequest?.body ?? '', /code=%5Bredacted%5D/);
    assert.match(tokenRequest?.body ?? '', /code_verifier=%5Bredacted%5D/);
    assert.match(done.stderr, /HTTP POST http:\/\/127\.0\.0\.1:\d+\/token/);
    assert.match(done.stderr, /⇒ 401/);

    const store = JSON.parse(await readFile(storePath, 'utf8')) as StoreFile;
    const kept = store.issuers[issuer]!;
    const secrets = [
      kept.tokens!.accessToken,
      kept.tokens!.refreshToken,
      new URL(redirect).searchParams.get('code'),
    ].filter((value): value is string => typeof value === 'string' && value !== '');
    assert.ok(secrets.length >= 2, 'an access token and the code to look for');
    for (const secret of secrets) {
      assert.ok(!record.includes(secret), 'no token or code in the recording');
      assert.ok(!done.stderr.includes(secret), 'no token or code in the trace');
    }
  });

  test('--client-id and --scope: the pre-registered client is used (no registration) and the scope asked for', async () => {
    const registered = (await (
      await fetch(`${server.issuer}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'registered beforehand',
          redirect_uris: ['http://127.0.0.1/callback'],
          token_endpoint_auth_method: 'none',
        }),
      })
    ).json()) as { client_id: string };
    const recordPath = join(home, 'preregistered.jsonl');
    const cli = startCli([
      'list',
      server.url,
      'tools',
      '--client-id',
      registered.client_id,
      '--scope',
      'mcp:tools',
      '--token-store',
      join(home, 'preregistered.json'),
      '--record',
      recordPath,
    ]);
    const { authorizationUrl } = await completeBrowserStep(cli);
    const query = new URL(authorizationUrl).searchParams;
    assert.deepEqual([query.get('client_id'), query.get('scope')], [registered.client_id, 'mcp:tools']);
    const done = await cli.done();
    assert.equal(done.code, 0, done.stderr);
    const requested = (await readFile(recordPath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; url?: string })
      .filter((entry) => entry.type === 'http-request')
      .map((entry) => entry.url);
    assert.ok(requested.includes(`${server.issuer}/token`), 'the token request is recorded');
    assert.ok(!requested.includes(`${server.issuer}/register`), 'no registration with a client id given');
  });

  test('--no-auth: the 401 ends the command with exit 3 and says how to authorize', async () => {
    const result = await runCli(['list', server.url, '--no-auth'], { timeoutMs: 120_000 });
    assert.equal(result.code, 3, result.stderr);
    assert.match(result.stderr, /401 Unauthorized.*run without --no-auth to sign in with OAuth/);
  });

  test('a consent that never comes: exit 3 after --auth-timeout, saying what to do', async () => {
    const result = await runCli(
      ['list', server.url, '--auth-timeout', '2', '--token-store', join(home, 'unused.json')],
      { timeoutMs: 120_000 },
    );
    assert.equal(result.code, 3, result.stderr);
    assert.match(
      result.stderr,
      /no authorization response reached http:\/\/127\.0\.0\.1:\d+\/callback within 2 s/,
    );
  });

  test('--client-secret without --client-id is a usage error (exit 2)', async () => {
    const result = await runCli(['list', server.url, '--client-secret', 'x']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /needs --client-id/);
  });
});

// `mcpwire auth-server` as a process: the issuer on stdout, the development banner on stderr, the
// code flow over a real socket (dynamic registration, auto-approval, token), SIGTERM exits 0;
// bad options exit 2 and a port in use exits 3; with --db the state survives a restart.

import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { codeFor, registerPublicClient, tokenRequest } from '../../../test/support/oauth-driver.ts';
import { freePort } from '../../../test/support/free-port.ts';
import { MCPWIRE, ROOT, childEnv, runCli } from './support/cli-process.ts';

/** A running `mcpwire auth-server <args>`; resolves once it printed its issuer. */
async function startAuthServer(args: readonly string[]): Promise<
  {
    child: ChildProcessWithoutNullStreams;
    issuer: string;
    /** The --port given, as a number (NaN when none was). */
    port: number;
    stderr: () => string;
  } & AsyncDisposable
> {
  const child = spawn(MCPWIRE[0]!, [...MCPWIRE.slice(1), 'auth-server', ...args], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const issuer = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`auth-server exited with ${code} before listening: ${stderr}`)),
    );
  });
  return {
    child,
    issuer,
    port: Number(args[args.indexOf('--port') + 1]),
    stderr: () => stderr,
    [Symbol.asyncDispose]: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    },
  };
}

test('it prints the issuer and a development banner, completes a code flow, and exits 0 on SIGTERM', async () => {
  await using server = await startAuthServer(['--auto-approve', '--scope', 'mcp:tools']);
  assert.match(server.issuer, /^http:\/\/127\.0\.0\.1:\d+$/);
  // The banner comes with the issuer; wait for its last line.
  while (!server.stderr().includes('Ctrl-C stops')) await once(server.child.stderr, 'data');
  assert.match(server.stderr(), /^mcpwire auth-server: for development and tests only, not for production/);
  assert.match(server.stderr(), /consent {3}auto-approve/);

  const metadata = (await (
    await fetch(`${server.issuer}/.well-known/oauth-authorization-server`)
  ).json()) as Record<string, unknown>;
  assert.equal(metadata.issuer, server.issuer);
  assert.deepEqual(metadata.scopes_supported, ['mcp:tools']);
  const redirectUri = 'http://127.0.0.1:7777/callback';
  const registration = await fetch(`${server.issuer}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'cli test',
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: 'none',
    }),
  });
  const { client_id: clientId } = (await registration.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(`${server.issuer}/authorize`);
  authorize.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    scope: 'mcp:tools',
    resource: 'http://127.0.0.1:3000/mcp',
  }).toString();
  const redirect = await fetch(authorize, { redirect: 'manual' });
  const back = new URL(redirect.headers.get('location')!);
  assert.equal(back.searchParams.get('iss'), server.issuer);
  const token = await fetch(`${server.issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: clientId,
    }).toString(),
  });
  assert.equal(token.status, 200);
  const body = (await token.json()) as { access_token: string; scope: string };
  assert.equal(body.scope, 'mcp:tools');
  const claims = JSON.parse(Buffer.from(body.access_token.split('.')[1]!, 'base64url').toString()) as {
    aud: string;
  };
  assert.equal(claims.aud, 'http://127.0.0.1:3000/mcp');

  server.child.kill('SIGTERM');
  const [code] = (await once(server.child, 'exit')) as [number | null];
  assert.equal(code, 0);
});

test('a bad --issuer or --port is a usage error (exit 2); a port in use is exit 3', async () => {
  const issuer = await runCli(['auth-server', '--issuer', 'http://127.0.0.1:9000/']);
  assert.equal(issuer.code, 2);
  assert.match(issuer.stderr, /^mcpwire: --issuer must not end with "\/"/);
  const port = await runCli(['auth-server', '--port', 'high']);
  assert.equal(port.code, 2);
  assert.match(port.stderr, /expected a port number/);

  const blocker = createServer().listen(0, '127.0.0.1');
  await once(blocker, 'listening');
  try {
    const { port: taken } = blocker.address() as { port: number };
    const inUse = await runCli(['auth-server', '--port', String(taken)]);
    assert.equal(inUse.code, 3);
    assert.match(inUse.stderr, /cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE.*choose another --port/);
  } finally {
    blocker.close();
  }
});

test('--db keeps the state in a SQLite file: a refresh token from before a restart works after it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-auth-server-db-'));
  try {
    const db = join(dir, 'auth.db');
    // A fixed issuer and a new port per start: the restart keeps the issuer, and the second process
    // is reached on a fresh connection rather than one pooled from the first.
    const args = async (): Promise<string[]> => [
      '--auto-approve',
      '--db',
      db,
      '--issuer',
      'http://auth.invalid',
      '--port',
      String(await freePort()),
    ];
    const redirectUri = 'http://127.0.0.1:7777/callback';
    let refreshToken: string;
    let clientId: string;
    {
      await using first = await startAuthServer(await args());
      while (!first.stderr().includes('Ctrl-C stops')) await once(first.child.stderr, 'data');
      assert.match(first.stderr(), new RegExp(`state in ${db.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      const base = `http://127.0.0.1:${first.port}`;
      clientId = await registerPublicClient(base, redirectUri);
      const { code, pkce } = await codeFor(base, clientId, {
        redirectUri,
        resource: 'http://127.0.0.1:3000/mcp',
      });
      const tokens = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        code_verifier: pkce.verifier,
        client_id: clientId,
      });
      assert.equal(tokens.status, 200, JSON.stringify(tokens.json));
      refreshToken = tokens.json.refresh_token as string;
      first.child.kill('SIGTERM');
      assert.deepEqual(await once(first.child, 'exit'), [0, null]);
    }
    await using second = await startAuthServer(await args());
    const refreshed = await tokenRequest(`http://127.0.0.1:${second.port}`, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.json));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a --db path that cannot be created is a usage error (exit 2) that says what to do', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-auth-server-db-'));
  try {
    const notAFolder = join(dir, 'file');
    writeFileSync(notAFolder, '');
    const result = await runCli(['auth-server', '--db', join(notAFolder, 'auth.db')]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^mcpwire: cannot open the --db file .*auth\.db: .*leave --db out/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

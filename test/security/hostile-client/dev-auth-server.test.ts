// The development authorization server (`mcpwire auth-server`, `mcpwire serve --auth dev`) against a
// hostile client: a slowloris socket that sends headers forever is closed; a request whose Host names
// another site (DNS rebinding from a web page) is refused; the page for an unregistered redirect_uri
// does not list the client's registered ones; and neither command listens beyond loopback unless told
// to, since anyone who reaches it can approve themselves a token.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { test } from 'node:test';
import { createAuthorizationServer } from '@mcpwire/auth-server';
import { ourCliCommand } from '../../support/node-options.ts';
import { authorizationUrl, createPkce, registerPublicClient } from '../../support/oauth-driver.ts';

/** `mcpwire <args>` from source until it exits; its code and stderr. */
async function runCli(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const command = ourCliCommand(...args);
  const child = spawn(command.command, command.args, {
    cwd: command.cwd,
    env: { ...process.env, ...command.env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

/** `mcpwire auth-server --port 0 <args>` running; resolves with its issuer once it listens. */
async function startAuthServer(...args: string[]) {
  const command = ourCliCommand('auth-server', '--port', '0', ...args);
  const child = spawn(command.command, command.args, {
    cwd: command.cwd,
    env: { ...process.env, ...command.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.resume();
  let stdout = '';
  const issuer = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`auth-server exited with ${code} before listening`)));
  });
  return {
    issuer,
    [Symbol.asyncDispose]: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A GET to `url` over node:http with the Host header `host`; the status and body. */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers: { host } }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

test(
  'a slowloris socket that sends header lines forever gets 408 and is closed',
  { timeout: 30_000 },
  async () => {
    await using server = await createAuthorizationServer().listen({
      headersTimeoutMs: 500,
      requestTimeoutMs: 1_000,
    });
    const socket = connect(server.port, '127.0.0.1');
    await once(socket, 'connect');
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
    socket.write('GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    let line = 0;
    const drip = setInterval(() => socket.write(`X-Drip-${line++}: a\r\n`), 50);
    try {
      await once(socket, 'close');
    } finally {
      clearInterval(drip);
    }
    assert.match(received, /^HTTP\/1\.1 408 /, 'the server answers 408 before it closes the socket');
  },
);

test('a request whose Host is not loopback or the issuer host is refused (DNS rebinding)', async () => {
  await using server = await startAuthServer();
  const metadata = `${server.issuer}/.well-known/oauth-authorization-server`;
  const port = new URL(server.issuer).port;
  const evil = await getWithHost(metadata, `evil.example:${port}`);
  assert.ok(evil.status === 421 || evil.status === 403, `Host evil.example got ${evil.status}`);
  assert.doesNotMatch(evil.body, /authorization_endpoint/);
  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`])
    assert.equal((await getWithHost(metadata, host)).status, 200, host);
});

test('the page for an unregistered redirect_uri does not list the registered ones', async () => {
  await using server = await startAuthServer();
  const registered = 'http://127.0.0.1:7777/private-callback-path-4f2a';
  const clientId = await registerPublicClient(server.issuer, registered);
  const page = await fetch(
    authorizationUrl(server.issuer, {
      client_id: clientId,
      redirect_uri: 'http://127.0.0.1:7777/guess',
      code_challenge: createPkce().challenge,
      code_challenge_method: 'S256',
    }),
    { redirect: 'manual' },
  );
  const html = await page.text();
  assert.equal(page.status, 400);
  assert.match(html, /not registered for this client/);
  assert.ok(!html.includes('private-callback-path-4f2a'), `the page lists the registered URI:\n${html}`);
});

test('serve --auth dev and auth-server refuse a non-loopback --host without the explicit flag (exit 2)', async () => {
  // 192.0.2.1 (TEST-NET-1) is on no interface here: should a refusal be missing, listening fails
  // there instead of on a real interface.
  const cases = [
    ['serve', 'everything', '--http', '0', '--auth', 'dev', '--host', '192.0.2.1'],
    ['auth-server', '--host', '192.0.2.1'],
    ['serve', 'everything', '--http', '0', '--auth', 'dev', '--host', '0.0.0.0'],
    ['auth-server', '--host', '0.0.0.0'],
    ['auth-server', '--host', '::'],
  ];
  for (const args of cases) {
    const { code, stderr } = await runCli(...args);
    assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, /anyone who can reach it/);
    assert.match(stderr, /--insecure-dev-auth-on-network/);
  }
  // With the flag the refusal is lifted: listening on 192.0.2.1 then fails (exit 3), nothing listens.
  const lifted = await runCli('auth-server', '--host', '192.0.2.1', '--insecure-dev-auth-on-network');
  assert.equal(lifted.code, 3, lifted.stderr);
  assert.match(lifted.stderr, /cannot listen on 192\.0\.2\.1/);
});

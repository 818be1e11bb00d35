// `mcpwire doctor --auth <url>`: the OAuth flow step by step. Against the development authorization
// server (consent driven over HTTP) every step passes and each exchange has its line; against an
// in-test server that breaks one rule, the failing step is named with why: no protected resource
// metadata (AUTH-4, AUTH-6), an authorization server without PKCE S256 (AUTH-31), a metadata document
// whose issuer is not the one the resource names (RFC 8414 §3.3, S26-AUTH-3), one where nothing listens.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { freePort } from '../../../test/support/free-port.ts';
import { runCli } from './support/cli-process.ts';
import {
  completeBrowserStep,
  startCli,
  startProtectedServer,
  type ProtectedServer,
} from './support/dev-auth-server.ts';

interface Step {
  step: string;
  verdict: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  hint?: string;
}

/** A protected "MCP server" that gets one thing wrong per path prefix: no-prm, no-pkce, wrong-issuer. */
async function startBrokenServer(): Promise<{ base: string; server: Server }> {
  const deadPort = await freePort();
  const server = createServer((request, response) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const path = new URL(request.url ?? '/', base).pathname;
    const json = (status: number, body: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const mode = /^\/(no-prm|no-pkce|wrong-issuer|dead-as)\/mcp$/.exec(path)?.[1];
    if (mode !== undefined) {
      const challenge =
        mode === 'no-prm'
          ? 'Bearer'
          : `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/${mode}/mcp"`;
      response.writeHead(401, { 'www-authenticate': challenge, 'content-type': 'application/json' });
      response.end('{"error":"unauthorized"}');
      return;
    }
    const prm = /^\/\.well-known\/oauth-protected-resource\/(no-pkce|wrong-issuer|dead-as)\/mcp$/.exec(
      path,
    )?.[1];
    if (prm !== undefined) {
      // dead-as: an authorization server where nothing listens.
      const as = prm === 'dead-as' ? `http://127.0.0.1:${deadPort}` : `${base}/${prm}-as`;
      json(200, { resource: `${base}/${prm}/mcp`, authorization_servers: [as] });
      return;
    }
    const as = /^\/\.well-known\/oauth-authorization-server\/(no-pkce|wrong-issuer)-as$/.exec(path)?.[1];
    if (as !== undefined) {
      json(200, {
        issuer: as === 'wrong-issuer' ? `${base}/somebody-else` : `${base}/${as}-as`,
        authorization_endpoint: `${base}/${as}-as/authorize`,
        token_endpoint: `${base}/${as}-as/token`,
        registration_endpoint: `${base}/${as}-as/register`,
        code_challenge_methods_supported: as === 'no-pkce' ? ['plain'] : ['S256'],
      });
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function doctorAuth(url: string): Promise<{ code: number | null; steps: Step[]; stderr: string }> {
  const run = await runCli(['doctor', '--auth', '--json', '--auth-timeout', '30', url], {
    timeoutMs: 120_000,
  });
  const report = JSON.parse(run.stdout) as { steps: Step[] };
  return { code: run.code, steps: report.steps, stderr: run.stderr };
}

describe('doctor --auth', { concurrency: 1, timeout: 600_000 }, () => {
  let protectedServer: ProtectedServer;
  let broken: { base: string; server: Server };

  before(async () => {
    [protectedServer, broken] = await Promise.all([startProtectedServer(), startBrokenServer()]);
  });

  after(async () => {
    await protectedServer?.[Symbol.asyncDispose]();
    broken?.server.close();
  });

  test('a working flow: each exchange a step, in order, then the retried call and the usual steps', async () => {
    const cli = startCli(['doctor', '--auth', protectedServer.url]);
    await completeBrowserStep(cli);
    const done = await cli.done();
    assert.equal(done.code, 0, `${done.stdout}\n${done.stderr}`);
    const names = [...done.stdout.matchAll(/^✓ (\S+)/gm)].map((match) => match[1]);
    const order = [
      'challenge',
      'prm',
      'as-metadata',
      'register',
      'authorize',
      'token',
      'retry',
      'endpoint',
      'tools',
    ];
    let at = -1;
    for (const name of order) {
      const next = names.indexOf(name, at + 1);
      assert.ok(next > at, `step ${name} after the previous ones: ${names.join(' ')}`);
      at = next;
    }
    assert.match(
      done.stdout,
      /✓ challenge +POST http:\/\/127\.0\.0\.1:\d+\/mcp ⇒ 401, WWW-Authenticate: Bearer resource_metadata=/,
    );
    assert.match(
      done.stdout,
      /✓ token +POST http:\/\/127\.0\.0\.1:\d+\/token ⇒ 200 \(authorization_code\): token_type="Bearer".*access_token="\[redacted\]"/,
    );
    assert.match(done.stdout, /all steps passed/);
  });

  test('no resource_metadata and no metadata at the well-known URLs: fails at "prm"', async () => {
    const { code, steps } = await doctorAuth(`${broken.base}/no-prm/mcp`);
    assert.equal(code, 1);
    assert.deepEqual(
      steps.find((step) => step.step === 'challenge')?.verdict,
      'warn',
      'a 401 without resource_metadata is flagged',
    );
    const failed = steps.find((step) => step.verdict === 'fail')!;
    assert.equal(failed.step, 'prm');
    assert.match(
      failed.detail,
      /no protected resource metadata: the 401 named no resource_metadata and .*oauth-protected-resource\/no-prm\/mcp/,
    );
    assert.match(failed.hint ?? '', /AUTH-4/);
    assert.ok(steps.some((step) => step.step === 'retry' && step.verdict === 'skip'));
  });

  test('an authorization server that does not list S256: fails at "as-metadata"', async () => {
    const { code, steps } = await doctorAuth(`${broken.base}/no-pkce/mcp`);
    assert.equal(code, 1);
    assert.deepEqual(
      steps.filter((step) => step.verdict === 'ok').map((step) => step.step),
      ['dns', 'tcp', 'challenge', 'prm', 'as-metadata'],
    );
    const failed = steps.find((step) => step.verdict === 'fail')!;
    assert.equal(failed.step, 'as-metadata');
    assert.match(failed.detail, /does not list S256 in code_challenge_methods_supported \(\["plain"\]\)/);
  });

  test('metadata naming another issuer: fails at "as-metadata", its endpoints unused', async () => {
    const { code, steps } = await doctorAuth(`${broken.base}/wrong-issuer/mcp`);
    assert.equal(code, 1);
    const failed = steps.find((step) => step.verdict === 'fail')!;
    assert.equal(failed.step, 'as-metadata');
    assert.match(
      failed.detail,
      /names issuer "http:\/\/127\.0\.0\.1:\d+\/somebody-else", not "http:\/\/127\.0\.0\.1:\d+\/wrong-issuer-as"/,
    );
    assert.ok(!steps.some((step) => step.step === 'register' && step.verdict === 'ok'));
  });

  test('an authorization server where nothing listens: fails at "as-metadata" with the reason', async () => {
    const { code, steps } = await doctorAuth(`${broken.base}/dead-as/mcp`);
    assert.equal(code, 1);
    const failed = steps.find((step) => step.verdict === 'fail')!;
    assert.equal(failed.step, 'as-metadata');
    // The library's message is the same for every failure; the doctor adds the cause for its user.
    assert.match(failed.detail, /no metadata could be read from it: .*ECONNREFUSED/);
  });

  test('--auth with a stdio target is a usage error (exit 2)', async () => {
    const run = await runCli(['doctor', '--auth', '--', 'node', '-e', '0']);
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /--auth walks the OAuth flow of a URL target/);
  });
});

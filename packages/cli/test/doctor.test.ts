// `mcpwire doctor` as a person runs it: a healthy server passes every step (exit 0) over stdio and
// Streamable HTTP; a broken one is named at the step that fails, with the cause and a hint (exit 1):
// a server that prints to stdout (STDIO-1..3), a command not on PATH, a wrong URL path (404), a
// refused port, a host that does not resolve, a server answering a revision we do not speak (LIFE-9).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';
import { freePort } from '../../../test/support/free-port.ts';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'doctor');

interface Step {
  step: string;
  verdict: 'ok' | 'warn' | 'fail' | 'skip';
  detail: string;
  hint?: string;
}

async function doctorJson(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; steps: Step[]; ok: boolean }> {
  const run = await runCli(['doctor', '--json', ...args], { env });
  const report = JSON.parse(run.stdout) as { ok: boolean; steps: Step[] };
  return { code: run.code, ...report };
}

function verdicts(steps: readonly Step[]): string[] {
  return steps.map((step) => `${step.step}:${step.verdict}`);
}

function failedStep(steps: readonly Step[]): Step {
  const failed = steps.find((step) => step.verdict === 'fail');
  assert.ok(failed, JSON.stringify(steps));
  return failed;
}

describe('mcpwire doctor', { concurrency: 3 }, () => {
  let http: HttpServer;

  before(async () => {
    http = await startOurHttpServer();
  });

  after(() => http[Symbol.asyncDispose]());

  test('a healthy stdio server: every step passes, in order, exit 0 (both eras)', async () => {
    for (const era of ['handshake', 'stateless']) {
      const { code, steps, ok } = await doctorJson(['--era', era, '--', ...OUR_EVERYTHING]);
      assert.equal(code, 0, JSON.stringify(steps));
      assert.equal(ok, true);
      assert.deepEqual(verdicts(steps), [
        'command:ok',
        'start:ok',
        'era:ok',
        `${era === 'handshake' ? 'handshake' : 'discover'}:ok`,
        'tools:ok',
        'resources:ok',
        'prompts:ok',
        'stdout:ok',
      ]);
      assert.match(steps.find((step) => step.step === 'tools')!.detail, /^\d+ tools$/);
    }
  });

  test('the plain output: one line per step and the verdict', async () => {
    const run = await runCli(['doctor', '--', ...OUR_EVERYTHING]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^mcpwire doctor .*serve everything\n✓ command {4}/);
    assert.match(run.stdout, /\n✓ era {8}stateless revision 2026-07-28: server\/discover answered\n/);
    assert.match(run.stdout, /\nall steps passed\n$/);
  });

  test('a server that prints a banner on stdout fails the stdout step, everything else working', async () => {
    const { code, steps } = await doctorJson(['--', process.execPath, join(FIXTURES, 'banner-server.mjs')]);
    assert.equal(code, 1);
    const failed = failedStep(steps);
    assert.equal(failed.step, 'stdout');
    assert.match(failed.detail, /^1 line on stdout that is no JSON-RPC message: Parse error/);
    assert.match(failed.hint ?? '', /write logs and banners to stderr/);
    assert.equal(steps.find((step) => step.step === 'tools')?.verdict, 'ok');
  });

  test('a command not on PATH fails the command step; later steps are listed as not run', async () => {
    const { code, steps } = await doctorJson(['--', 'mcpwire-no-such-server-xyz']);
    assert.equal(code, 1);
    assert.deepEqual(verdicts(steps).slice(0, 2), ['command:fail', 'start:skip']);
    assert.match(failedStep(steps).hint ?? '', /install it or give its full path/);
  });

  test('a server answering a revision we do not speak fails the version step, naming both', async () => {
    const { code, steps } = await doctorJson(['--', process.execPath, join(FIXTURES, 'future-server.mjs')]);
    assert.equal(code, 1);
    const failed = failedStep(steps);
    assert.equal(failed.step, 'version');
    assert.match(failed.detail, /answered protocol 2099-01-01; mcpwire speaks 2025-11-25, /);
  });

  test('a healthy HTTP server: dns, tcp, endpoint, then MCP (no stdout step)', async () => {
    const { code, steps } = await doctorJson([http.url]);
    assert.equal(code, 0, JSON.stringify(steps));
    assert.deepEqual(verdicts(steps), [
      'dns:ok',
      'tcp:ok',
      'endpoint:ok',
      'era:ok',
      'discover:ok',
      'tools:ok',
      'resources:ok',
      'prompts:ok',
    ]);
  });

  test('a wrong URL path fails the endpoint step with the 404 and where to look', async () => {
    const wrong = http.url.replace(/\/mcp$/, '/wrong');
    const { code, steps } = await doctorJson([wrong]);
    assert.equal(code, 1);
    const failed = failedStep(steps);
    assert.equal(failed.step, 'endpoint');
    assert.match(failed.detail, /answered 404/);
    assert.match(failed.hint ?? '', /nothing is served at \/wrong: check the path/);
  });

  test('a refused port fails the tcp step with ECONNREFUSED', async () => {
    const port = await freePort();
    const { code, steps } = await doctorJson([`http://127.0.0.1:${port}/mcp`]);
    assert.equal(code, 1);
    const failed = failedStep(steps);
    assert.equal(failed.step, 'tcp');
    assert.match(failed.detail, /\(ECONNREFUSED\)$/);
    assert.match(failed.hint ?? '', new RegExp(`nothing listens on port ${port}`));
    assert.deepEqual(verdicts(steps).slice(2, 4), ['endpoint:skip', 'era:skip']);
  });

  test('a host name that does not resolve fails the dns step', async () => {
    const { code, steps } = await doctorJson(['http://mcpwire-doctor-test.invalid/mcp']);
    assert.equal(code, 1);
    const failed = failedStep(steps);
    assert.equal(failed.step, 'dns');
    assert.match(failed.detail, /^mcpwire-doctor-test\.invalid does not resolve \(E[A-Z_]+\)$/);
  });

  test('a self-signed certificate fails the tls step with what to trust; trusted, the next step runs', async () => {
    // A test-only certificate for localhost and 127.0.0.1, valid until 2126 (fixtures/doctor).
    const cert = join(FIXTURES, 'localhost-cert.pem');
    const server = createServer(
      { cert: readFileSync(cert), key: readFileSync(join(FIXTURES, 'localhost-key.pem')) },
      (_request, response) => response.writeHead(404).end('not here'),
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `https://localhost:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const untrusted = await doctorJson([url]);
      assert.equal(untrusted.code, 1);
      const failed = failedStep(untrusted.steps);
      assert.equal(failed.step, 'tls');
      assert.match(failed.detail, /DEPTH_ZERO_SELF_SIGNED_CERT/);
      assert.match(failed.hint ?? '', /NODE_EXTRA_CA_CERTS/);
      // Following the hint: the certificate verifies and the endpoint step is the one that fails.
      const trusted = await doctorJson([url], { NODE_EXTRA_CA_CERTS: cert });
      assert.deepEqual(
        verdicts(trusted.steps).slice(0, 4),
        ['dns:ok', 'tcp:ok', 'tls:ok', 'endpoint:fail'],
        JSON.stringify(trusted.steps),
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

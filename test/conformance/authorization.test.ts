// The official conformance suite's `authorization` command (0.2.0-alpha.12, under its own Node 22)
// against the development authorization server: authorization-server metadata (AUTH-11, CIMD
// support AUTH-3) and the authorization-code grant, its consent page answered over HTTP with fetch.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createAuthorizationServer } from '@mcpwire/auth-server';
import { freePort } from '../support/free-port.ts';
import { authorizeWithConsent } from '../support/oauth-driver.ts';

const NODE22 = 'test/conformance/node_modules/.bin/node';
const SUITE = 'test/conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js';
const INSTALL_HINT = 'run `npm ci --prefix test/conformance` (CI does it in .ci/run)';
const RESOURCE = 'http://127.0.0.1:3000/mcp';

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/**
 * Runs the suite's `authorization` command; when it prints the authorization URL and its callback
 * listener is up, approves the consent and follows the redirect to the listener. Resolves with the exit code.
 */
function runSuite(args: readonly string[], issuer: string): Promise<{ code: number | null; output: string }> {
  // The suite runs on Node 22 with none of the test runner's preloads (tsx, the wire check).
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(NODE22, [SUITE, 'authorization', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let isAnswered = false;
  const onOutput = (chunk: string): void => {
    output += chunk;
    const url = new RegExp(`^(${issuer}/authorize\\?\\S+)$`, 'm').exec(output)?.[1];
    if (url === undefined || isAnswered || !output.includes('Callback server started')) return;
    isAnswered = true;
    authorizeWithConsent(url)
      .then((location) => fetch(location))
      .then((response) => response.body?.cancel())
      .catch((error: unknown) => {
        output += `\n[test] answering the authorization failed: ${String(error)}\n`;
        child.kill();
      });
  };
  child.stdout.setEncoding('utf8').on('data', onOutput);
  child.stderr.setEncoding('utf8').on('data', onOutput);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

function readChecks(dir: string): Check[] {
  return readdirSync(dir).flatMap(
    (scenario) => JSON.parse(readFileSync(join(dir, scenario, 'checks.json'), 'utf8')) as Check[],
  );
}

for (const specVersion of ['2025-11-25', '2026-07-28']) {
  test(`the suite's authorization scenarios pass against the development authorization server (${specVersion})`, async () => {
    assert.ok(existsSync(NODE22), `Node 22 for the conformance suite is not installed: ${INSTALL_HINT}`);
    assert.ok(existsSync(SUITE), `@modelcontextprotocol/conformance is not installed: ${INSTALL_HINT}`);
    await using server = await createAuthorizationServer().listen();
    const port = await freePort();
    const registration = await fetch(`${server.issuer}/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'conformance suite',
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        token_endpoint_auth_method: 'none',
      }),
    });
    const { client_id: clientId } = (await registration.json()) as { client_id: string };
    const outputDir = mkdtempSync(join(tmpdir(), 'mcpwire-conformance-as-'));
    try {
      const { code, output } = await runSuite(
        [
          ...['--url', server.issuer, '--client-id', clientId, '--resource', RESOURCE],
          ...['--port', String(port), '--spec-version', specVersion, '-o', outputDir],
        ],
        server.issuer,
      );
      assert.equal(code, 0, output);
      const checks = readChecks(outputDir);
      assert.deepEqual(
        checks.map(({ id, status }) => `${id}: ${status}`).sort(),
        [
          'authorization-code-grant: SUCCESS',
          'authorization-server-metadata-cimd: SUCCESS',
          'authorization-server-metadata: SUCCESS',
        ],
        output,
      );
    } finally {
      rmSync(outputDir, { recursive: true, force: true });
    }
  });
}

// `mcpwire demo --http --auth` run as a person runs it: the story over Streamable HTTP behind OAuth,
// the development authorization server approving at once. The wire shows the whole flow in order
// (the 401 naming the resource metadata, discovery, registration, the auto-approved consent, the token,
// the retried request) in both eras, every check passes, and no token, code or verifier is printed.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runCli } from './support/cli-process.ts';

const RUN_TIMEOUT_MS = 120_000;

/** The order the flow's lines must appear in. */
const FLOW = [
  /^HTTP POST \/mcp {2}.*⇒ 401 Unauthorized .*WWW-Authenticate: Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp"/,
  /^HTTP GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp {2}⇒ 200 {2}\(resource metadata\)$/,
  /^HTTP GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-authorization-server {2}⇒ 200 {2}\(authorization server metadata\)$/,
  /^HTTP POST http:\/\/127\.0\.0\.1:\d+\/register {2}⇒ 201 {2}\(registration\)$/,
  /^HTTP GET http:\/\/127\.0\.0\.1:\d+\/authorize {2}⇒ 30\d {2}\(authorization\)$/,
  /^ {2}redirected to http:\/\/127\.0\.0\.1:8976\/callback\?code=\[redacted\]&state=[^&]+&iss=/,
  /^HTTP POST http:\/\/127\.0\.0\.1:\d+\/token {2}⇒ 200 {2}\(token\)$/,
  /^ {2}sent grant_type=authorization_code&code=%5Bredacted%5D&code_verifier=%5Bredacted%5D&/,
  /^ {2}received \{"access_token":"\[redacted\]","token_type":"Bearer".*"refresh_token":"\[redacted\]"/,
  /^HTTP POST \/mcp {2}.*⇒ 200 OK/,
];

describe('mcpwire demo --http --auth', { concurrency: 2 }, () => {
  for (const era of ['handshake', 'stateless'] as const) {
    test(`${era}: the OAuth flow on the wire, in order, every check passed, no credential printed`, async () => {
      const { code, stdout, stderr } = await runCli(['demo', '--http', '--auth', '--raw', '--era', era], {
        timeoutMs: RUN_TIMEOUT_MS,
      });
      assert.equal(code, 0, `${stdout}\n${stderr}`);
      const lines = stdout.split('\n');
      let at = -1;
      for (const pattern of FLOW) {
        const next = lines.findIndex((line, index) => index > at && pattern.test(line));
        assert.ok(next > at, `${pattern} after line ${at}:\n${lines.slice(0, 60).join('\n')}`);
        at = next;
      }
      assert.match(stdout, /^# == Authorization \(OAuth 2\.1\), as it crossed the wire$/m);
      assert.match(stdout, /^# ✓ the refused request was sent again with the token, and accepted$/m);
      assert.match(lines.filter((line) => line !== '').at(-1) ?? '', /^demo: all \d+ checks passed/);
      assert.doesNotMatch(stdout, /✗/);
      // The development server's access tokens are JWTs: none may be printed, whole or in part.
      assert.doesNotMatch(stdout, /eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/);
      assert.doesNotMatch(stdout, /(?:code|code_verifier|refresh_token)=(?!%5Bredacted%5D|\[redacted\])/);
    });
  }

  test('--auth without --http is a usage error (exit 2)', async () => {
    const { code, stderr } = await runCli(['demo', '--auth']);
    assert.equal(code, 2, stderr);
    assert.match(stderr, /--auth needs --http/);
  });
});

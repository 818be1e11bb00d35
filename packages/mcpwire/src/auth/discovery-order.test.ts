// AUTH-12's metadata URLs for issuers with and without a path, and SEC-6's address classes: pure.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { authorizationServerMetadataUrls } from './authorization-server.ts';
import { protectedResourceMetadataUrls } from './protected-resource.ts';
import { checkUrl, isPrivateHost } from './url-policy.ts';
import { parseBearerChallenge } from './www-authenticate.ts';
import { selectScope } from './scope.ts';

test('AUTH-12: an issuer with a path gets three URLs in order, one without gets two', () => {
  assert.deepEqual(
    authorizationServerMetadataUrls(new URL('https://auth.example.com/tenant1')).map((u) => u.href),
    [
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ],
  );
  assert.deepEqual(
    authorizationServerMetadataUrls(new URL('https://auth.example.com')).map((u) => u.href),
    [
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ],
  );
});

test('AUTH-7: path-inserted protected resource metadata first, then the root', () => {
  assert.deepEqual(
    protectedResourceMetadataUrls(new URL('https://mcp.example.com/public/mcp')).map((u) => u.href),
    [
      'https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp',
      'https://mcp.example.com/.well-known/oauth-protected-resource',
    ],
  );
});

test('AUTH-10: WWW-Authenticate parameters, quoted commas and escapes, the Bearer challenge among others', () => {
  assert.deepEqual(
    parseBearerChallenge(
      'Basic realm="x", Bearer error="insufficient_scope", scope="a b", resource_metadata="https://m/x?a=1,2", error_description="say \\"hi\\""',
    ),
    {
      resourceMetadata: 'https://m/x?a=1,2',
      scope: 'a b',
      error: 'insufficient_scope',
      errorDescription: 'say "hi"',
    },
  );
  assert.deepEqual(parseBearerChallenge('DPoP scope=read'), { scope: 'read' });
  assert.deepEqual(parseBearerChallenge('Basic realm="x"'), {});
  assert.deepEqual(parseBearerChallenge(null), {});
});

test('AUTH-18, S26-AUTH-7, S26-AUTH-8: challenge scope, else scopes_supported, else none; offline_access only when listed; union on step-up', () => {
  const offline = { isOfflineAccessWanted: true };
  assert.equal(selectScope({ ...offline, challenged: 'a', resourceScopes: ['b', 'c'] }), 'a');
  assert.equal(selectScope({ ...offline, resourceScopes: ['b', 'c'] }), 'b c');
  assert.equal(selectScope({ ...offline, serverScopes: ['offline_access'] }), undefined);
  assert.equal(
    selectScope({ ...offline, resourceScopes: ['b'], serverScopes: ['b', 'offline_access'] }),
    'b offline_access',
  );
  assert.equal(selectScope({ ...offline, resourceScopes: ['b'], serverScopes: ['b'] }), 'b');
  assert.equal(selectScope({ ...offline, challenged: 'write', previous: 'read write' }), 'read write');
  assert.equal(selectScope({ ...offline, challenged: 'admin', previous: 'read' }), 'read admin');
});

test('SEC-6: loopback, private, link-local and documentation literals are private; public names and addresses are not', () => {
  for (const host of [
    'localhost',
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '[::1]',
    '[fd00::1]',
    '[fe80::1]',
    '0.0.0.0',
    '[2001:db8::1]',
  ])
    assert.equal(isPrivateHost(host), true, host);
  for (const host of ['example.com', '8.8.8.8', '172.32.0.1', '[2606:4700::1]'])
    assert.equal(isPrivateHost(host), false, host);
  assert.throws(
    () => checkUrl(new URL('http://auth.example.com/token'), {}, 'https://mcp.example.com'),
    /only for loopback/,
  );
  assert.throws(() => checkUrl(new URL('javascript:alert(1)'), {}, 'https://mcp.example.com'), /only https/);
  assert.doesNotThrow(() =>
    checkUrl(new URL('https://auth.example.com/token'), {}, 'https://mcp.example.com'),
  );
  assert.doesNotThrow(() => checkUrl(new URL('http://127.0.0.1:9/x'), {}, 'http://127.0.0.1:9'));
});

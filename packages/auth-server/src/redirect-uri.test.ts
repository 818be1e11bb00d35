// Redirect URI registration and matching (AUTH-30, AUTH-32, RFC 8252 §7.3).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isRegisteredRedirectUri, redirectUriProblem } from './redirect-uri.ts';

test('https, loopback http and private-use schemes may be registered; others may not', () => {
  for (const uri of [
    'https://app.example/cb',
    'http://127.0.0.1:1234/cb',
    'http://[::1]/cb',
    'http://localhost:3000/cb',
    'com.example.app:/cb',
  ])
    assert.equal(redirectUriProblem(uri), undefined, uri);
  for (const uri of [
    'http://example.com/cb',
    'https://a.example/cb#f',
    'javascript:alert(1)',
    'cb',
    'data:text/html,x',
  ])
    assert.notEqual(redirectUriProblem(uri), undefined, uri);
});

test('matching is exact, but a loopback IP literal may use any port', () => {
  const registered = ['http://127.0.0.1:8000/cb', 'https://app.example/cb?x=1'];
  assert.ok(isRegisteredRedirectUri('http://127.0.0.1:8000/cb', registered));
  assert.ok(isRegisteredRedirectUri('http://127.0.0.1:51234/cb', registered));
  assert.ok(isRegisteredRedirectUri('http://127.0.0.1/cb', registered));
  assert.ok(isRegisteredRedirectUri('https://app.example/cb?x=1', registered));
  for (const uri of [
    'http://127.0.0.1:8000/cb/',
    'http://127.0.0.1:8000/CB',
    'https://app.example/cb',
    'https://app.example/cb?x=1&y=2',
    'http://localhost:8000/cb',
  ])
    assert.equal(isRegisteredRedirectUri(uri, registered), false, uri);
  assert.equal(
    isRegisteredRedirectUri('http://localhost:9000/cb', ['http://localhost:8000/cb']),
    false,
    'localhost is a name: exact',
  );
});

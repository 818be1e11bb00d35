// The redaction guarantees with the shortcuts that make recording cheap: text that names no secret
// skips the walk (mayNameSecret covers every spelling SECRET_NAME redacts, escapes included), and
// --redact paths copy only what they replace, never changing the message that is forwarded.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayNameSecret, REDACTED, Redactor } from './redact.ts';

/** Every spelling the default key rule redacts (SECRET_NAME's alternatives, separators expanded). */
const SECRET_NAMES = [
  ...['access', 'refresh', 'id', 'auth', 'session'].flatMap((word) =>
    ['_', '-', ''].map((separator) => `${word}${separator}token`),
  ),
  'token',
  'password',
  'passwd',
  'secret',
  ...['_', '-', ''].flatMap((separator) => [
    `client${separator}secret`,
    `api${separator}key`,
    `private${separator}key`,
    `code${separator}verifier`,
  ]),
  'apikey',
  'authorization',
  'cookie',
];
const spellings = (name: string): string[] => [
  name,
  name.toUpperCase(),
  name[0]!.toUpperCase() + name.slice(1),
  `x-${name}`,
  `X-${name.toUpperCase()}`,
];

test('every credential-named key is redacted, with or without the text it was parsed from', () => {
  const redactor = new Redactor();
  for (const name of SECRET_NAMES)
    for (const key of spellings(name)) {
      const text = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { arguments: { [key]: 's3cret' } },
      });
      assert.ok(mayNameSecret(text), key);
      for (const hint of [text, undefined]) {
        const redacted = redactor.message(
          JSON.parse(text) as { params: { arguments: Record<string, unknown> } },
          hint,
        );
        assert.equal(redacted.params.arguments[key], REDACTED, key);
      }
    }
});

test('a key spelled with \\u escapes is still redacted: the text hint does not skip it', () => {
  const text =
    '{"jsonrpc":"2.0","id":1,"method":"x","params":{"\\u0074oken":"s3cret","p\\u0061ssword":"two"}}';
  const parsed = JSON.parse(text) as { params: Record<string, unknown> };
  assert.deepEqual(Object.keys(parsed.params), ['token', 'password']);
  assert.ok(mayNameSecret(text));
  assert.deepEqual(new Redactor().message(parsed, text).params, { token: REDACTED, password: REDACTED });
});

test('text that names no secret is returned as it is: the same object, not a copy', () => {
  const text = '{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"hello 7"}]}}';
  assert.equal(mayNameSecret(text), false);
  const message = JSON.parse(text) as unknown;
  assert.equal(new Redactor().message(message, text), message);
  // A word that only looks like one is walked, and left alone.
  const progress = '{"jsonrpc":"2.0","id":8,"method":"x","params":{"_meta":{"progressToken":1}}}';
  assert.ok(mayNameSecret(progress));
  const parsed = JSON.parse(progress) as unknown;
  assert.equal(new Redactor().message(parsed, progress), parsed);
});

test('--redact paths replace what they reach in a copy; the message itself never changes', () => {
  const redactor = new Redactor([
    '$.params.arguments.ssn',
    '$..card',
    '$.result.content[*].text',
    '$.params.list[1]',
    '$.params.absent',
  ]);
  const message = {
    jsonrpc: '2.0',
    id: 1,
    params: { arguments: { ssn: '123', keep: 'k' }, list: ['a', 'b'], deep: [{ card: '4111', other: 1 }] },
    result: {
      content: [
        { type: 'text', text: 'x' },
        { type: 'text', text: 'y' },
      ],
    },
  };
  const before = structuredClone(message);
  const redacted = redactor.message(message);
  assert.deepEqual(message, before);
  assert.deepEqual(redacted, {
    ...before,
    params: {
      arguments: { ssn: REDACTED, keep: 'k' },
      list: ['a', REDACTED],
      deep: [{ card: REDACTED, other: 1 }],
    },
    result: {
      content: [
        { type: 'text', text: REDACTED },
        { type: 'text', text: REDACTED },
      ],
    },
  });
  // A path that reaches nothing adds nothing and copies nothing.
  const untouched = { jsonrpc: '2.0', id: 2, params: { other: 1 } };
  assert.equal(
    new Redactor(['$.params.absent', '$..nothing', '$.params.toString']).message(untouched),
    untouched,
  );
  assert.ok(!('absent' in redacted.params));
});

test('OAuth bodies: form and JSON credentials redacted (code, code_verifier, client_secret, tokens), the rest kept', () => {
  const redactor = new Redactor();
  const form = redactor.body(
    'grant_type=authorization_code&code=abc&code_verifier=ver&client_id=c1&client_secret=sec&refresh_token=rt&resource=https%3A%2F%2Fx',
    'application/x-www-form-urlencoded;charset=UTF-8',
  );
  const params = new URLSearchParams(form);
  for (const name of ['code', 'code_verifier', 'client_secret', 'refresh_token'])
    assert.equal(params.get(name), REDACTED, name);
  assert.deepEqual(
    [params.get('grant_type'), params.get('client_id'), params.get('resource')],
    ['authorization_code', 'c1', 'https://x'],
  );
  const json = JSON.parse(
    redactor.body(
      JSON.stringify({
        access_token: 'at',
        refresh_token: 'rt',
        id_token: 'it',
        token_type: 'Bearer',
        client_id: 'c1',
        client_secret: 'cs',
        registration_access_token: 'rat',
        expires_in: 60,
      }),
      'application/json',
    ),
  ) as Record<string, unknown>;
  assert.deepEqual(json, {
    access_token: REDACTED,
    refresh_token: REDACTED,
    id_token: REDACTED,
    token_type: 'Bearer',
    client_id: 'c1',
    client_secret: REDACTED,
    registration_access_token: REDACTED,
    expires_in: 60,
  });
  const plain = 'no JSON, no form: kept';
  assert.equal(redactor.body(plain, 'text/plain'), plain);
});

test('`code` is a credential in a body only: a JSON-RPC error code in a message is kept', () => {
  const message = { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } };
  assert.equal(new Redactor().message(message, JSON.stringify(message)), message);
});

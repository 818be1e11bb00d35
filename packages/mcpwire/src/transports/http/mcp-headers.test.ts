// The header value encoding of S26-HDR-4 and the Mcp-Name rule of S26-HTTP-12.

import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, it } from 'node:test';
import { encodeHeaderValue, nameOf, setStatelessHeaders, toHeaderValue } from './mcp-headers.ts';

const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('encodeHeaderValue', () => {
  it('keeps visible ASCII and inner spaces plain', () => {
    for (const plain of ['us-west1', 'us west 1', '42', 'true', '', 'a=?b', '=?base64?', '?=', '~!@#$%^&*()'])
      assert.equal(encodeHeaderValue(plain), plain, JSON.stringify(plain));
  });

  it('uses base64 of the UTF-8 bytes for non-ASCII, controls, edge spaces and sentinel look-alikes', () => {
    for (const unsafe of [
      'Hello, 世界',
      'café',
      '😀',
      ' padded ',
      ' leading',
      'trailing ',
      'line1\nline2',
      'line1\r\nline2',
      '\tindented',
      'nul\0',
      'del\x7f',
      '=?base64?SGk=?=',
      '=?base64?=',
    ])
      assert.equal(encodeHeaderValue(unsafe), base64(unsafe), JSON.stringify(unsafe));
    assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
  });

  it('gives values a Headers object accepts unchanged', () => {
    const headers = new Headers();
    for (const [i, value] of ['x', ' y ', 'a\r\nb', '', 'é'].entries()) {
      headers.set(`Mcp-Param-V${i}`, encodeHeaderValue(value));
      assert.equal(headers.get(`mcp-param-v${i}`), encodeHeaderValue(value));
    }
  });
});

describe('toHeaderValue', () => {
  it('converts strings, finite numbers and booleans; omits null, absent and structured values', () => {
    assert.equal(toHeaderValue('s'), 's');
    assert.equal(toHeaderValue(''), '');
    assert.equal(toHeaderValue(42), '42');
    assert.equal(toHeaderValue(-7), '-7');
    assert.equal(toHeaderValue(9007199254740991), '9007199254740991');
    assert.equal(toHeaderValue(false), 'false');
    assert.equal(toHeaderValue(true), 'true');
    for (const none of [null, undefined, {}, [], Number.NaN, Infinity])
      assert.equal(toHeaderValue(none), undefined);
  });
});

describe('nameOf and setStatelessHeaders', () => {
  it('mirrors params.name, params.uri or params.taskId for the methods that have one', () => {
    assert.equal(nameOf('tools/call', { name: 't' }), 't');
    assert.equal(nameOf('prompts/get', { name: 'p' }), 'p');
    assert.equal(nameOf('resources/read', { uri: 'file:///a%20b' }), 'file:///a%20b');
    assert.equal(nameOf('tasks/cancel', { taskId: 'k' }), 'k');
    assert.equal(nameOf('tools/list', { name: 'x' }), undefined);
    assert.equal(nameOf('tools/call', {}), undefined);
    assert.equal(nameOf('tools/call', undefined), undefined);
  });

  it('sets the version, the method, the encoded name and the given params', () => {
    const headers = new Headers({ 'Mcp-Session-Id': 'kept' });
    setStatelessHeaders(
      headers,
      { method: 'resources/read', params: { uri: 'file:///ünï' } },
      { version: '2026-07-28', params: [['Mcp-Param-X', '1']] },
    );
    assert.deepEqual(Object.fromEntries(headers), {
      'mcp-session-id': 'kept',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'resources/read',
      'mcp-name': base64('file:///ünï'),
      'mcp-param-x': '1',
    });
  });
});

// Properties of the `Mcp-Name` / `Mcp-Param-*` value encoding (S26-HDR-4, S26-HDR-5): encoding round
// trips, encoded values are always legal header text, and decoding any value follows a plain model.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../../test/support/property.ts';
import { decodeHeaderValue, encodeHeaderValue } from './mcp-headers.ts';

/** `text` with each lone surrogate replaced by U+FFFD, as UTF-8 encoding does. */
function wellFormed(text: string): string {
  return new TextDecoder().decode(new TextEncoder().encode(text));
}

/** Strings of any UTF-16 code units, lone surrogates and controls included. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    maxLength: 6,
  }),
  fc.constantFrom(
    ' x',
    'x ',
    '=?base64?',
    '?=',
    '=?base64?=',
    '=?base64?SGk=?=',
    '\t',
    '\u0000',
    '\u007f',
    '\ud800',
  ),
);

/** Visible ASCII and the space: what a header may carry unencoded. */
const plainText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Payloads for the sentinel: right and wrong base64 of right and wrong UTF-8. */
const payload = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 8 }).map((text) => toBase64(new TextEncoder().encode(text))),
  fc.uint8Array({ maxLength: 8 }).map((bytes) => toBase64(bytes)),
  fc.string({ unit: fc.constantFrom(...base64Alphabet, '=', '-', '_', '!', ' '), maxLength: 10 }),
  fc.uint8Array({ minLength: 1, maxLength: 8 }).map((bytes) => toBase64(bytes).replace(/=+$/, '')),
);

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** S26-HDR-5 read plainly: visible ASCII only; a wrapper holds canonical padded base64 of valid UTF-8. */
function model(value: string): string | undefined {
  if ([...value].some((char) => char < ' ' || char > '~')) return undefined;
  const isWrapped = value.length >= 11 && value.startsWith('=?base64?') && value.endsWith('?=');
  if (!isWrapped) return value;
  const inner = value.slice(9, -2);
  let binary: string;
  try {
    binary = atob(inner);
  } catch {
    return undefined;
  }
  if (inner.length % 4 !== 0 || btoa(binary) !== inner) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

describe('header value encoding properties', () => {
  test('decode(encode(s)) is s for every string, lone surrogates becoming U+FFFD (S26-HDR-4, S26-HDR-5)', async (t) => {
    await checkProperty(
      t,
      fc.property(anyText, (text) => {
        assert.equal(decodeHeaderValue(encodeHeaderValue(text)), wellFormed(text));
      }),
    );
  });

  test('an encoded value is legal header text: visible ASCII, no edge spaces, kept as is by Headers (S26-HDR-4)', async (t) => {
    await checkProperty(
      t,
      fc.property(anyText, (text) => {
        const encoded = encodeHeaderValue(text);
        assert.match(encoded, /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/);
        const headers = new Headers();
        headers.set('Mcp-Param-X', encoded);
        assert.equal(headers.get('mcp-param-x'), encoded);
      }),
    );
  });

  test('safe plain text stays plain, and text that looks like the sentinel is always wrapped (S26-HDR-4)', async (t) => {
    await checkProperty(
      t,
      fc.property(
        fc.oneof(
          plainText,
          plainText.map((s) => `=?base64?${s}?=`),
        ),
        (text) => {
          const looksWrapped = text.startsWith('=?base64?') && text.endsWith('?=');
          const isSafe = !text.startsWith(' ') && !text.endsWith(' ') && !looksWrapped;
          const encoded = encodeHeaderValue(text);
          if (isSafe) assert.equal(encoded, text);
          else assert.ok(encoded.startsWith('=?base64?') && encoded !== text);
        },
      ),
    );
  });

  test('decoding any value never throws and follows the model: literal, canonical base64 of UTF-8, or undefined (S26-HDR-5)', async (t) => {
    await checkProperty(
      t,
      fc.property(
        fc.oneof(
          anyText,
          plainText,
          payload.map((p) => `=?base64?${p}?=`),
        ),
        (value) => {
          assert.equal(decodeHeaderValue(value), model(value));
        },
      ),
    );
  });
});

// The form answer checks, value by value: each format's edge cases and the inclusive bounds.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkNumber, checkString } from './field-checks.ts';

test('formats: email, uri, date, date-time accept what the spec means and refuse the rest', () => {
  const cases: Array<[string, string, boolean]> = [
    ['email', 'ada@example.com', true],
    ['email', 'ada@localhost', true],
    ['email', 'not-an-email', false],
    ['email', 'a b@example.com', false],
    ['email', 'ada@@example.com', false],
    ['email', 'ada@example..com', false],
    ['uri', 'https://example.com/a?b#c', true],
    ['uri', 'urn:isbn:0451450523', true],
    ['uri', 'example.com', false],
    ['date', '2024-02-29', true],
    ['date', '2023-02-29', false],
    ['date', '2024-2-1', false],
    ['date-time', '2026-12-06T10:00:00Z', true],
    ['date-time', '2026-12-06t10:00:00.123+05:30', true],
    ['date-time', '2016-12-31T23:59:60Z', true],
    ['date-time', '2026-12-06 10:00:00Z', false],
    ['date-time', '2026-12-06T24:00:00Z', false],
    ['date-time', '2026-12-06T10:00:00', false],
  ];
  for (const [format, value, isValid] of cases)
    assert.equal(checkString(value, { format }) === undefined, isValid, `${format} ${value}`);
  assert.equal(checkString('anything', { format: 'hostname' }), undefined);
});

test('lengths count code points; bounds are inclusive', () => {
  assert.equal(checkString('✓✓', { minLength: 2, maxLength: 2 }), undefined);
  assert.equal(checkString('😀', { minLength: 2 }), 'At least 2 characters');
  assert.equal(checkString('abc', { maxLength: 2 }), 'At most 2 characters');
  assert.equal(checkNumber(18, { minimum: 18, maximum: 18 }), undefined);
  assert.equal(checkNumber(17.5, { minimum: 18 }), 'At least 18');
  assert.equal(checkNumber(131, { maximum: 130 }), 'At most 130');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatErrorLine, toJsonPointer } from './error-line.ts';

test('toJsonPointer joins keys and indexes, unwrapping {key} segments', () => {
  assert.equal(toJsonPointer([]), '');
  assert.equal(toJsonPointer(['a', 0, { key: 'b' }]), '/a/0/b');
});

test('toJsonPointer escapes ~ and / as RFC 6901 requires', () => {
  assert.equal(toJsonPointer(['a/b', 'c~d']), '/a~1b/c~0d');
});

test('formatErrorLine names the root explicitly', () => {
  assert.equal(formatErrorLine('', 'must be object'), '(root): must be object');
  assert.equal(formatErrorLine('/a', 'must be number'), '/a: must be number');
});

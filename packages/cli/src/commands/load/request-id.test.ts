// The decimal text of the wire engines' request ids: the text String() gives, built without V8's
// number-to-string cache (which keeps each id's string alive past two scavenges: promoted garbage).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalOf } from './request-id.ts';

test('every id the engines use reads as String() reads it, across thousands and powers of ten', () => {
  const starts = [0, 1, 998, 9_999, 2 ** 30 - 5, 2 ** 31 - 3, 2 ** 32 - 2, 999_999_999_998, 2 ** 53 - 3];
  for (const start of starts)
    for (let id = start; id < start + 3 && id <= Number.MAX_SAFE_INTEGER; id++)
      assert.equal(decimalOf(id), String(id));
  for (let id = 2 ** 30; id < 2 ** 30 + 5_000; id++) assert.equal(decimalOf(id), String(id));
});

test('an id that is no non-negative safe integer reads as String() reads it', () => {
  for (const id of [-1, -1000, 1.5, 2 ** 53, 1e21]) assert.equal(decimalOf(id), String(id));
});

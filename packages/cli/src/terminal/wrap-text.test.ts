import assert from 'node:assert/strict';
import { test } from 'node:test';
import { displayWidth, truncateToWidth, wrapText } from './wrap-text.ts';

test('displayWidth: wide characters and emoji two columns, combining marks none, escapes their length', () => {
  assert.equal(displayWidth('abc'), 3);
  assert.equal(displayWidth('漢字'), 4);
  assert.equal(displayWidth('😀'), 2);
  assert.equal(displayWidth('e\u0301'), 1);
  assert.equal(displayWidth('\\x1b\\u202e'), 10);
});

test('wrapText: greedy at spaces; a long word broken between code points and whole escapes', () => {
  assert.deepEqual(wrapText('one two three four', 9), ['one two', 'three', 'four']);
  for (let width = 1; width <= 12; width++) {
    const lines = wrapText('\\x1b\\u202e😀😀字字e\u0301'.repeat(3), width);
    for (const line of lines) {
      assert.ok(displayWidth(line) <= Math.max(width, 6), `${JSON.stringify(line)} at ${width}`);
      assert.equal(/[\ud800-\udbff]$|^[\udc00-\udfff]|^\u0301/.test(line), false, JSON.stringify(line));
    }
    const joined = lines.join('');
    assert.equal(joined.split('\\x1b').length - 1, 3, `width ${width}: ${JSON.stringify(lines)}`);
    assert.equal(joined.split('\\u202e').length - 1, 3, `width ${width}: ${JSON.stringify(lines)}`);
  }
});

test('truncateToWidth: the longest start that fits with the marker; text that fits unchanged', () => {
  assert.equal(truncateToWidth('abcdef', 6), 'abcdef');
  assert.equal(truncateToWidth('abcdefg', 6), 'abcde…');
  assert.equal(truncateToWidth('漢字漢字', 5), '漢字…');
  assert.equal(truncateToWidth('ab\\x1bcd', 5), 'ab…');
});

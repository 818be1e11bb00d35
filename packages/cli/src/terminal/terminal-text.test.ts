// toTerminalText and toTerminalJson: every character a terminal acts on shown, everything else kept.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toTerminalJson, toTerminalText } from './terminal-text.ts';

test('C0, DEL, C1 and bidi controls are shown as \\xHH / \\uHHHH; other text is kept', () => {
  assert.equal(
    toTerminalText('a\x1b]8;;http://evil\x07b\x9b2A\x7f\u202ec\u2066d\r'),
    'a\\x1b]8;;http://evil\\x07b\\x9b2A\\x7f\\u202ec\\u2066d\\x0d',
  );
  assert.equal(toTerminalText('héllo, 世界 🙂 \u200f'), 'héllo, 世界 🙂 \u200f');
});

test('line breaks and tabs: escaped by default, kept with keepNewlines', () => {
  assert.equal(toTerminalText('a\nb\tc'), 'a\\x0ab\\x09c');
  assert.equal(toTerminalText('a\nb\tc\x00', { keepNewlines: true }), 'a\nb\tc\\x00');
});

test('idempotent: its output has nothing left to escape', () => {
  const once = toTerminalText('\x1b[2A\x85\u202d');
  assert.equal(toTerminalText(once), once);
});

test('toTerminalJson: the same JSON value, with DEL, C1 and bidi written as \\u escapes', () => {
  const value = { 'k\u202e': 'v\x1b\x9b\x7f\u2069', n: [1, 'x'] };
  const json = toTerminalJson(JSON.stringify(value, null, 2));
  assert.deepEqual(JSON.parse(json), value);
  assert.doesNotMatch(json, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
});

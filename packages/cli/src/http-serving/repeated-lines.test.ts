import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collapseRepeats } from './repeated-lines.ts';

test('a line said again within the window is counted, not written; the count is said before the next line', () => {
  const written: string[] = [];
  let now = 0;
  const say = collapseRepeats((line) => written.push(line), { windowMs: 10_000, now: () => now });
  say('mcpwire: Redis is unreachable');
  for (let i = 0; i < 500; i++) {
    now += 10;
    say('mcpwire: Redis is unreachable');
  }
  assert.deepEqual(written, ['mcpwire: Redis is unreachable']);
  say('mcpwire: serving again');
  assert.deepEqual(written, [
    'mcpwire: Redis is unreachable',
    'mcpwire: (the line above 500 more times)',
    'mcpwire: serving again',
  ]);
});

test('the same line after the window is written again, with the count of what was held back', () => {
  const written: string[] = [];
  let now = 0;
  const say = collapseRepeats((line) => written.push(line), { windowMs: 1_000, now: () => now });
  say('x');
  now = 500;
  say('x');
  now = 1_500;
  say('x');
  now = 1_600;
  say('y');
  assert.deepEqual(written, ['x', 'mcpwire: (the line above 1 more time)', 'x', 'y']);
});

// parseCallSpec: a --call operand split into the tool and its key=value pairs as a shell splits words.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../exit-code.ts';
import { parseCallSpec } from './call-spec.ts';

test('the first word is the tool, the rest are pairs; runs of whitespace separate words', () => {
  assert.deepEqual(parseCallSpec('  add\ta=2   b=3 '), { tool: 'add', pairs: ['a=2', 'b=3'] });
  assert.deepEqual(parseCallSpec('list_allowed_directories'), {
    tool: 'list_allowed_directories',
    pairs: [],
  });
});

test('quotes keep spaces and are removed; a backslash escapes outside single quotes', () => {
  assert.deepEqual(parseCallSpec(`search query='is:open label:"bug"' note="it's \\"here\\""`), {
    tool: 'search',
    pairs: ['query=is:open label:"bug"', `note=it's "here"`],
  });
  assert.deepEqual(parseCallSpec(`echo message=a\\ b path='C:\\dir'`), {
    tool: 'echo',
    pairs: ['message=a b', 'path=C:\\dir'],
  });
  assert.deepEqual(parseCallSpec(`echo message=''`), { tool: 'echo', pairs: ['message='] });
});

test('an empty operand or an unclosed quote is a usage error', () => {
  assert.throws(() => parseCallSpec('   '), UsageError);
  assert.throws(() => parseCallSpec(`''`), UsageError);
  assert.throws(() => parseCallSpec(`get_weather city='Oslo`), /the ' quote is never closed/);
  assert.throws(() => parseCallSpec(`get_weather city="Oslo`), /the " quote is never closed/);
});

// The aggregate naming rule (naming.ts: the charset, the hash suffix for a collision or a long name,
// order independence) and the --allow/--deny patterns (name-filter.ts).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createNameFilter, matchesPattern } from './name-filter.ts';
import { nameAll, toNameText } from './naming.ts';

describe('aggregate names', () => {
  test('characters outside [A-Za-z0-9_-] become _, the server prefix joined by __', () => {
    assert.equal(toNameText('a.b c/é😀'), 'a_b_c___');
    assert.deepEqual([...nameAll([{ server: 'my.srv', name: 'get-x' }]).keys()], ['my_srv__get-x']);
  });

  test('names mapping to the same text are all hashed, whatever the order', () => {
    const a = { server: 'git.hub', name: 'search' };
    const b = { server: 'git_hub', name: 'search' };
    const one = nameAll([a, b]);
    const two = nameAll([b, a]);
    assert.deepEqual([...one].toSorted(), [...two].toSorted());
    const names = [...one.keys()];
    assert.equal(names.length, 2);
    for (const name of names) assert.match(name, /^git_hub__search_[0-9a-f]{8}$/);
    assert.notEqual(names[0], names[1]);
  });

  test('a name over 64 characters is cut to 55 plus _ and 8 hex', () => {
    const named = nameAll([{ server: 'server', name: 'x'.repeat(80) }]);
    const [name] = [...named.keys()];
    assert.equal(name!.length, 64);
    assert.match(name!, /^server__x{47}_[0-9a-f]{8}$/);
  });
});

describe('--allow/--deny patterns', () => {
  test('* any run, ? one character, the whole name, deny over allow', () => {
    assert.equal(matchesPattern('github__*', 'github__get_issue'), true);
    assert.equal(matchesPattern('github__*', 'x_github__get_issue'), false);
    assert.equal(matchesPattern('*__delete_*', 'a__delete_note'), true);
    assert.equal(matchesPattern('a?c', 'abc'), true);
    assert.equal(matchesPattern('a?c', 'ac'), false);
    assert.equal(matchesPattern('a*b*c', 'axxbyyc'), true);
    assert.equal(matchesPattern('a*b*c', 'axxbyy'), false);
    const isServed = createNameFilter(['s__*'], ['s__delete_*']);
    assert.deepEqual(['s__get', 's__delete_x', 't__get'].map(isServed), [true, false, false]);
  });
});

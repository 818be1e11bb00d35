// The aggregate naming rule (naming.ts): the charset, the hash suffix for a collision or a long name, order independence.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
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

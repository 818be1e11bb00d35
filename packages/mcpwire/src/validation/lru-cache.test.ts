import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LruCache } from './lru-cache.ts';

test('evicts the least recently used entry once full', () => {
  const cache = new LruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('b', 2);
  assert.equal(cache.get('a'), 1); // refreshes a, so b is now the stalest
  cache.set('c', 3);
  assert.equal(cache.size, 2);
  assert.equal(cache.get('b'), undefined);
  assert.equal(cache.get('a'), 1);
  assert.equal(cache.get('c'), 3);
});

test('setting an existing key replaces it without growing', () => {
  const cache = new LruCache<string, number>(2);
  cache.set('a', 1);
  cache.set('a', 2);
  assert.equal(cache.size, 1);
  assert.equal(cache.get('a'), 2);
});

test('rejects a size that is not a positive integer', () => {
  assert.throws(() => new LruCache(0), RangeError);
  assert.throws(() => new LruCache(1.5), RangeError);
});

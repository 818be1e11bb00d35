import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import {
  parseAuthMode,
  parseCount,
  parseMilliseconds,
  parsePort,
  parseSeconds,
  parseWholeSeconds,
} from './option-values.ts';

test('parsePort: 0 to 65535, digits only', () => {
  assert.equal(parsePort('0'), 0);
  assert.equal(parsePort('65535'), 65_535);
  for (const bad of ['65536', '-1', '80.5', '0x50', '', ' 80', '123456'])
    assert.throws(() => parsePort(bad), InvalidArgumentError, bad);
});

test('parseCount: a whole number of at least 1', () => {
  assert.equal(parseCount('1'), 1);
  assert.equal(parseCount('999999999'), 999_999_999);
  for (const bad of ['0', '1.5', '-3', '1e3', '1234567890', ''])
    assert.throws(() => parseCount(bad), InvalidArgumentError, bad);
});

test('parseSeconds: above 0, up to three decimals', () => {
  assert.equal(parseSeconds('600'), 600);
  assert.equal(parseSeconds('0.5'), 0.5);
  assert.equal(parseSeconds('0.001'), 0.001);
  for (const bad of ['0', '0.0', '0.0001', '-1', '1e3', 'Infinity', 'NaN', ''])
    assert.throws(() => parseSeconds(bad), InvalidArgumentError, bad);
});

test('parseMilliseconds: a whole number, 0 or more', () => {
  assert.equal(parseMilliseconds('0'), 0);
  assert.equal(parseMilliseconds('20'), 20);
  for (const bad of ['', '-1', '1.5', '20ms', '1234567890'])
    assert.throws(() => parseMilliseconds(bad), InvalidArgumentError, bad);
});

test('parseAuthMode: only "dev"', () => {
  assert.equal(parseAuthMode('dev'), 'dev');
  assert.throws(() => parseAuthMode('prod'), InvalidArgumentError);
});

test('parseWholeSeconds: a whole number, 1 or more', () => {
  assert.equal(parseWholeSeconds('3600'), 3600);
  for (const bad of ['0', '0.5', '-1', ''])
    assert.throws(() => parseWholeSeconds(bad), InvalidArgumentError, bad);
});

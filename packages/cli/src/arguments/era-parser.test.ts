// The --era parser: the listed names as they are, the old names as their new ones, anything else refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArgumentError } from 'commander';
import { eraParser } from './era-parser.ts';

test('--era takes auto, handshake and stateless, and the old legacy and modern as hidden aliases', () => {
  const parse = eraParser(['auto', 'handshake', 'stateless']);
  assert.equal(parse('auto'), 'auto');
  assert.equal(parse('handshake'), 'handshake');
  assert.equal(parse('stateless'), 'stateless');
  assert.equal(parse('legacy'), 'handshake');
  assert.equal(parse('modern'), 'stateless');
  assert.throws(() => parse('sse'), InvalidArgumentError);
});

test('an old name is refused when its new name is not among the choices', () => {
  assert.throws(() => eraParser(['auto', 'handshake'])('modern'), /Allowed choices are auto, handshake\./);
});

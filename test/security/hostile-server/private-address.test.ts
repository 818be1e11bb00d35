// The address classifier behind every private-address check (the OAuth client's URL policy, the
// development authorization server's client metadata fetch, the connect-time check on Node): each
// IANA special-purpose range, in the spellings a hostile URL can use, against public addresses.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as auth from 'mcpwire/auth';

/** Hostnames as `new URL(...).hostname` gives them, and what they must be judged. */
const PRIVATE: readonly string[] = [
  'localhost',
  'localhost.',
  'LOCALHOST',
  'app.localhost',
  'app.localhost.',
  '127.0.0.1',
  '127.1.2.3',
  '0.0.0.0',
  '10.1.2.3',
  '100.64.0.1',
  '100.100.100.200',
  '100.127.255.255',
  '169.254.169.254',
  '172.16.0.1',
  '172.31.255.255',
  '192.0.0.8',
  '192.0.2.1',
  '192.168.1.1',
  '198.18.0.1',
  '198.19.255.255',
  '198.51.100.7',
  '203.0.113.9',
  '224.0.0.1',
  '240.0.0.1',
  '255.255.255.255',
  '[::]',
  '[::1]',
  '[::ffff:7f00:1]',
  '[::ffff:a9fe:a9fe]',
  '[::ffff:6440:1]',
  '[::7f00:1]',
  '[::a00:1]',
  '[64:ff9b::7f00:1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::1]',
  '[100::1]',
  '[2001::1]',
  '[2001:db8::1]',
  '[2002:7f00:1::]',
  '[fc00::1]',
  '[fd12:3456::1]',
  '[fe80::1]',
  '[fec0::1]',
  '[ff02::1]',
];

const PUBLIC: readonly string[] = [
  'example.com',
  'localhost.example.com',
  '8.8.8.8',
  '100.63.255.255',
  '100.128.0.1',
  '172.32.0.1',
  '198.17.255.255',
  '198.20.0.1',
  '[2606:4700:4700::1111]',
  '[2001:4860::8888]',
  '[::ffff:808:808]',
  '[64:ff9b::808:808]',
];

test('isPrivateHost: every special-purpose range and spelling is private, public addresses are not', () => {
  const wrong = [
    ...PRIVATE.filter((host) => !auth.isPrivateHost(host)).map((host) => `${host} judged public`),
    ...PUBLIC.filter((host) => auth.isPrivateHost(host)).map((host) => `${host} judged private`),
  ];
  assert.deepEqual(wrong, []);
});

test('the hostname the URL parser makes of each hostile spelling is private', () => {
  const spellings = [
    'https://localhost./x',
    'https://[::127.0.0.1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[0:0:0:0:0:ffff:127.0.0.1]/x',
    'https://[64:ff9b::127.0.0.1]/x',
    'https://0x7f.1/x',
    'https://2130706433/x',
    'https://0177.0.0.1/x',
    'https://100.64.0.1/x',
    'https://198.18.0.1/x',
  ];
  const missed = spellings.filter((url) => !auth.isPrivateHost(new URL(url).hostname));
  assert.deepEqual(missed, []);
});

test('specialRangeOf names the range, says which are loopback, and is undefined for public addresses and names', () => {
  assert.deepEqual(auth.specialRangeOf('100.100.100.200'), {
    name: 'shared address space (100.64.0.0/10)',
    isLoopback: false,
  });
  assert.equal(auth.specialRangeOf('::ffff:127.0.0.1')?.isLoopback, true);
  assert.equal(auth.specialRangeOf('[::ffff:7f00:1]')?.isLoopback, true);
  assert.equal(auth.specialRangeOf('64:ff9b::7f00:1')?.isLoopback, true);
  assert.equal(auth.specialRangeOf('10.0.0.1')?.isLoopback, false);
  for (const host of ['8.8.8.8', '2606:4700:4700::1111', 'example.com', 'localhost', '1::2::3', '1.2.3'])
    assert.equal(auth.specialRangeOf(host), undefined, host);
});

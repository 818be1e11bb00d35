// The client key of the per-client session cap: principal first, then the hook, then the address
// (IPv6 by its /64).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientKeyOf, toAddressKey } from './per-client-key.ts';
import { viewOfRequest, type HttpRequestView } from './exchange.ts';

const request = (remoteAddress?: string): HttpRequestView => {
  const view = viewOfRequest(new Request('http://localhost/mcp', { headers: { 'X-Client': 'c1' } }));
  return remoteAddress === undefined ? view : { ...view, remoteAddress };
};

test('the principal wins over the hook and the address; kinds never share a key', () => {
  const hook = (req: Request) => req.headers.get('x-client') ?? undefined;
  assert.equal(clientKeyOf(request('10.0.0.1'), { principal: 'alice' }, hook), 'principal alice');
  assert.equal(clientKeyOf(request('10.0.0.1'), undefined, hook), 'key c1');
  assert.equal(clientKeyOf(request('10.0.0.1'), undefined, undefined), 'address 10.0.0.1');
  assert.equal(clientKeyOf(request('10.0.0.1'), { principal: '10.0.0.1' }, undefined), 'principal 10.0.0.1');
  assert.equal(clientKeyOf(request(), undefined, undefined), undefined, 'a web Request: no key');
  assert.equal(
    clientKeyOf(request('10.0.0.1'), undefined, () => undefined),
    undefined,
    'the hook says none',
  );
});

test('an IPv6 address counts by its /64; IPv4 and IPv4-mapped as the IPv4 address', () => {
  assert.equal(toAddressKey('127.0.0.2'), '127.0.0.2');
  assert.equal(toAddressKey('::ffff:192.0.2.7'), '192.0.2.7');
  assert.equal(toAddressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(toAddressKey('2001:0db8:0001:0002:ffff:0:0:9'), '2001:db8:1:2::/64');
  assert.equal(toAddressKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(toAddressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(toAddressKey('::1'), '0:0:0:0::/64');
  assert.equal(toAddressKey('64:ff9b::192.0.2.1'), '64:ff9b:0:0::/64');
});

// Type test (checked by `npm run typecheck`; the runtime part only keeps the test runner honest): the
// handler table's type is derived from the method table, so leaving a core method out fails to compile.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CORE_HANDLERS, type CoreHandlers, type ServedMethod } from './method-handlers.ts';

const { 'tools/list': _dropped, ...withoutToolsList } = CORE_HANDLERS;
// @ts-expect-error -- "tools/list" has no handler: a core method without a handler is a type error.
const incomplete: CoreHandlers = withoutToolsList;

const { ping: _ping, ...withoutPing } = CORE_HANDLERS;
// @ts-expect-error -- ping is served through the table too: the table must name it.
const noPing: CoreHandlers = withoutPing;

// @ts-expect-error -- a server does not receive roots/list (a server->client request): not a served method.
const notServed: ServedMethod = 'roots/list';

test('the handler table serves exactly the core requests a server receives, ping and initialize included', () => {
  void incomplete;
  void noPing;
  void notServed;
  const served: ServedMethod[] = ['initialize', 'ping', 'server/discover', 'subscriptions/listen'];
  for (const method of served) assert.equal(typeof CORE_HANDLERS[method], 'function', method);
  assert.equal(Object.keys(CORE_HANDLERS).includes('roots/list'), false);
});

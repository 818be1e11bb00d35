// Type test (checked by `npm run typecheck`; the runtime part only keeps the test runner honest): the
// handler table's type is derived from the method table, so leaving a core method out fails to compile.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFeatures } from './feature-handlers.ts';
import {
  CORE_HANDLERS,
  type CoreHandlers,
  type FeatureHandlers,
  type ServedMethod,
} from './method-handlers.ts';

// What Server serves: the core table and the features' (ServerCore serves the first alone).
const SERVER_HANDLERS: CoreHandlers = { ...CORE_HANDLERS, ...createFeatures().handlers };

const { 'tools/list': _dropped, ...withoutToolsList } = SERVER_HANDLERS;
// @ts-expect-error -- "tools/list" has no handler: a core method without a handler is a type error.
const incomplete: CoreHandlers = withoutToolsList;

const { ping: _ping, ...withoutPing } = SERVER_HANDLERS;

// @ts-expect-error -- the core table alone lacks the features' methods (resources, prompts, completions).
const coreOnly: CoreHandlers = CORE_HANDLERS;

const { 'prompts/get': _get, ...withoutPromptsGet } = createFeatures().handlers;
// @ts-expect-error -- a feature method without a handler is a type error too.
const noPromptsGet: FeatureHandlers = withoutPromptsGet;
// @ts-expect-error -- ping is served through the table too: the table must name it.
const noPing: CoreHandlers = withoutPing;

// @ts-expect-error -- a server does not receive roots/list (a server->client request): not a served method.
const notServed: ServedMethod = 'roots/list';

test('the handler table serves exactly the core requests a server receives, ping and initialize included', () => {
  void incomplete;
  void noPing;
  void coreOnly;
  void noPromptsGet;
  void notServed;
  const served: ServedMethod[] = ['initialize', 'ping', 'server/discover', 'subscriptions/listen'];
  for (const method of served) assert.equal(typeof SERVER_HANDLERS[method], 'function', method);
  assert.equal(Object.keys(SERVER_HANDLERS).includes('roots/list'), false);
  assert.equal(Object.keys(CORE_HANDLERS).includes('resources/read'), false);
});

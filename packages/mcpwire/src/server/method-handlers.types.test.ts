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

// Handlers are typed from their rows: the params the row describes in, the row's result out.
const wrongResult: CoreHandlers = {
  ...SERVER_HANDLERS,
  // @ts-expect-error -- a tools/call result's `content` is a list of content blocks, not a number.
  'tools/call': () => Promise.resolve({ content: 42 }),
};

const typedParams: CoreHandlers = {
  ...SERVER_HANDLERS,
  'tools/call': (params) => {
    // params.name is a string (the inbound check made sure of it before the handler runs).
    const name: string = params.name;
    // @ts-expect-error -- and not a number.
    const asNumber: number = params.name;
    void asNumber;
    return Promise.resolve({ content: [{ type: 'text', text: name }] });
  },
};

const wrongListResult: CoreHandlers = {
  ...SERVER_HANDLERS,
  // @ts-expect-error -- tools/list answers `tools`, a list of Tool: a string is not one.
  'tools/list': () => Promise.resolve({ tools: 'none' }),
};

test('the handler table serves exactly the core requests a server receives, ping and initialize included', () => {
  void incomplete;
  void noPing;
  void coreOnly;
  void noPromptsGet;
  void notServed;
  void wrongResult;
  void wrongListResult;
  const served: ServedMethod[] = ['initialize', 'ping', 'server/discover', 'subscriptions/listen'];
  for (const method of served) assert.equal(typeof SERVER_HANDLERS[method], 'function', method);
  assert.equal(Object.keys(SERVER_HANDLERS).includes('roots/list'), false);
  assert.equal(Object.keys(CORE_HANDLERS).includes('resources/read'), false);
});

test('a typed tools/call handler gets the params its row describes', async () => {
  const ctx = { method: 'tools/call' } as Parameters<CoreHandlers['tools/call']>[1];
  const origin = {} as Parameters<CoreHandlers['tools/call']>[2];
  const result = await typedParams['tools/call']({ name: 'echo' }, ctx, origin);
  assert.deepEqual(result, { content: [{ type: 'text', text: 'echo' }] });
});

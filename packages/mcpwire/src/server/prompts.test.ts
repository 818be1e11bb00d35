// Prompts (PROMPT-*): registration checks, prompts/list with pagination (PAGE-*), prompts/get
// argument rules and result shaping, argument completion, and list_changed over the wire.

import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import type { JsonObject } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { Session } from '../protocol/session.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { Prompts } from './prompts.ts';
import { Server } from './server.ts';
import { fakeContext, fromWire, isRpcError } from '../../test/support/fake-context.ts';

const review = {
  name: 'review',
  description: 'Review some code',
  arguments: [{ name: 'code', required: true }, { name: 'language', required: true }, { name: 'style' }],
};

test('add refuses empty names, repeated arguments, stray completers and taken names', () => {
  const prompts = new Prompts();
  const render = () => 'x';
  assert.throws(() => prompts.add({ name: '' }, render), TypeError);
  assert.throws(() => prompts.add({ name: 'p', arguments: [{ name: 'a' }, { name: 'a' }] }, render), /twice/);
  assert.throws(
    () => prompts.add({ name: 'p', arguments: [{ name: 'a' }], complete: { b: () => [] } }, render),
    /"b"/,
  );
  assert.equal(prompts.registry.isEmpty, true);
  const registration = prompts.add({ name: 'p', arguments: [{ name: 'a' }] }, render);
  assert.throws(() => prompts.add({ name: 'p' }, render), /already registered/);
  assert.throws(() => registration.update({ name: 'q' }), /remove it and add a new one/);
  assert.throws(() => registration.update({ complete: { b: () => [] } }), TypeError);
  registration.update({ title: 'P' });
  assert.deepEqual(prompts.list({}, 10), {
    prompts: [{ name: 'p', title: 'P', arguments: [{ name: 'a' }] }],
  });
});

test('list gives the wire form in registration order, paginated by opaque cursors', () => {
  const prompts = new Prompts();
  prompts.add({ ...review, complete: { language: () => ['ts'] } }, () => 'x');
  prompts.add({ name: 'greet', title: 'Greet' }, () => 'hi');
  prompts.add(
    { name: 'summarize', icons: [{ src: 'https://example.com/i.png' }], _meta: { 'example.com/k': 1 } },
    () => 's',
  );
  const first = prompts.list({}, 2);
  assert.deepEqual(first.prompts, [
    { name: 'review', description: 'Review some code', arguments: review.arguments },
    { name: 'greet', title: 'Greet' },
  ]);
  const second = prompts.list(fromWire({ cursor: first.nextCursor }), 2);
  assert.deepEqual(second, {
    prompts: [
      { name: 'summarize', icons: [{ src: 'https://example.com/i.png' }], _meta: { 'example.com/k': 1 } },
    ],
  });
  assert.throws(() => prompts.list({ cursor: 'bogus' }, 2), isRpcError(-32602, /cursor/));
});

test('get turns a string into one user message and adds the definition description', async () => {
  const prompts = new Prompts();
  const seen: unknown[] = [];
  prompts.add(review, (args, ctx) => {
    seen.push([args, ctx.era]);
    return `Review this ${args.language}: ${args.code}`;
  });
  const result = await prompts.get(
    { name: 'review', arguments: { code: 'x = 1', language: 'python' } },
    fakeContext('prompts/get'),
  );
  assert.deepEqual(result, {
    description: 'Review some code',
    messages: [{ role: 'user', content: { type: 'text', text: 'Review this python: x = 1' } }],
  });
  assert.deepEqual(seen, [[{ code: 'x = 1', language: 'python' }, 'handshake']]);
});

test('get accepts messages or a full result; a result keeps its own description', async () => {
  const prompts = new Prompts();
  const messages = [
    { role: 'user' as const, content: { type: 'text' as const, text: 'Hello' } },
    { role: 'assistant' as const, content: { type: 'image' as const, data: 'AA==', mimeType: 'image/png' } },
  ];
  prompts.add({ name: 'messages', description: 'From the definition' }, () => messages);
  prompts.add({ name: 'full', description: 'From the definition' }, async () => ({
    description: 'From the handler',
    messages,
    _meta: { k: 1 },
  }));
  prompts.add({ name: 'plain' }, () => messages);
  prompts.add({ name: 'broken' }, () => 42 as never);
  const ctx = fakeContext('prompts/get');
  assert.deepEqual(await prompts.get({ name: 'messages' }, ctx), {
    description: 'From the definition',
    messages,
  });
  assert.deepEqual(await prompts.get({ name: 'full' }, ctx), {
    description: 'From the handler',
    messages,
    _meta: { k: 1 },
  });
  assert.deepEqual(await prompts.get({ name: 'plain', arguments: {} }, ctx), { messages });
  await assert.rejects(
    prompts.get({ name: 'broken' }, ctx),
    (error: unknown) => !(error instanceof RpcError) && /expected a GetPromptResult/.test(String(error)),
  );
});

test('get: unknown prompt, missing required, non-string and undeclared arguments are -32602', async () => {
  const prompts = new Prompts();
  let calls = 0;
  prompts.add(review, () => {
    calls++;
    return 'x';
  });
  prompts.add({ name: 'off' }, () => 'x').disable();
  const ctx = fakeContext('prompts/get');
  await assert.rejects(prompts.get({ name: 'nope' }, ctx), isRpcError(-32602, /Unknown prompt: "nope"/));
  await assert.rejects(prompts.get({ name: 'off' }, ctx), isRpcError(-32602, /Unknown prompt/));
  await assert.rejects(
    prompts.get({ name: 'review', arguments: { code: 'x' } }, ctx),
    isRpcError(-32602, /missing required argument "language"/),
  );
  await assert.rejects(
    prompts.get({ name: 'review' }, ctx),
    isRpcError(-32602, /missing required arguments "code", "language"/),
  );
  await assert.rejects(
    prompts.get(fromWire({ name: 'review', arguments: { code: 'x', language: 3 } }), ctx),
    isRpcError(-32602, /"language" must be a string, received number/),
  );
  await assert.rejects(
    prompts.get({ name: 'review', arguments: { code: 'x', language: 'go', mood: 'grumpy' } }, ctx),
    isRpcError(-32602, /unknown argument "mood"/),
  );
  await assert.rejects(
    prompts.get(fromWire({ name: 'review', arguments: ['x'] }), ctx),
    isRpcError(-32602, /"arguments" to be an object/),
  );
  assert.equal(calls, 0);
});

test('get: handler RpcErrors pass through and other errors stay plain', async () => {
  const prompts = new Prompts();
  prompts.add({ name: 'denied' }, () => {
    throw new RpcError(-32001, 'Denied');
  });
  prompts.add({ name: 'crash' }, () => Promise.reject(new Error('boom')));
  await assert.rejects(prompts.get({ name: 'denied' }, fakeContext('prompts/get')), isRpcError(-32001));
  await assert.rejects(
    prompts.get({ name: 'crash' }, fakeContext('prompts/get')),
    (error: unknown) => !(error instanceof RpcError) && /boom/.test(String(error)),
  );
});

test('completeArgument uses the argument completer; undeclared arguments and unknown prompts are -32602', async () => {
  const prompts = new Prompts();
  const calls: unknown[] = [];
  prompts.add(
    {
      ...review,
      complete: {
        language: (value, context) => {
          calls.push([value, context.arguments]);
          return ['python', 'perl', 'go'].filter((language) => language.startsWith(value));
        },
      },
    },
    () => 'x',
  );
  const ctx = fakeContext('prompts/get');
  const context = { arguments: { code: 'x' } };
  assert.deepEqual(await prompts.completeArgument('review', { name: 'language', value: 'p' }, context, ctx), [
    'python',
    'perl',
  ]);
  assert.deepEqual(calls, [['p', { code: 'x' }]]);
  assert.deepEqual(await prompts.completeArgument('review', { name: 'style', value: '' }, context, ctx), []);
  await assert.rejects(
    prompts.completeArgument('review', { name: 'mood', value: '' }, context, ctx),
    isRpcError(-32602, /no argument "mood"/),
  );
  await assert.rejects(
    prompts.completeArgument('nope', { name: 'language', value: '' }, context, ctx),
    isRpcError(-32602, /unknown prompt "nope"/),
  );
});

// --- Through a real Server and a raw client Session over an in-memory pair (handshake by hand).

async function connect(server: Server) {
  const [clientChannel, serverChannel] = createMemoryPair();
  const notifications: string[] = [];
  const client = new Session({
    role: 'client',
    channel: clientChannel,
    handleRequest: () => ({}),
    handleNotification: (method) => notifications.push(method),
  });
  server.connect(serverChannel);
  client.start();
  const init = await client.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'test', version: '1.0.0' },
  });
  client.protocolVersion = init.protocolVersion as string;
  client.peerCapabilities = init.capabilities as JsonObject;
  client.setState('operating');
  await client.notify('notifications/initialized');
  return {
    client,
    notifications,
    init,
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
}

/** Follows `nextCursor` page by page (pageSize 1 here), collecting prompt names. */
async function listNames(client: Session): Promise<string[]> {
  const names: string[] = [];
  let cursor: unknown;
  do {
    const page = await client.request(
      'prompts/list',
      cursor === undefined ? {} : { cursor: cursor as string },
    );
    names.push(...(page.prompts as Array<{ name: string }>).map((prompt) => prompt.name));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return names;
}

test('over the wire: list pages, get, argument errors, completion and one list_changed per tick', async () => {
  const server = new Server({ name: 'prompts-test', version: '1.0.0' }, { pageSize: 1, onError: () => {} });
  server.prompt(
    {
      ...review,
      complete: { language: (value) => ['python', 'perl'].filter((language) => language.startsWith(value)) },
    },
    (args) => `Review ${args.code}`,
  );
  server.prompt({ name: 'greet' }, () => [{ role: 'assistant', content: { type: 'text', text: 'Hi!' } }]);
  await using wire = await connect(server);
  const { client } = wire;
  assert.deepEqual(wire.init.capabilities, { prompts: { listChanged: true }, completions: {}, logging: {} });

  assert.deepEqual(await listNames(client), ['review', 'greet']);
  await assert.rejects(client.request('prompts/list', { cursor: 'bogus' }), isRpcError(-32602));

  assert.deepEqual(
    await client.request('prompts/get', { name: 'review', arguments: { code: 'x', language: 'go' } }),
    {
      description: 'Review some code',
      messages: [{ role: 'user', content: { type: 'text', text: 'Review x' } }],
    },
  );
  assert.deepEqual(await client.request('prompts/get', { name: 'greet' }), {
    messages: [{ role: 'assistant', content: { type: 'text', text: 'Hi!' } }],
  });
  await assert.rejects(client.request('prompts/get', { name: 'nope' }), isRpcError(-32602, /Unknown prompt/));
  await assert.rejects(
    client.request('prompts/get', { name: 'review', arguments: { code: 'x' } }),
    isRpcError(-32602, /"language"/),
  );

  const completion = await client.request('completion/complete', {
    ref: { type: 'ref/prompt', name: 'review' },
    argument: { name: 'language', value: 'py' },
  });
  assert.deepEqual(completion, { completion: { values: ['python'], total: 1, hasMore: false } });

  // Several changes in one tick: one notification. Timers are faked only while no request is in flight.
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    server.prompt({ name: 'late-1' }, () => 'one');
    const late = server.prompt({ name: 'late-2' }, () => 'two');
    late.update({ description: 'Second' });
    mock.timers.tick(1);
  } finally {
    mock.timers.reset();
  }
  // The server->client channel is ordered: once ping's answer is back, the notification has arrived.
  await client.request('ping', undefined);
  assert.deepEqual(wire.notifications, ['notifications/prompts/list_changed']);
  assert.deepEqual(await listNames(client), ['review', 'greet', 'late-1', 'late-2']);
});

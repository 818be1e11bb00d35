// completion/complete (COMP-*): routing by ref type, the 100-value cap with total and hasMore,
// request-shape errors (-32602), and the method over the wire.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { Session } from '../protocol/session.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { complete, MAX_COMPLETION_VALUES } from './completion.ts';
import { Prompts } from './prompts.ts';
import { Resources } from './resources.ts';
import { Server } from './server.ts';
import { fakeContext, fromWire, isRpcError } from '../../test/support/fake-context.ts';

const numbers = Array.from({ length: 150 }, (_, i) => String(i));

/** A prompt and a template with completers, plus one argument and one variable without. */
function features() {
  const prompts = new Prompts();
  const resources = new Resources();
  const seen: unknown[] = [];
  prompts.add(
    {
      name: 'pick',
      arguments: [{ name: 'number' }, { name: 'note' }, { name: 'broken' }],
      complete: {
        number: (value, context) => {
          seen.push(['prompt', value, context.arguments]);
          return numbers.filter((n) => n.startsWith(value));
        },
        broken: () => 'not an array' as never,
      },
    },
    () => 'x',
  );
  resources.add(
    {
      uriTemplate: 'tables://{db}/{table}',
      name: 'table',
      complete: {
        table: async (value, context) => {
          seen.push(['resource', value, context.arguments]);
          return ['users', 'orders'].filter((t) => t.startsWith(value));
        },
      },
    },
    () => '',
  );
  return { server: { prompts, resources }, seen };
}

test('ref/prompt and ref/resource reach their completers with value and context.arguments', async () => {
  const { server, seen } = features();
  const ctx = fakeContext('completion/complete');
  const prompt = await complete(
    {
      ref: { type: 'ref/prompt', name: 'pick' },
      argument: { name: 'number', value: '14' },
      context: { arguments: { note: 'n' } },
    },
    ctx,
    server,
  );
  assert.deepEqual(prompt, {
    completion: {
      values: ['14', '140', '141', '142', '143', '144', '145', '146', '147', '148', '149'],
      total: 11,
      hasMore: false,
    },
  });
  const resource = await complete(
    { ref: { type: 'ref/resource', uri: 'tables://{db}/{table}' }, argument: { name: 'table', value: 'o' } },
    ctx,
    server,
  );
  assert.deepEqual(resource, { completion: { values: ['orders'], total: 1, hasMore: false } });
  assert.deepEqual(seen, [
    ['prompt', '14', { note: 'n' }],
    ['resource', 'o', {}],
  ]);
});

test('more than 100 values are cut to the first 100 with total and hasMore', async () => {
  const { server } = features();
  const result = (await complete(
    { ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'number', value: '' } },
    fakeContext('completion/complete'),
    server,
  )) as {
    completion: { values: string[]; total: number; hasMore: boolean };
  };
  assert.equal(MAX_COMPLETION_VALUES, 100);
  assert.deepEqual(result.completion.values, numbers.slice(0, 100));
  assert.equal(result.completion.total, 150);
  assert.equal(result.completion.hasMore, true);
});

test('an argument or variable without a completer completes to nothing', async () => {
  const { server } = features();
  const ctx = fakeContext('completion/complete');
  const empty = { completion: { values: [], total: 0, hasMore: false } };
  assert.deepEqual(
    await complete(
      { ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'note', value: 'a' } },
      ctx,
      server,
    ),
    empty,
  );
  assert.deepEqual(
    await complete(
      { ref: { type: 'ref/resource', uri: 'tables://{db}/{table}' }, argument: { name: 'db', value: '' } },
      ctx,
      server,
    ),
    empty,
  );
});

test('unknown refs and arguments, and malformed params, are -32602', async () => {
  const { server } = features();
  const ctx = fakeContext('completion/complete');
  const argument = { name: 'number', value: '' };
  const cases: Array<[JsonObject, RegExp]> = [
    [{ ref: { type: 'ref/prompt', name: 'nope' }, argument }, /unknown prompt "nope"/],
    [
      { ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'color', value: '' } },
      /no argument "color"/,
    ],
    [{ ref: { type: 'ref/resource', uri: 'tables://{db}' }, argument }, /no resource template/],
    [
      { ref: { type: 'ref/resource', uri: 'tables://{db}/{table}' }, argument: { name: 'row', value: '' } },
      /no variable "row"/,
    ],
    [{ ref: { type: 'ref/tool', name: 'pick' }, argument }, /unknown ref type "ref\/tool"/],
    [{ ref: { type: 'ref/prompt' }, argument }, /"ref.name"/],
    [{ ref: { type: 'ref/resource', uri: 5 }, argument }, /"ref.uri"/],
    [{ ref: 'pick', argument }, /"ref" to be an object/],
    [{ ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'number' } }, /"argument.value"/],
    [{ ref: { type: 'ref/prompt', name: 'pick' }, argument: { value: '' } }, /"argument.name"/],
    [
      { ref: { type: 'ref/prompt', name: 'pick' }, argument, context: { arguments: { note: 1 } } },
      /"context.arguments.note"/,
    ],
    [
      { ref: { type: 'ref/prompt', name: 'pick' }, argument, context: { arguments: [] } },
      /"context.arguments" to be an object/,
    ],
  ];
  for (const [params, pattern] of cases) {
    await assert.rejects(
      complete(fromWire(params), ctx, server),
      isRpcError(-32602, pattern),
      JSON.stringify(params),
    );
  }
});

test('a completer that returns something other than strings is an internal (plain) error', async () => {
  const { server } = features();
  await assert.rejects(
    complete(
      { ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'broken', value: '' } },
      fakeContext('completion/complete'),
      server,
    ),
    (error: unknown) => !(error instanceof RpcError) && /array of strings/.test(String(error)),
  );
});

test('over the wire: completion/complete for a prompt and a template, and its errors', async () => {
  const server = new Server({ name: 'completion-test', version: '1.0.0' }, { onError: () => {} });
  server.prompt(
    { name: 'pick', arguments: [{ name: 'number', required: true }], complete: { number: () => numbers } },
    () => 'x',
  );
  server.resource(
    {
      uriTemplate: 'tables://{table}',
      name: 'table',
      complete: { table: (value) => ['users'].filter((t) => t.startsWith(value)) },
    },
    () => '',
  );
  const [clientChannel, serverChannel] = createMemoryPair();
  const client = new Session({ role: 'client', channel: clientChannel, handleRequest: () => ({}) });
  server.connect(serverChannel);
  client.start();
  await using _closer = {
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.close();
    },
  };
  const init = await client.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'test', version: '1.0.0' },
  });
  client.protocolVersion = init.protocolVersion as string;
  client.peerCapabilities = init.capabilities as JsonObject;
  client.setState('operating');
  await client.notify('notifications/initialized');
  assert.deepEqual((init.capabilities as JsonObject).completions, {}, 'COMP-1: completions is declared');

  const prompt = (await client.request('completion/complete', {
    ref: { type: 'ref/prompt', name: 'pick' },
    argument: { name: 'number', value: '' },
  })) as {
    completion: { values: string[]; total: number; hasMore: boolean };
  };
  assert.equal(prompt.completion.values.length, 100);
  assert.equal(prompt.completion.total, 150);
  assert.equal(prompt.completion.hasMore, true);
  assert.deepEqual(
    await client.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'tables://{table}' },
      argument: { name: 'table', value: 'u' },
      context: { arguments: {} },
    }),
    { completion: { values: ['users'], total: 1, hasMore: false } },
  );
  await assert.rejects(
    client.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'nope' },
      argument: { name: 'number', value: '' },
    }),
    isRpcError(-32602, /unknown prompt/),
  );
  await assert.rejects(
    client.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'tables://{table}' },
      argument: { name: 'column', value: '' },
    }),
    isRpcError(-32602, /no variable "column"/),
  );
});

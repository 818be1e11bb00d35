// Resources (RES-*): registration checks, list and templates/list with pagination (PAGE-*), read
// by exact URI then template, the era's not-found code, template completion, and list_changed.

import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import type { JsonObject } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { Session } from '../protocol/session.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { createResourceNotFoundError, Resources } from './resources.ts';
import { Server } from './server.ts';
import { fakeContext, fromWire, isRpcError } from '../../test/support/fake-context.ts';

test('add refuses relative URIs, template-looking URIs, malformed templates and stray completers', () => {
  const resources = new Resources();
  const read = () => 'x';
  assert.throws(() => resources.add({ uri: 'notes.txt', name: 'n' }, read), TypeError);
  assert.throws(() => resources.add({ uri: 'file:///a b', name: 'n' }, read), TypeError);
  assert.throws(() => resources.add({ uri: 'file:///{path}', name: 'n' }, read), /uriTemplate/);
  assert.throws(() => resources.add({ uriTemplate: 'file:///{path', name: 'n' }, read), TypeError);
  assert.throws(() => resources.add({ uri: 'file:///a', name: '' }, read), TypeError);
  assert.throws(
    () => resources.add({ uriTemplate: 'users://{id}', name: 'u', complete: { name: () => [] } }, read),
    /"name"/,
  );
  assert.equal(resources.isEmpty, true);
  resources.add({ uri: 'file:///a', name: 'a' }, read);
  resources.add({ uriTemplate: 'users://{id}', name: 'u' }, read);
  assert.throws(() => resources.add({ uri: 'file:///a', name: 'again' }, read), /already registered/);
  assert.throws(
    () => resources.add({ uriTemplate: 'users://{id}', name: 'again' }, read),
    /already registered/,
  );
  assert.equal(resources.isEmpty, false);
});

test('update may change metadata but not the URI or template', async () => {
  const resources = new Resources();
  const staticReg = resources.add({ uri: 'file:///a', name: 'a' }, () => 'x');
  const templateReg = resources.add({ uriTemplate: 'users://{id}', name: 'u' }, () => 'x');
  assert.throws(() => staticReg.update({ uri: 'file:///b' }), /remove it and add a new one/);
  assert.throws(() => templateReg.update({ uriTemplate: 'users://{name}' }), /remove it and add a new one/);
  assert.throws(() => templateReg.update({ complete: { nope: () => [] } }), TypeError);
  staticReg.update({ description: 'Now described' });
  templateReg.update({ title: 'Users' });
  const listed = await resources.list({}, 10, fakeContext('resources/read'));
  assert.deepEqual(listed, { resources: [{ uri: 'file:///a', name: 'a', description: 'Now described' }] });
  assert.deepEqual(resources.listTemplates({}, 10), {
    resourceTemplates: [{ uriTemplate: 'users://{id}', name: 'u', title: 'Users' }],
  });
});

test('list gives statics in registration order, then template instances, paginated by opaque cursors', async () => {
  const resources = new Resources();
  resources.add({ uri: 'file:///b', name: 'b' }, () => 'b');
  resources.add({ uri: 'file:///a', name: 'a', mimeType: 'text/plain' }, () => 'a');
  resources.add(
    {
      uriTemplate: 'users://{id}',
      name: 'user',
      mimeType: 'application/json',
      list: async () => [
        { uri: 'users://1', name: 'one' },
        { uri: 'users://2', name: 'two', mimeType: 'text/plain' },
      ],
    },
    () => '{}',
  );
  resources.add({ uriTemplate: 'logs://{day}', name: 'log' }, () => '');
  const ctx = fakeContext('resources/read');
  const first = await resources.list({}, 3, ctx);
  assert.deepEqual(first.resources, [
    { uri: 'file:///b', name: 'b' },
    { uri: 'file:///a', name: 'a', mimeType: 'text/plain' },
    { uri: 'users://1', name: 'one', mimeType: 'application/json' },
  ]);
  assert.equal(typeof first.nextCursor, 'string');
  const second = await resources.list(fromWire({ cursor: first.nextCursor }), 3, ctx);
  assert.deepEqual(second, { resources: [{ uri: 'users://2', name: 'two', mimeType: 'text/plain' }] });
  await assert.rejects(resources.list({ cursor: 'not-a-cursor' }, 3, ctx), isRpcError(-32602, /cursor/));
});

test('templates/list shows the wire form (no completers, no list function), paginated', () => {
  const resources = new Resources();
  resources.add({ uri: 'file:///static', name: 's' }, () => '');
  resources.add({ uriTemplate: 'a://{x}', name: 'a', complete: { x: () => [] }, list: () => [] }, () => '');
  resources.add({ uriTemplate: 'b://{y}', name: 'b', description: 'B' }, () => '');
  const first = resources.listTemplates({}, 1);
  assert.deepEqual(first.resourceTemplates, [{ uriTemplate: 'a://{x}', name: 'a' }]);
  const second = resources.listTemplates(fromWire({ cursor: first.nextCursor }), 1);
  assert.deepEqual(second, { resourceTemplates: [{ uriTemplate: 'b://{y}', name: 'b', description: 'B' }] });
  assert.throws(() => resources.listTemplates(fromWire({ cursor: 42 }), 1), isRpcError(-32602));
});

test('read prefers an exact static URI, then the first matching template, and shapes text and bytes', async () => {
  const resources = new Resources();
  const seen: Array<[string, unknown]> = [];
  resources.add(
    { uriTemplate: 'files://{+path}', name: 'any file', mimeType: 'text/plain' },
    (uri, variables) => {
      seen.push([uri, variables]);
      return `file ${String(variables.path)}`;
    },
  );
  resources.add({ uriTemplate: 'files://docs/{name}', name: 'never reached' }, () => 'shadowed');
  resources.add({ uri: 'files://docs/readme', name: 'readme' }, () => new Uint8Array([0, 1, 254, 255]));
  const ctx = fakeContext('resources/read');
  assert.deepEqual(await resources.read({ uri: 'files://docs/readme' }, ctx), {
    contents: [{ uri: 'files://docs/readme', blob: Buffer.from([0, 1, 254, 255]).toString('base64') }],
  });
  assert.deepEqual(await resources.read({ uri: 'files://docs/guide' }, ctx), {
    contents: [{ uri: 'files://docs/guide', mimeType: 'text/plain', text: 'file docs/guide' }],
  });
  assert.deepEqual(seen, [['files://docs/guide', { path: 'docs/guide' }]]);
});

test('read passes a full result through, and large byte arrays encode correctly', async () => {
  const resources = new Resources();
  const full = {
    contents: [
      { uri: 'dir://x/1', text: 'one' },
      { uri: 'dir://x/2', blob: 'AA==' },
    ],
    _meta: { k: 1 },
  };
  resources.add({ uri: 'dir://x', name: 'dir' }, () => full);
  const bytes = new Uint8Array(100_000).map((_, i) => i % 256);
  resources.add({ uri: 'big://x', name: 'big', mimeType: 'application/octet-stream' }, () =>
    Promise.resolve(bytes),
  );
  const ctx = fakeContext('resources/read');
  assert.deepEqual(await resources.read({ uri: 'dir://x' }, ctx), full);
  const big = (await resources.read({ uri: 'big://x' }, ctx)) as {
    contents: Array<{ blob: string; mimeType: string }>;
  };
  assert.equal(big.contents[0]?.blob, Buffer.from(bytes).toString('base64'));
  assert.equal(big.contents[0]?.mimeType, 'application/octet-stream');
});

test('not found is -32002 in the handshake era and -32602 in the stateless era, both with data.uri', async () => {
  const resources = new Resources();
  const registration = resources.add({ uri: 'file:///gone', name: 'gone' }, () => 'x');
  registration.disable();
  const handshake = await resources
    .read({ uri: 'file:///gone' }, fakeContext('resources/read', 'handshake'))
    .catch((error: unknown) => error);
  assert.ok(handshake instanceof RpcError);
  assert.equal(handshake.code, -32002);
  assert.deepEqual(handshake.data, { uri: 'file:///gone' });
  const stateless = await resources
    .read({ uri: 'file:///gone' }, fakeContext('resources/read', 'stateless'))
    .catch((error: unknown) => error);
  assert.ok(stateless instanceof RpcError);
  assert.equal(stateless.code, -32602);
  assert.deepEqual(stateless.data, { uri: 'file:///gone' });
  registration.enable();
  assert.deepEqual(await resources.read({ uri: 'file:///gone' }, fakeContext('resources/read')), {
    contents: [{ uri: 'file:///gone', text: 'x' }],
  });
});

test('handler errors: RpcError passes through, anything else stays a plain Error, bad returns are caught', async () => {
  const resources = new Resources();
  resources.add({ uriTemplate: 'users://{id}', name: 'user' }, (uri, _variables, ctx) => {
    throw createResourceNotFoundError(uri, ctx.era);
  });
  resources.add({ uri: 'crash://x', name: 'crash' }, () => {
    throw new Error('disk on fire');
  });
  resources.add({ uri: 'bad://x', name: 'bad' }, () => ({ nope: true }) as never);
  await assert.rejects(
    resources.read({ uri: 'users://7' }, fakeContext('resources/read')),
    isRpcError(-32002, /users:\/\/7/),
  );
  await assert.rejects(
    resources.read({ uri: 'crash://x' }, fakeContext('resources/read')),
    (error: unknown) => !(error instanceof RpcError) && /disk on fire/.test(String(error)),
  );
  await assert.rejects(
    resources.read({ uri: 'bad://x' }, fakeContext('resources/read')),
    (error: unknown) => !(error instanceof RpcError) && /expected a ReadResourceResult/.test(String(error)),
  );
  await assert.rejects(
    resources.read(fromWire({ uri: 7 }), fakeContext('resources/read')),
    isRpcError(-32602, /"uri"/),
  );
});

test('completeArgument calls the variable completer with value, resolved arguments and context', async () => {
  const resources = new Resources();
  const calls: unknown[] = [];
  resources.add(
    {
      uriTemplate: 'repos://{owner}/{repo}',
      name: 'repo',
      complete: {
        repo: (value, context, ctx) => {
          calls.push([value, context.arguments, ctx.era]);
          return ['mcpwire', 'mcp-docs'].filter((name) => name.startsWith(value));
        },
      },
    },
    () => '',
  );
  const ctx = fakeContext('resources/read');
  const context = { arguments: { owner: 'acme' } };
  assert.deepEqual(
    await resources.completeArgument('repos://{owner}/{repo}', { name: 'repo', value: 'mcpw' }, context, ctx),
    ['mcpwire'],
  );
  assert.deepEqual(calls, [['mcpw', { owner: 'acme' }, 'handshake']]);
  assert.deepEqual(
    await resources.completeArgument('repos://{owner}/{repo}', { name: 'owner', value: '' }, context, ctx),
    [],
  );
  await assert.rejects(
    resources.completeArgument('repos://{owner}/{repo}', { name: 'branch', value: '' }, context, ctx),
    isRpcError(-32602, /no variable "branch"/),
  );
  await assert.rejects(
    resources.completeArgument('repos://{owner}', { name: 'owner', value: '' }, context, ctx),
    isRpcError(-32602, /no resource template/),
  );
});

test('a variable named like an Object.prototype member has no completer unless given one', async () => {
  const resources = new Resources();
  resources.add({ uriTemplate: 'x://{constructor}', name: 'x' }, () => '');
  assert.deepEqual(
    await resources.completeArgument(
      'x://{constructor}',
      { name: 'constructor', value: '' },
      { arguments: {} },
      fakeContext('resources/read'),
    ),
    [],
  );
});

test('onChange hears static and template changes until unsubscribed', () => {
  const resources = new Resources();
  let changes = 0;
  const off = resources.onChange(() => changes++);
  const a = resources.add({ uri: 'file:///a', name: 'a' }, () => '');
  const t = resources.add({ uriTemplate: 'x://{y}', name: 't' }, () => '');
  t.update({ description: 'd' });
  a.remove();
  a.remove();
  assert.equal(changes, 4);
  off();
  t.remove();
  assert.equal(changes, 4);
  assert.equal(resources.isEmpty, true);
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

test('over the wire: list pages, templates, reads, not-found, completion and one list_changed per tick', async () => {
  const server = new Server({ name: 'resources-test', version: '1.0.0' }, { pageSize: 2, onError: () => {} });
  for (const name of ['a', 'b', 'c']) {
    server.resource(
      { uri: `file:///${name}.txt`, name, mimeType: 'text/plain' },
      () => `contents of ${name}`,
    );
  }
  server.resource(
    {
      uriTemplate: 'users://{id}/profile',
      name: 'profile',
      mimeType: 'application/json',
      complete: { id: (value) => ['17', '42'].filter((id) => id.startsWith(value)) },
      list: () => [{ uri: 'users://42/profile', name: 'user 42' }],
    },
    (_uri, variables) => JSON.stringify({ id: variables.id }),
  );
  await using wire = await connect(server);
  const { client } = wire;
  assert.deepEqual(wire.init.capabilities, {
    resources: { subscribe: true, listChanged: true },
    completions: {},
    logging: {},
  });

  const uris: string[] = [];
  let cursor: unknown;
  do {
    const page = await client.request(
      'resources/list',
      cursor === undefined ? {} : { cursor: cursor as string },
    );
    uris.push(...(page.resources as Array<{ uri: string }>).map((resource) => resource.uri));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  assert.deepEqual(uris, ['file:///a.txt', 'file:///b.txt', 'file:///c.txt', 'users://42/profile']);
  await assert.rejects(client.request('resources/list', { cursor: 'bogus' }), isRpcError(-32602));
  assert.deepEqual(await client.request('resources/templates/list', {}), {
    resourceTemplates: [
      { uriTemplate: 'users://{id}/profile', name: 'profile', mimeType: 'application/json' },
    ],
  });

  assert.deepEqual(await client.request('resources/read', { uri: 'file:///b.txt' }), {
    contents: [{ uri: 'file:///b.txt', mimeType: 'text/plain', text: 'contents of b' }],
  });
  assert.deepEqual(await client.request('resources/read', { uri: 'users://17/profile' }), {
    contents: [{ uri: 'users://17/profile', mimeType: 'application/json', text: '{"id":"17"}' }],
  });
  const missing = await client
    .request('resources/read', { uri: 'file:///nope' })
    .catch((error: unknown) => error);
  assert.ok(missing instanceof RpcError);
  assert.equal(missing.code, -32002);
  assert.deepEqual(missing.data, { uri: 'file:///nope' });

  const completion = await client.request('completion/complete', {
    ref: { type: 'ref/resource', uri: 'users://{id}/profile' },
    argument: { name: 'id', value: '4' },
  });
  assert.deepEqual(completion, { completion: { values: ['42'], total: 1, hasMore: false } });

  // Several registrations in one tick: one notification. Timers are faked only while no request is in flight.
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    server.resource({ uri: 'file:///d.txt', name: 'd' }, () => 'd');
    server.resource({ uriTemplate: 'logs://{day}', name: 'log' }, () => '');
    server.resource({ uri: 'file:///e.txt', name: 'e' }, () => 'e');
    mock.timers.tick(1);
  } finally {
    mock.timers.reset();
  }
  // The server->client channel is ordered: once ping's answer is back, the notification has arrived.
  await client.request('ping', undefined);
  assert.deepEqual(wire.notifications, ['notifications/resources/list_changed']);
  const templates = await client.request('resources/templates/list', {});
  assert.equal((templates.resourceTemplates as unknown[]).length, 2);
});

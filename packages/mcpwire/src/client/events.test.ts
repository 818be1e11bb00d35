import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LoggingMessageNotificationParams } from '../protocol/types/index.ts';
import { Server } from '../server/server.ts';
import { createMemoryPair } from '../transports/memory.ts';
import type { ClientOptions } from './client-options.ts';
import { Client } from './client.ts';
import { ClientEvents, toClientEvent } from './events.ts';

async function connect(server: Server, options?: ClientOptions): Promise<Client> {
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client({ name: 'c', version: '1' }, { era: 'handshake', ...options });
  await client.connect(clientEnd);
  return client;
}

/** Resolves with the next payload of `event`. */
function next<
  E extends 'toolsListChanged' | 'resourcesListChanged' | 'promptsListChanged' | 'resourceUpdated' | 'log',
>(client: Client, event: E) {
  return new Promise<unknown>((resolve) => {
    const off = client.on(event, (payload) => {
      off();
      resolve(payload);
    });
  });
}

test('list_changed notifications become toolsListChanged, resourcesListChanged and promptsListChanged', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  server.tool({ name: 'first' }, () => 'x');
  server.resource({ uri: 'file:///first', name: 'first' }, () => 'x');
  server.prompt({ name: 'first' }, () => 'x');
  const client = await connect(server);
  const events = Promise.all([
    next(client, 'toolsListChanged'),
    next(client, 'resourcesListChanged'),
    next(client, 'promptsListChanged'),
  ]);
  server.tool({ name: 'second' }, () => 'x');
  server.resource({ uri: 'file:///second', name: 'second' }, () => 'x');
  server.prompt({ name: 'second' }, () => 'x');
  assert.deepEqual(await events, [{}, {}, {}]);
  await client.close();
});

test('resourceUpdated carries the uri of a subscribed resource', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  server.resource({ uri: 'file:///watched', name: 'watched' }, () => 'x');
  const client = await connect(server);
  await client.subscribeResource({ uri: 'file:///watched' });
  const updated = next(client, 'resourceUpdated');
  server.notifyResourceUpdated('file:///watched');
  assert.deepEqual(await updated, { uri: 'file:///watched' });
  await client.close();
});

test('log receives notifications/message at or above the chosen level', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  server.tool({ name: 'chatty' }, async (_args, ctx) => {
    await ctx.log('debug', 'too quiet');
    await ctx.log('error', { disk: 'full' }, 'storage');
    return 'ok';
  });
  const client = await connect(server);
  const logs: LoggingMessageNotificationParams[] = [];
  client.on('log', (params) => logs.push(params));
  await client.setLoggingLevel({ level: 'warning' });
  await client.callTool({ name: 'chatty' });
  assert.deepEqual(logs, [{ level: 'error', logger: 'storage', data: { disk: 'full' } }]);
  await client.close();
});

test('unsubscribing stops delivery; a throwing listener is reported and does not stop the others', () => {
  const errors: Error[] = [];
  const events = new ClientEvents((error) => errors.push(error));
  const seen: string[] = [];
  const off = events.on('resourceUpdated', (params) => seen.push(`a ${params.uri}`));
  events.on('resourceUpdated', () => {
    throw new Error('listener bug');
  });
  events.on('resourceUpdated', (params) => seen.push(`c ${params.uri}`));
  events.emitNotification('notifications/resources/updated', { uri: 'file:///1' });
  off();
  off();
  events.emitNotification('notifications/resources/updated', { uri: 'file:///2' });
  assert.deepEqual(seen, ['a file:///1', 'c file:///1', 'c file:///2']);
  assert.equal(errors.length, 2);
  assert.match(errors[0]!.message, /"resourceUpdated" listener threw/);
});

test('the same function subscribed twice is called twice and unsubscribed independently', () => {
  const events = new ClientEvents(() => {});
  let calls = 0;
  const listener = () => void calls++;
  const offFirst = events.on('toolsListChanged', listener);
  events.on('toolsListChanged', listener);
  events.emit('toolsListChanged', {});
  offFirst();
  events.emit('toolsListChanged', {});
  assert.equal(calls, 3);
});

test('toClientEvent maps only the surfaced notifications', () => {
  assert.equal(toClientEvent('notifications/message'), 'log');
  assert.equal(toClientEvent('notifications/elicitation/complete'), 'elicitationComplete');
  assert.equal(toClientEvent('notifications/progress'), undefined);
  assert.equal(toClientEvent('toString'), undefined);
});

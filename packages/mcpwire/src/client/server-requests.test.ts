import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { Session } from '../protocol/session.ts';
import type { ElicitRequestFormParams } from '../protocol/types/index.ts';
import { Server } from '../server/server.ts';
import type { RequestContext } from '../server/context.ts';
import { createMemoryPair } from '../transports/memory.ts';
import type { ClientOptions } from './client-options.ts';
import { Client } from './client.ts';
import type { ClientRequestContext } from './server-requests.ts';
import { ignoreConnection } from '../../../../test/support/wire-check.ts';

const clientInfo = { name: 'test-client', version: '1.0.0' };
const reply = { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' } as const;

/** Connects a client to a real server whose tool `run` calls `body(ctx)` and returns its JSON. */
async function connectWithTool(
  body: (ctx: RequestContext) => Promise<unknown>,
  options: ClientOptions,
): Promise<Client> {
  const server = new Server({ name: 'srv', version: '1' });
  server.tool({ name: 'run' }, async (_args, ctx) => ({ structuredContent: { value: await body(ctx) } }));
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client(clientInfo, { era: 'handshake', ...options });
  await client.connect(clientEnd);
  return client;
}

async function run(client: Client): Promise<unknown> {
  const result = await client.callTool({ name: 'run' });
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  return result.structuredContent?.value;
}

/** Connects a client to a hand-driven server session that can send any request; records notification methods. */
async function connectRaw(options: ClientOptions) {
  const [clientEnd, serverEnd] = createMemoryPair();
  const notifications: string[] = [];
  const session: Session = new Session({
    role: 'server',
    channel: serverEnd,
    handleRequest: (request) => {
      session.protocolVersion = request.params.protocolVersion as string;
      session.peerCapabilities = request.params.capabilities as Record<string, unknown>;
      session.setState('initializing');
      return {
        protocolVersion: session.protocolVersion,
        capabilities: {},
        serverInfo: { name: 'raw', version: '0' },
      };
    },
    handleNotification: (method) => {
      notifications.push(method);
      if (method === 'notifications/initialized') session.setState('operating');
    },
  });
  ignoreConnection(session); // a deliberately misbehaving server
  session.start();
  const client = new Client(clientInfo, { era: 'handshake', ...options });
  await client.connect(clientEnd);
  await client.ping(); // the server has now seen notifications/initialized
  return { client, session, notifications };
}

test('sampling/createMessage reaches the sampling handler with its context', async () => {
  const contexts: ClientRequestContext[] = [];
  const client = await connectWithTool(
    (ctx) =>
      ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
        maxTokens: 10,
      }),
    {
      handlers: {
        sampling: (params, ctx) => {
          assert.equal(params.maxTokens, 10);
          contexts.push(ctx);
          return reply;
        },
      },
    },
  );
  assert.deepEqual(await run(client), reply);
  assert.equal(contexts[0]?.protocolVersion, '2025-11-25');
  assert.equal(contexts[0]?.signal.aborted, false);
  assert.notEqual(contexts[0]?.requestId, undefined);
  await client.close();
});

test('sampling with tools needs sampling.tools: -32602 without it (SAMP-3), served with it', async () => {
  const request = {
    messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    maxTokens: 5,
    tools: [{ name: 't', inputSchema: { type: 'object' } }],
  };
  const sampling = () => reply;
  const without = await connectRaw({ handlers: { sampling } });
  await assert.rejects(without.session.request('sampling/createMessage', request), (error: unknown) => {
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, -32602);
    assert.match(error.message, /sampling\.tools/);
    return true;
  });
  await without.client.close();

  const declared = await connectRaw({ handlers: { sampling }, capabilities: { sampling: { tools: {} } } });
  assert.deepEqual(await declared.session.request('sampling/createMessage', request), reply);
  await declared.client.close();
});

test('a sampling handler RpcError (user rejected, -1) reaches the server as that error', async () => {
  const { client, session } = await connectRaw({
    handlers: {
      sampling: () => {
        throw new RpcError(-1, 'User rejected the request');
      },
    },
  });
  await assert.rejects(session.request('sampling/createMessage', { messages: [], maxTokens: 1 }), {
    code: -1,
    message: 'User rejected the request',
  });
  await client.close();
});

test('for revisions before 2025-11-25 a one-block content array is sent as a single block', async () => {
  const { client, session } = await connectRaw({
    protocolVersion: '2025-06-18',
    handlers: { sampling: () => ({ ...reply, content: [reply.content] }) },
  });
  assert.deepEqual(await session.request('sampling/createMessage', { messages: [], maxTokens: 1 }), reply);
  await client.close();
});

test('the server cancelling a request aborts the handler signal', async () => {
  let markAborted!: (reason: unknown) => void;
  const aborted = new Promise<unknown>((resolve) => (markAborted = resolve));
  const { client, session } = await connectRaw({
    handlers: {
      sampling: (_params, ctx) => {
        ctx.signal.addEventListener('abort', () => markAborted(ctx.signal.reason));
        return new Promise(() => {});
      },
    },
  });
  const controller = new AbortController();
  const asking = session.request(
    'sampling/createMessage',
    { messages: [], maxTokens: 1 },
    { signal: controller.signal },
  );
  await new Promise((resolve) => setImmediate(resolve));
  controller.abort('no longer needed');
  await assert.rejects(asking, { code: 'REQUEST_CANCELLED' });
  assert.equal(await aborted, 'no longer needed');
  await client.close();
});

test('accepted form content is completed from the schema defaults (SEP-1034)', async () => {
  const requestedSchema: ElicitRequestFormParams['requestedSchema'] = {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'Anonymous' },
      age: { type: 'integer', default: 30 },
      newsletter: { type: 'boolean', default: true },
      colors: { type: 'array', items: { type: 'string', enum: ['red', 'blue'] }, default: ['red'] },
      city: { type: 'string' },
    },
  };
  const client = await connectWithTool((ctx) => ctx.elicit({ message: 'Who are you?', requestedSchema }), {
    handlers: { elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) },
  });
  assert.deepEqual(await run(client), {
    action: 'accept',
    content: { name: 'Ada', age: 30, newsletter: true, colors: ['red'] },
  });
  await client.close();
});

test('declined elicitations are passed through untouched', async () => {
  const requestedSchema = { type: 'object', properties: { name: { type: 'string', default: 'x' } } } as const;
  const client = await connectWithTool((ctx) => ctx.elicit({ message: 'Name?', requestedSchema }), {
    handlers: { elicitation: () => ({ action: 'decline' }) },
  });
  assert.deepEqual(await run(client), { action: 'decline' });
  await client.close();
});

test('an elicitation mode the client did not declare is -32602 (ELIC-2); an absent mode is form (ELIC-3)', async () => {
  const modes: Array<string | undefined> = [];
  const { client, session } = await connectRaw({
    elicitationModes: ['form'],
    handlers: {
      elicitation: (params) => {
        modes.push(params.mode);
        return { action: 'cancel' };
      },
    },
  });
  assert.deepEqual(session.peerCapabilities.elicitation, { form: {} });
  const url = { mode: 'url', message: 'Sign in', url: 'https://example.com/auth', elicitationId: 'e1' };
  await assert.rejects(session.request('elicitation/create', url), (error: unknown) => {
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, -32602);
    assert.match(error.message, /mode "url" was not declared/);
    return true;
  });
  const form = { message: 'Name?', requestedSchema: { type: 'object', properties: {} } };
  assert.deepEqual(await session.request('elicitation/create', form), { action: 'cancel' });
  assert.deepEqual(modes, [undefined]);
  await assert.rejects(session.request('elicitation/create', { message: 'No schema' }), { code: -32602 });
  await client.close();
});

test('url-mode elicitation: accepted ids complete once; unknown and repeated ids are ignored (ELIC-11)', async () => {
  const { client, session } = await connectRaw({ handlers: { elicitation: () => ({ action: 'accept' }) } });
  const completed: string[] = [];
  client.on('elicitationComplete', (params) => completed.push(params.elicitationId));
  const url = { mode: 'url', message: 'Sign in', url: 'https://example.com/auth', elicitationId: 'e1' };
  assert.deepEqual(await session.request('elicitation/create', url), { action: 'accept' });
  await session.notify('notifications/elicitation/complete', { elicitationId: 'unknown' });
  await session.notify('notifications/elicitation/complete', { elicitationId: 'e1' });
  await session.notify('notifications/elicitation/complete', { elicitationId: 'e1' });
  await client.ping();
  assert.deepEqual(completed, ['e1']);
  await client.close();
});

test('roots/list serves the configured roots, or the roots handler', async () => {
  const roots = [{ uri: 'file:///home/ada/project', name: 'project' }];
  const fromOptions = await connectWithTool((ctx) => ctx.listRoots(), { roots });
  assert.deepEqual(await run(fromOptions), { roots });
  await fromOptions.close();

  const fromHandler = await connectWithTool((ctx) => ctx.listRoots(), {
    handlers: { roots: (ctx) => [{ uri: `file:///v/${ctx.protocolVersion}` }] },
  });
  assert.deepEqual(await run(fromHandler), { roots: [{ uri: 'file:///v/2025-11-25' }] });
  await fromHandler.close();
});

test('setRoots replaces the roots and sends notifications/roots/list_changed (ROOT-3)', async () => {
  const { client, session, notifications } = await connectRaw({ roots: [] });
  assert.deepEqual(session.peerCapabilities.roots, { listChanged: true });
  await client.setRoots([{ uri: 'file:///tmp/a' }]);
  assert.deepEqual(await session.request('roots/list', undefined), { roots: [{ uri: 'file:///tmp/a' }] });
  assert.deepEqual(notifications, ['notifications/initialized', 'notifications/roots/list_changed']);
  assert.throws(() => client.setRoots([{ uri: 'https://example.com' }]), TypeError);
  await client.close();
});

test('sendRootsListChanged sends nothing when roots were not declared', async () => {
  const { client, notifications } = await connectRaw({});
  await client.sendRootsListChanged();
  await client.ping();
  assert.deepEqual(notifications, ['notifications/initialized']);
  await client.close();
});

test('a roots handler returning a non-file URI answers -32603', async () => {
  const errors: Error[] = [];
  const { client, session } = await connectRaw({
    handlers: { roots: () => [{ uri: 'https://example.com' }] },
    onError: (error) => errors.push(error),
  });
  await assert.rejects(session.request('roots/list', undefined), { code: -32603 });
  assert.equal(errors.length, 1, 'the handler failure is reported locally');
  await client.close();
});

test('inbound middleware wraps the handlers and may rewrite the params', async () => {
  const { client, session } = await connectRaw({
    handlers: { sampling: (params) => ({ ...reply, model: String(params.systemPrompt) }) },
  });
  const seen: string[] = [];
  client.use((request, next) => {
    seen.push(`${request.direction} ${request.method}`);
    if (request.direction === 'inbound') request.params = { ...request.params, systemPrompt: 'rewritten' };
    return next();
  });
  const result = await session.request('sampling/createMessage', { messages: [], maxTokens: 1 });
  assert.equal(result.model, 'rewritten');
  assert.deepEqual(seen, ['inbound sampling/createMessage']);
  await client.close();
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConnectionClosedError, RequestCancelledError, RequestTimeoutError } from '../jsonrpc/errors.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { CapabilityNotNegotiatedError } from '../protocol/capabilities.ts';
import type { Progress } from '../protocol/progress.ts';
import { Server } from '../server/server.ts';
import { createMemoryPair } from '../transports/memory.ts';
import type { ClientOptions } from './client-options.ts';
import { Client } from './client.ts';

const clientInfo = { name: 'test-client', version: '1.0.0' };

async function connect(server: Server, options?: ClientOptions): Promise<Client> {
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client(clientInfo, { era: 'handshake', ...options });
  await client.connect(clientEnd);
  return client;
}

/** A promise and the function that resolves it. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function fullServer(): Server {
  const server = new Server({ name: 'srv', version: '1' });
  server.tool(
    { name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
    (args) => String(args.text),
  );
  server.resource({ uri: 'file:///notes.txt', name: 'notes', mimeType: 'text/plain' }, () => 'hello notes');
  server.resource(
    {
      uriTemplate: 'file:///logs/{day}',
      name: 'logs',
      complete: { day: (value) => ['mon', 'tue'].filter((day) => day.startsWith(value)) },
    },
    (uri) => `log ${uri}`,
  );
  server.prompt(
    { name: 'greet', arguments: [{ name: 'who', required: true }] },
    (args) => `Hello ${args.who}`,
  );
  return server;
}

test('typed calls reach every server method and return its result', async () => {
  const client = await connect(fullServer());
  assert.deepEqual(await client.ping(), {});
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => tool.name),
    ['echo'],
  );
  assert.deepEqual(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }), {
    content: [{ type: 'text', text: 'hi' }],
  });
  assert.deepEqual(
    (await client.listResources()).resources.map((resource) => resource.uri),
    ['file:///notes.txt'],
  );
  assert.deepEqual(
    (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate),
    ['file:///logs/{day}'],
  );
  assert.deepEqual(await client.readResource({ uri: 'file:///notes.txt' }), {
    contents: [{ uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hello notes' }],
  });
  assert.deepEqual(await client.subscribeResource({ uri: 'file:///notes.txt' }), {});
  assert.deepEqual(await client.unsubscribeResource({ uri: 'file:///notes.txt' }), {});
  assert.deepEqual(
    (await client.listPrompts()).prompts.map((prompt) => prompt.name),
    ['greet'],
  );
  const prompt = await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
  assert.deepEqual(prompt.messages, [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);
  const completion = await client.complete({
    ref: { type: 'ref/resource', uri: 'file:///logs/{day}' },
    argument: { name: 'day', value: 't' },
  });
  assert.deepEqual(completion.completion.values, ['tue']);
  assert.deepEqual(await client.setLoggingLevel({ level: 'warning' }), {});
  await client.close();
});

test('protocol errors from the server surface as RpcError with the server code', async () => {
  const client = await connect(fullServer());
  await assert.rejects(
    client.getPrompt({ name: 'missing' }),
    (error: unknown) => error instanceof RpcError && error.code === -32602,
  );
  await assert.rejects(
    client.readResource({ uri: 'file:///nowhere' }),
    (error: unknown) => error instanceof RpcError && error.code === -32002,
  );
  await client.close();
});

test('a feature the server did not declare fails locally with CapabilityNotNegotiatedError', async () => {
  const server = new Server({ name: 'tools-only', version: '1' });
  server.tool({ name: 'noop' }, () => 'ok');
  const seen: string[] = [];
  server.use((request, next) => {
    seen.push(request.method);
    return next();
  });
  const client = await connect(server);
  await assert.rejects(client.listPrompts(), CapabilityNotNegotiatedError);
  await assert.rejects(client.subscribeResource({ uri: 'file:///x' }), { code: 'CAPABILITY_NOT_NEGOTIATED' });
  await client.ping();
  // Middleware sees every request, ping included (one handler table); the refused calls never left.
  assert.deepEqual(seen, ['initialize', 'ping'], 'nothing but initialize and ping reached the server');
  await client.close();
});

test('aborting the signal rejects with RequestCancelledError and the server sees notifications/cancelled', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  const started = deferred();
  const serverAbort = deferred<unknown>();
  server.tool({ name: 'slow' }, (_args, ctx) => {
    ctx.signal.addEventListener('abort', () => serverAbort.resolve(ctx.signal.reason));
    started.resolve();
    return new Promise<string>(() => {});
  });
  const client = await connect(server);
  const controller = new AbortController();
  const call = client.callTool({ name: 'slow' }, { signal: controller.signal });
  await started.promise;
  controller.abort('changed my mind');
  await assert.rejects(
    call,
    (error: unknown) => error instanceof RequestCancelledError && error.code === 'REQUEST_CANCELLED',
  );
  assert.equal(
    await serverAbort.promise,
    'changed my mind',
    'the cancellation reason reached the server handler',
  );
  await client.close();
});

test('onProgress receives the server progress notifications in order', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  server.tool({ name: 'work' }, async (_args, ctx) => {
    await ctx.sendProgress(1, { total: 3 });
    await ctx.sendProgress(2, { total: 3, message: 'halfway' });
    await ctx.sendProgress(3, { total: 3 });
    return 'done';
  });
  const client = await connect(server);
  const updates: Progress[] = [];
  const result = await client.callTool(
    { name: 'work' },
    { onProgress: (progress) => updates.push(progress) },
  );
  assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
  assert.deepEqual(updates, [
    { progress: 1, total: 3 },
    { progress: 2, total: 3, message: 'halfway' },
    { progress: 3, total: 3 },
  ]);
  await client.close();
});

test('a request without an answer times out with RequestTimeoutError and is cancelled on the server', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  const serverAbort = deferred<unknown>();
  // Watched from middleware: it runs before argument validation, which may still be loading the
  // validator when the cancellation arrives on a busy machine.
  server.use(({ ctx }, next) => {
    if (ctx.signal.aborted) serverAbort.resolve(ctx.signal.reason);
    else ctx.signal.addEventListener('abort', () => serverAbort.resolve(ctx.signal.reason));
    return next();
  });
  server.tool({ name: 'hang' }, () => new Promise<string>(() => {}));
  const client = await connect(server);
  await assert.rejects(
    client.callTool({ name: 'hang' }, { timeoutMs: 15 }),
    (error: unknown) => error instanceof RequestTimeoutError && error.code === 'REQUEST_TIMEOUT',
  );
  assert.equal(await serverAbort.promise, 'Request timed out');
  await client.close();
});

test('requestTimeoutMs is the default timeout of every request', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  server.tool({ name: 'hang' }, () => new Promise<string>(() => {}));
  const client = await connect(server, { requestTimeoutMs: 15 });
  await assert.rejects(client.callTool({ name: 'hang' }), RequestTimeoutError);
  await client.close();
});

test('outbound middleware sees every request, may rewrite params and may answer itself', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  server.tool({ name: 'echo' }, (args) => JSON.stringify(args));
  const [clientEnd, serverEnd] = createMemoryPair();
  server.connect(serverEnd);
  const client = new Client(clientInfo, { era: 'handshake' });
  const seen: string[] = [];
  client.use(async (request, next) => {
    seen.push(`${request.direction} ${request.method}`);
    return next();
  });
  client.use((request, next) => {
    if (request.method === 'ping') return Promise.resolve({ local: true });
    if (request.method === 'tools/call')
      request.params = { ...request.params, arguments: { rewritten: true } };
    return next();
  });
  await client.connect(clientEnd);
  assert.deepEqual(await client.ping(), { local: true });
  const result = await client.callTool({ name: 'echo', arguments: { original: true } });
  assert.deepEqual(result.content, [{ type: 'text', text: '{"rewritten":true}' }]);
  assert.deepEqual(seen, [
    'outbound initialize',
    'outbound ping',
    'outbound tools/list',
    'outbound tools/call',
  ]);
  await client.close();
});

test('closing rejects pending requests with ConnectionClosedError and emits close', async () => {
  const server = new Server({ name: 'srv', version: '1' });
  const started = deferred();
  server.tool({ name: 'hang' }, () => {
    started.resolve();
    return new Promise<string>(() => {});
  });
  const client = await connect(server);
  const closes: Array<{ error?: Error }> = [];
  client.on('close', (event) => closes.push(event));
  const call = client.callTool({ name: 'hang' });
  await started.promise;
  await client.close();
  await assert.rejects(call, ConnectionClosedError);
  assert.equal(closes.length, 1);
  await client.close();
  assert.equal(closes.length, 1, 'close is idempotent');
});

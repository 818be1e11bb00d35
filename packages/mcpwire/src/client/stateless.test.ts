// The client in the stateless era (issue: 2026-07-28): era discovery, the envelope, MRTR rounds
// answered by the same handlers as handshake-era server requests, listen, -32022, the era cache.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject, Message } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { Server } from '../server/server.ts';
import type { Channel } from '../transports/channel.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { tapChannel } from '../transports/tap.ts';
import { Client } from './client.ts';
import { InvalidResultError } from './errors.ts';
import { createRawServer } from '../../test/support/raw-server.ts';

const info = { name: 'stateless-test', version: '1.0.0' };

function createServer(): Server {
  const server = new Server({ name: 'dual', version: '2.0.0' }, { instructions: 'hello' });
  server.tool(
    {
      name: 'delete_branch',
      description: 'Deletes a branch after confirmation',
      inputSchema: { type: 'object', properties: { branch: { type: 'string' } }, required: ['branch'] },
    },
    async ({ branch }, ctx) => {
      const answer = await ctx.elicit(
        {
          mode: 'form',
          message: `Delete ${String(branch)}?`,
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
        },
        { key: 'confirm' },
      );
      if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Kept.';
      const summary = await ctx.sample(
        { messages: [{ role: 'user', content: { type: 'text', text: 'summarize' } }], maxTokens: 10 },
        { key: 'summary' },
      );
      return `Deleted ${String(branch)}: ${!Array.isArray(summary.content) && summary.content.type === 'text' ? summary.content.text : ''}`;
    },
  );
  server.tool({ name: 'noop', description: 'Does nothing' }, () => 'ok');
  return server;
}

const handlers = {
  elicitation: () => ({ action: 'accept' as const, content: { confirm: true } }),
  sampling: () => ({
    role: 'assistant' as const,
    content: { type: 'text' as const, text: 'gone' },
    model: 'm',
  }),
};

function connectPair(server: Server): { channel: Channel; sent: Message[] } {
  const [clientSide, serverSide] = createMemoryPair();
  server.connect(serverSide);
  const sent: Message[] = [];
  const channel = tapChannel(clientSide, {
    onSend: (message) => void sent.push(...(Array.isArray(message) ? message : [message as Message])),
  });
  return { channel, sent };
}

test('one handler, both eras, through the same client handlers', async () => {
  for (const era of ['handshake', 'auto'] as const) {
    const server = createServer();
    const client = new Client(info, { era, handlers, eraCache: false });
    await client.connect(connectPair(server).channel);
    assert.equal(client.era, era === 'auto' ? 'stateless' : 'handshake');
    const result = await client.callTool({ name: 'delete_branch', arguments: { branch: 'old' } });
    assert.deepEqual(result.content, [{ type: 'text', text: 'Deleted old: gone' }]);
    await client.close();
    await server.close();
  }
});

test('auto discovers a stateless server; every request carries the envelope; retries echo the state exactly', async () => {
  const server = createServer();
  const client = new Client(info, { handlers, eraCache: false });
  const { channel, sent } = connectPair(server);
  await client.connect(channel);
  assert.equal(client.protocolVersion, '2026-07-28');
  assert.deepEqual(client.serverInfo, { name: 'dual', version: '2.0.0' });
  assert.equal(client.instructions, 'hello');
  await client.callTool({ name: 'delete_branch', arguments: { branch: 'x' } });
  const requests = sent.filter(
    (m): m is Extract<Message, { method: string; id: unknown }> => 'method' in m && 'id' in m,
  );
  // tools/list (for the output schema) runs beside the first call, so its place may vary.
  assert.deepEqual(
    requests.map((r) => r.method).filter((m) => m !== 'tools/list'),
    ['server/discover', 'tools/call', 'tools/call', 'tools/call'],
  );
  for (const request of requests) {
    const meta = request.params?._meta as JsonObject;
    assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
    assert.deepEqual(meta['io.modelcontextprotocol/clientInfo'], info);
    assert.ok(meta['io.modelcontextprotocol/clientCapabilities']);
  }
  const calls = requests.filter((r) => r.method === 'tools/call');
  assert.equal(new Set(calls.map((c) => c.id)).size, 3, 'each retry has a new id (S26-MRTR-8)');
  assert.equal(calls[0]!.params!.requestState, undefined);
  assert.deepEqual(Object.keys(calls[1]!.params!.inputResponses as JsonObject), ['confirm']);
  assert.equal(typeof calls[1]!.params!.requestState, 'string');
  await assert.rejects(client.ping(), /ping/);
  await client.close();
  await server.close();
});

test('listen: acknowledgement, then the list-changed events the filter asked for', async () => {
  const server = createServer();
  const client = new Client(info, { eraCache: false });
  await client.connect(connectPair(server).channel);
  const seen: string[] = [];
  client.on('toolsListChanged', () => seen.push('tools'));
  client.on('promptsListChanged', () => seen.push('prompts'));
  const subscription = client.listen({ toolsListChanged: true });
  assert.deepEqual(await subscription.acknowledged, { toolsListChanged: true });
  server.tool({ name: 'added', description: 'Added later' }, () => 'ok');
  server.prompt({ name: 'p', description: 'A prompt' }, () => 'hi');
  await client.callTool({ name: 'noop' });
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(seen, ['tools']);
  subscription.close();
  await subscription.closed;
  await client.close();
  await server.close();
});

const handshakeInit = (params: JsonObject): JsonObject => ({
  protocolVersion: params.protocolVersion as string,
  capabilities: { tools: {} },
  serverInfo: { name: 'old', version: '1' },
});

test('a handshake-era server that answers discover with any error gets initialize on the same stream', async () => {
  const { channel, received } = createRawServer((method, params) => {
    if (method === 'server/discover') throw new RpcError(-32000, 'Server not initialized');
    if (method === 'initialize') return handshakeInit(params);
    return { tools: [] };
  });
  const client = new Client(info, { eraCache: false });
  await client.connect(channel);
  assert.equal(client.era, 'handshake');
  assert.equal(client.protocolVersion, '2025-11-25');
  assert.deepEqual(
    received.filter((method) => !method.startsWith('notifications/')),
    ['server/discover', 'initialize'],
  );
  await client.close();
});

test('-32022 is retried once at the version the server names; missing resultType means complete', async () => {
  let discovers = 0;
  const { channel } = createRawServer((method) => {
    if (method === 'server/discover' && discovers++ === 0)
      throw new RpcError(-32022, 'Unsupported protocol version', {
        supported: ['2026-07-28'],
        requested: '2026-07-28',
      });
    if (method === 'server/discover')
      return {
        resultType: 'complete',
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        ttlMs: 0,
        cacheScope: 'private',
      };
    if (method === 'tools/call') return { content: [{ type: 'text', text: 'no resultType' }] };
    return { resultType: 'mystery' };
  });
  const client = new Client(info, { eraCache: false });
  await client.connect(channel);
  assert.equal(client.era, 'stateless');
  assert.equal(discovers, 2);
  assert.deepEqual((await client.callTool({ name: 'x' })).content, [{ type: 'text', text: 'no resultType' }]);
  await assert.rejects(client.listTools(), InvalidResultError);
  await client.close();
});

test('era "stateless" refuses a handshake-era server with a clear error', async () => {
  const { channel } = createRawServer(() => {
    throw new RpcError(-32601, 'Method not found');
  });
  const client = new Client(info, { era: 'stateless', eraCache: false });
  await assert.rejects(client.connect(channel), /does not speak the stateless era/);
});

test('a transport refusal (isRefusal) during the probe means handshake; any other transport failure is no verdict (issue 23)', async () => {
  const { probeEra } = await import('./era-probe.ts');
  // The client reads the contract's refusal, not HTTP statuses: the HTTP transport decides (HttpError.isRefusal).
  const refused = Object.assign(new Error('POST http://127.0.0.1/mcp answered 400 Bad Request'), {
    isRefusal: true,
  });
  const verdict = await probeEra(() => Promise.reject(refused));
  assert.equal(verdict.era, 'handshake');
  assert.match(verdict.era === 'handshake' ? verdict.detail : '', /answered 400/);
  for (const failure of [
    Object.assign(new Error('answered 401'), { isRefusal: false, status: 401 }),
    Object.assign(new Error('answered 503'), { status: 503 }),
    // A status alone is no refusal: only the transport says what refuses.
    Object.assign(new Error('answered 404'), { status: 404 }),
  ]) {
    await assert.rejects(
      probeEra(() => Promise.reject(failure)),
      (error: unknown) => error === failure,
    );
  }
});

// One handler, both eras (issue: stateless era): a tool that elicits a confirmation and samples a
// summary works over a handshake-era session (real server->client requests) and statelessly
// (multi-round-trip `input_required` results with a sealed requestState), from one definition.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Peer } from '../jsonrpc/peer.ts';
import type { JsonObject, JsonRpcRequest } from '../jsonrpc/message.ts';
import { RpcError } from '../jsonrpc/rpc-error.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { Server } from './server.ts';

function createServer(): Server {
  const server = new Server({ name: 'dual', version: '1.0.0' });
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
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean' } },
            required: ['confirm'],
          },
        },
        { key: 'confirm' },
      );
      if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Kept.';
      const summary = await ctx.sample(
        {
          messages: [
            { role: 'user', content: { type: 'text', text: `Summarize deleting ${String(branch)}` } },
          ],
          maxTokens: 50,
        },
        { key: 'summary' },
      );
      const text = Array.isArray(summary.content)
        ? ''
        : summary.content.type === 'text'
          ? summary.content.text
          : '';
      return `Deleted ${String(branch)}: ${text}`;
    },
  );
  return server;
}

/** A raw client peer: answers server->client requests with `answer` and records them. */
function rawClient(answer: (request: JsonRpcRequest) => JsonObject) {
  const [clientSide, serverSide] = createMemoryPair();
  const seen: string[] = [];
  const peer = new Peer({
    send: (message) => clientSide.send(message),
    handler: {
      handleRequest: (request) => {
        seen.push(request.method);
        return answer(request);
      },
      handleNotification: () => {},
    },
    shouldAnswerInvalid: false,
  });
  clientSide.open(peer);
  return { peer, serverSide, seen };
}

const answers = (request: JsonRpcRequest): JsonObject =>
  request.method === 'elicitation/create'
    ? { action: 'accept', content: { confirm: true } }
    : { role: 'assistant', content: { type: 'text', text: 'gone for good' }, model: 'test-model' };

test('handshake era: the handler asks with real server->client requests', async () => {
  const server = createServer();
  const { peer, serverSide, seen } = rawClient(answers);
  server.connect(serverSide);
  const init = await peer.request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { elicitation: {}, sampling: {} },
    clientInfo: { name: 'c', version: '1' },
  });
  assert.equal(init.protocolVersion, '2025-11-25');
  await peer.notify('notifications/initialized');
  const result = await peer.request('tools/call', { name: 'delete_branch', arguments: { branch: 'old' } });
  assert.deepEqual(result.content, [{ type: 'text', text: 'Deleted old: gone for good' }]);
  assert.deepEqual(seen, ['elicitation/create', 'sampling/createMessage']);
  await server.close();
});

test('stateless era: the same handler answers input_required, round by round', async () => {
  const server = createServer();
  const { peer, serverSide, seen } = rawClient(answers);
  server.connect(serverSide);
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, sampling: {} },
  };
  const call = (extra: JsonObject = {}) =>
    peer.request('tools/call', {
      name: 'delete_branch',
      arguments: { branch: 'old' },
      _meta: meta,
      ...extra,
    });

  const first = await call();
  assert.equal(first.resultType, 'input_required');
  assert.deepEqual(Object.keys(first.inputRequests as JsonObject), ['confirm']);
  const second = await call({
    inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
    requestState: first.requestState,
  });
  assert.equal(second.resultType, 'input_required');
  assert.deepEqual(Object.keys(second.inputRequests as JsonObject), ['summary']);
  const third = await call({
    inputResponses: { summary: answers({ method: 'sampling/createMessage' } as JsonRpcRequest) },
    requestState: second.requestState,
  });
  assert.equal(third.resultType, 'complete');
  assert.deepEqual(third.content, [{ type: 'text', text: 'Deleted old: gone for good' }]);
  assert.equal((third._meta as JsonObject)['io.modelcontextprotocol/serverInfo'] !== undefined, true);
  // No server->client request is ever sent in the stateless era (S26-BASE-1).
  assert.deepEqual(seen, []);

  // Tampered state is an error, never a re-prompt (S26-MRTR-4).
  await assert.rejects(
    call({ inputResponses: {}, requestState: `${String(second.requestState)}-TAMPERED` }),
    (e: unknown) => e instanceof RpcError && e.code === -32602,
  );
  // An answer nobody asked for (no requestState) is ignored: the handler asks again (issue 21).
  const unasked = await call({ inputResponses: { confirm: { action: 'decline' } } });
  assert.equal(unasked.resultType, 'input_required');
  // A declined confirmation completes without sampling.
  const declined = await call({
    inputResponses: { confirm: { action: 'decline' } },
    requestState: first.requestState,
  });
  assert.deepEqual(declined.content, [{ type: 'text', text: 'Kept.' }]);
  await server.close();
});

test('stateless era: an undeclared capability is -32021 with requiredCapabilities', async () => {
  const server = createServer();
  const { peer, serverSide } = rawClient(answers);
  server.connect(serverSide);
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { sampling: {} },
  };
  await assert.rejects(
    peer.request('tools/call', { name: 'delete_branch', arguments: { branch: 'x' }, _meta: meta }),
    (e: unknown) =>
      e instanceof RpcError &&
      e.code === -32021 &&
      JSON.stringify(e.data) === '{"requiredCapabilities":{"elicitation":{}}}',
  );
  await server.close();
});

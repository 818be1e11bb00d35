// `mcpwire bridge --http 0 -- mcpwire serve everything --era handshake`: a 2026-07-28 client in front
// of a child that speaks only the handshake era. server/discover is built from the child's initialize
// result; a call whose tool elicits or samples becomes input_required rounds while the child's tool
// runs once; a list change reaches a listen stream; each request's log level filters the child's logs.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client, type ClientOptions } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import type { LoggingLevel } from 'mcpwire';
import { BridgeProcess } from './support/bridge-process.ts';
import { MCPWIRE_ARGV } from '../../../test/support/cli-child.ts';
import { statelessRequest } from '../../../test/support/raw-mcp-http.ts';

/** `mcpwire serve everything` restricted to the handshake era: a 2025-only stdio server. */
const HANDSHAKE_EVERYTHING = [...MCPWIRE_ARGV, 'serve', 'everything', '--era', 'handshake'];

function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  assert.equal(first?.type, 'text', JSON.stringify(result));
  return first.text!;
}

async function connect(url: string, options: ClientOptions): Promise<Client> {
  // The first request starts the shared child: longer than the default timeouts on a loaded machine.
  const client = new Client(
    { name: 'era-front-test', version: '1.0.0' },
    { eraCache: false, probeTimeoutMs: 60_000, initializeTimeoutMs: 60_000, ...options },
  );
  await client.connect(new StreamableHttpClientTransport(url));
  return client;
}

describe('bridge --http: the 2026-07-28 front over a handshake-era child', { concurrency: 1 }, () => {
  test('discover, tools/list, a call; an elicitation and a sampling round; the tool runs once', async () => {
    const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
    await using _bridge = bridge;
    const asked: string[] = [];
    const sampled: string[] = [];
    const client = await connect(url, {
      era: 'stateless',
      handlers: {
        elicitation: (params) => {
          asked.push(params.message);
          return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
        },
        sampling: (params) => {
          sampled.push(JSON.stringify(params.messages));
          return { role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'test-model' };
        },
      },
    });
    try {
      assert.equal(client.era, 'stateless');
      assert.equal(client.protocolVersion, '2026-07-28');
      // server/discover built from the child's initialize result.
      assert.equal(client.serverInfo?.name, 'mcpwire-everything');
      assert.deepEqual(client.serverCapabilities?.tools, { listChanged: true });
      const tools = await client.listAllTools();
      assert.ok(tools.some((tool) => tool.name === 'test_elicitation'));
      assert.equal(
        textOf(await client.callTool({ name: 'test_simple_text', arguments: {} })),
        'This is a simple text response for testing.',
      );
      const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } });
      assert.match(textOf(elicited), /ada@example\.com/);
      // Once: a tool run again per round would ask again, and the client would answer again.
      assert.deepEqual(asked, ['Who?']);
      const sampledResult = await client.callTool({
        name: 'test_sampling',
        arguments: { prompt: 'Answer?' },
      });
      assert.equal(textOf(sampledResult), 'LLM response: forty-two');
      assert.equal(sampled.length, 1);
      assert.match(sampled[0]!, /Answer\?/);
    } finally {
      await client.close();
    }
  });

  test('a list change of the child reaches a listen stream; log levels are per request', async () => {
    const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
    await using _bridge = bridge;
    const client = await connect(url, { era: 'auto' });
    try {
      assert.equal(client.era, 'stateless', 'auto finds the 2026-07-28 front');
      const changed = new Promise<void>((resolve) => client.on('toolsListChanged', () => resolve()));
      const subscription = client.listen({ toolsListChanged: true });
      assert.deepEqual(await subscription.acknowledged, { toolsListChanged: true });
      assert.match(
        textOf(await client.callTool({ name: 'test_trigger_tool_change', arguments: {} })),
        /added test_dynamic_tool/,
      );
      await changed;
      assert.ok((await client.listAllTools()).some((tool) => tool.name === 'test_dynamic_tool'));
      subscription.close();

      const levels: LoggingLevel[] = [];
      client.on('log', ({ level }) => levels.push(level));
      // No level asked: no log messages at all (S26-LOG-1).
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      assert.deepEqual(levels, []);
      await client.setLoggingLevel({ level: 'error' });
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      assert.deepEqual(levels, ['error']);
      levels.length = 0;
      await client.setLoggingLevel({ level: 'debug' });
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      assert.deepEqual(levels, ['info', 'debug', 'info', 'error', 'info']);
    } finally {
      await client.close();
    }
  });

  test("a call the client cancels is cancelled on the child: the next call's elicitation is not refused", async () => {
    const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
    await using _bridge = bridge;
    const client = await connect(url, {
      era: 'stateless',
      handlers: {
        elicitation: () => ({ action: 'accept', content: { username: 'cy', email: 'cy@example.com' } }),
      },
    });
    try {
      const controller = new AbortController();
      const slow = client.callTool(
        { name: 'test_tool_slow', arguments: { durationMs: 600_000 } },
        { signal: controller.signal, onProgress: () => controller.abort() },
      );
      await assert.rejects(slow);
      // Still running on the child, the slow call would make this elicitation ambiguous (refused).
      const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } });
      assert.match(textOf(elicited), /cy@example\.com/);
    } finally {
      await client.close();
    }
  });

  test('a round replayed after its call is over gets a clear error, and the tool does not run again', async () => {
    const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
    await using _bridge = bridge;
    const capabilities = { elicitation: {} };
    const params = { name: 'test_elicitation', arguments: { message: 'Who?' } };
    const first = await statelessRequest(url, 'tools/call', params, { capabilities });
    assert.equal(first.status, 200, JSON.stringify(first.message));
    const { resultType, inputRequests, requestState } = first.message.result;
    assert.equal(resultType, 'input_required');
    const [key] = Object.keys(inputRequests);
    assert.match(key!, /^mcpwire-bridge:[0-9a-f]{32}:1$/);
    assert.equal(inputRequests[key!].method, 'elicitation/create');
    const answer = { action: 'accept', content: { username: 'bo', email: 'bo@example.com' } };
    const retry = { ...params, inputResponses: { [key!]: answer }, requestState };
    const second = await statelessRequest(url, 'tools/call', retry, { capabilities, id: 2 });
    assert.match(second.message.result.content[0].text, /bo@example\.com/);
    const replayed = await statelessRequest(url, 'tools/call', retry, { capabilities, id: 3 });
    assert.equal(replayed.message.error?.code, -32602, JSON.stringify(replayed.message));
    assert.match(replayed.message.error.message, /the call this requestState continues is over/);
  });
});

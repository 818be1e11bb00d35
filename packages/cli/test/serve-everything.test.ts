// `mcpwire serve everything` as a real child process, driven with raw NDJSON JSON-RPC: the handshake,
// the conformance fixtures (exact texts), progress, list changes, subscriptions, cancellation and exit.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JSON_SCHEMA_2020_12_FIXTURE } from '@mcpwire/server-everything';
import { RawServerProcess, type WireMessage } from '../../../test/support/raw-server-process.ts';

const SERVE = ['serve', 'everything'];

/** Every tool the conformance suite's 2025 scenarios call by name. */
const CONFORMANCE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_tool_with_progress',
  'test_error_handling',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_reconnection',
  'json_schema_2020_12_tool',
  'test_tool_slow',
  'test_tool_fast',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_logging_tool',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
];

function textOf(response: WireMessage): string {
  assert.equal(response.error, undefined, `unexpected error ${JSON.stringify(response.error)}`);
  const block = response.result.content[0];
  assert.equal(block.type, 'text');
  return block.text as string;
}

// Each test runs its own server process, so a few can run at once.
describe('mcpwire serve everything', { concurrency: 4 }, () => {
  test('handshake: 2025-11-25 with every server capability', async () => {
    await using server = new RawServerProcess(SERVE);
    const result = await server.initialize();
    assert.equal(result.protocolVersion, '2025-11-25');
    assert.equal(result.serverInfo.name, 'mcpwire-everything');
    assert.deepEqual(result.capabilities.tools, { listChanged: true });
    assert.deepEqual(result.capabilities.resources, { subscribe: true, listChanged: true });
    assert.deepEqual(result.capabilities.prompts, { listChanged: true });
    assert.deepEqual(result.capabilities.completions, {});
    assert.deepEqual(result.capabilities.logging, {});
  });

  test('tools/list: echo first, every fixture present, names and descriptions well-formed', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    const { tools } = (await server.request('tools/list')).result as {
      tools: Array<{ name: string; description?: string; inputSchema?: object }>;
    };
    assert.equal(tools[0]?.name, 'echo');
    const names = tools.map((tool) => tool.name);
    for (const name of CONFORMANCE_TOOLS) assert.ok(names.includes(name), `missing tool ${name}`);
    for (const tool of tools) {
      assert.match(tool.name, /^[A-Za-z0-9_.-]{1,64}$/);
      assert.ok(tool.description, `tool ${tool.name} has no description`);
      assert.ok(tool.inputSchema, `tool ${tool.name} has no inputSchema`);
    }
    const jsonSchemaTool = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    assert.deepEqual(jsonSchemaTool?.inputSchema, JSON_SCHEMA_2020_12_FIXTURE);
    assert.ok(tools.some((tool) => JSON.stringify(tool.inputSchema).includes('"x-mcp-header":"Region"')));
  });

  test('tools/call: echo, content fixtures, tool errors, structured output', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    assert.equal(textOf(await server.request('tools/call', { name: 'echo', arguments: {} })), '');
    assert.equal(
      textOf(await server.request('tools/call', { name: 'echo', arguments: { message: 'hello 1' } })),
      'hello 1',
    );
    assert.equal(
      textOf(await server.request('tools/call', { name: 'test_simple_text' })),
      'This is a simple text response for testing.',
    );
    const image = (await server.request('tools/call', { name: 'test_image_content', arguments: {} })).result
      .content[0];
    assert.deepEqual([image.type, image.mimeType, typeof image.data], ['image', 'image/png', 'string']);
    const audio = (await server.request('tools/call', { name: 'test_audio_content', arguments: {} })).result
      .content[0];
    assert.deepEqual([audio.type, audio.mimeType], ['audio', 'audio/wav']);
    const embedded = (await server.request('tools/call', { name: 'test_embedded_resource', arguments: {} }))
      .result.content[0];
    assert.deepEqual(embedded.resource, {
      uri: 'test://embedded-resource',
      mimeType: 'text/plain',
      text: 'This is an embedded resource content.',
    });
    const mixed = (await server.request('tools/call', { name: 'test_multiple_content_types', arguments: {} }))
      .result.content;
    assert.deepEqual(
      mixed.map((block: { type: string }) => block.type),
      ['text', 'image', 'resource'],
    );
    assert.equal(mixed[2].resource.uri, 'test://mixed-content-resource');
    const failed = (await server.request('tools/call', { name: 'test_error_handling', arguments: {} }))
      .result;
    assert.equal(failed.isError, true);
    assert.equal(failed.content[0].text, 'This tool intentionally returns an error for testing');
    const sum = (await server.request('tools/call', { name: 'add_numbers', arguments: { a: 2, b: 40 } }))
      .result;
    assert.deepEqual(sum, { content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 } });
  });

  test('test_tool_with_progress: 0, 50, 100 of 100 with the request token, all before the response', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    const id = server.nextId;
    await server.request('tools/call', {
      name: 'test_tool_with_progress',
      arguments: {},
      _meta: { progressToken: 'progress-test-1' },
    });
    const responseAt = server.received.findIndex(
      (message) => message.id === id && message.method === undefined,
    );
    const progress = server.received.filter((message) => message.method === 'notifications/progress');
    assert.deepEqual(
      progress.map((message) => [
        message.params.progressToken,
        message.params.progress,
        message.params.total,
      ]),
      [
        ['progress-test-1', 0, 100],
        ['progress-test-1', 50, 100],
        ['progress-test-1', 100, 100],
      ],
    );
    assert.ok(progress.every((message) => server.received.indexOf(message) < responseAt));
  });

  test('test_tool_with_logging: info messages honour logging/setLevel', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    await server.request('logging/setLevel', { level: 'error' });
    await server.request('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    const levels = server.received
      .filter((message) => message.method === 'notifications/message')
      .map((message) => message.params.level);
    assert.deepEqual(levels, ['error']);
    await server.request('logging/setLevel', { level: 'debug' });
    await server.request('tools/call', { name: 'test_tool_with_logging', arguments: {} });
    const all = server.received.filter((message) => message.method === 'notifications/message').slice(1);
    assert.ok(all.filter((message) => message.params.level === 'info').length >= 3);
    assert.ok(all.some((message) => message.params.level === 'debug'));
  });

  test('resources: static text, static binary, template, list and templates/list', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    const text = (await server.request('resources/read', { uri: 'test://static-text' })).result.contents[0];
    assert.deepEqual(text, {
      uri: 'test://static-text',
      mimeType: 'text/plain',
      text: 'This is the content of the static text resource.',
    });
    const binary = (await server.request('resources/read', { uri: 'test://static-binary' })).result
      .contents[0];
    assert.deepEqual([binary.mimeType, typeof binary.blob], ['image/png', 'string']);
    const templated = (await server.request('resources/read', { uri: 'test://template/123/data' })).result
      .contents[0];
    assert.deepEqual(templated, {
      uri: 'test://template/123/data',
      mimeType: 'application/json',
      text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}',
    });
    const { resources } = (await server.request('resources/list')).result;
    assert.ok(
      resources.length >= 3 &&
        resources.every((resource: { uri?: string; name?: string }) => resource.uri && resource.name),
    );
    const { resourceTemplates } = (await server.request('resources/templates/list')).result;
    assert.deepEqual(
      resourceTemplates.map((template: { uriTemplate: string }) => template.uriTemplate),
      ['test://template/{id}/data'],
    );
    const missing = await server.request('resources/read', {
      uri: 'test://nonexistent-resource-for-conformance-testing',
    });
    assert.deepEqual(missing.error.data, { uri: 'test://nonexistent-resource-for-conformance-testing' });
  });

  test('prompts and completion: the four fixtures, argument completion for prompts and the template', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    const { prompts } = (await server.request('prompts/list')).result;
    assert.ok(prompts.every((prompt: { description?: string }) => prompt.description));
    const simple = (await server.request('prompts/get', { name: 'test_simple_prompt' })).result.messages;
    assert.deepEqual(simple, [
      { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
    ]);
    const withArgs = (
      await server.request('prompts/get', {
        name: 'test_prompt_with_arguments',
        arguments: { arg1: 'hello', arg2: 'world' },
      })
    ).result;
    assert.equal(withArgs.messages[0].content.text, "Prompt with arguments: arg1='hello', arg2='world'");
    const embedded = (
      await server.request('prompts/get', {
        name: 'test_prompt_with_embedded_resource',
        arguments: { resourceUri: 'test://example-resource' },
      })
    ).result;
    assert.equal(embedded.messages[0].content.resource.uri, 'test://example-resource');
    assert.equal(embedded.messages[1].content.text, 'Please process the embedded resource above.');
    const image = (await server.request('prompts/get', { name: 'test_prompt_with_image' })).result;
    assert.deepEqual(
      [image.messages[0].content.type, image.messages[1].content.text],
      ['image', 'Please analyze the image above.'],
    );
    const missingArgument = await server.request('prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'x' },
    });
    assert.equal(missingArgument.error.code, -32602);
    const completion = await server.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'test' },
    });
    assert.deepEqual(completion.result.completion.values, ['test', 'testing', 'test-value']);
    const ids = await server.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '1' },
    });
    assert.deepEqual(ids.result.completion.values, ['123', '1001']);
  });

  test('list changes and subscriptions: triggers toggle registrations, updates reach subscribers', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    await server.request('tools/call', { name: 'test_trigger_tool_change', arguments: {} });
    await server.waitFor((message) => message.method === 'notifications/tools/list_changed');
    const { tools } = (await server.request('tools/list')).result;
    assert.ok(tools.some((tool: { name: string }) => tool.name === 'test_dynamic_tool'));
    await server.request('tools/call', { name: 'test_trigger_prompt_change', arguments: {} });
    await server.waitFor((message) => message.method === 'notifications/prompts/list_changed');
    await server.request('resources/subscribe', { uri: 'test://watched-resource' });
    await server.request('tools/call', {
      name: 'test_update_watched_resource',
      arguments: { content: 'new content' },
    });
    const updated = await server.waitFor((message) => message.method === 'notifications/resources/updated');
    assert.deepEqual(updated.params, { uri: 'test://watched-resource' });
    assert.equal(
      (await server.request('resources/read', { uri: 'test://watched-resource' })).result.contents[0].text,
      'new content',
    );
  });

  test('cancellation: test_tool_slow stops without a response and the server stays responsive', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    const slowId = 'slow-1';
    const params = {
      name: 'test_tool_slow',
      arguments: { durationMs: 10_000 },
      _meta: { progressToken: 'slow' },
    };
    server.send({ jsonrpc: '2.0', id: slowId, method: 'tools/call', params });
    // The first progress notification proves the tool is running.
    await server.waitFor(
      (message) => message.method === 'notifications/progress' && message.params.progressToken === 'slow',
    );
    server.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: slowId, reason: 'test' },
    });
    assert.equal(
      textOf(await server.request('tools/call', { name: 'test_tool_fast', arguments: {} })),
      'Fast tool completed.',
    );
    await server.request('ping');
    assert.equal(
      server.received.find((message) => message.id === slowId),
      undefined,
    );
  });

  test('sampling and elicitation: the server asks the client, with the conformance schemas', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize({ sampling: {}, elicitation: {} });
    const asked: WireMessage[] = [];
    server.answer = (request) => {
      asked.push(request);
      if (request.method === 'sampling/createMessage')
        return { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'test-model' };
      return {
        action: 'accept',
        content: { name: 'Jane Smith', age: 25, score: 88, status: 'inactive', verified: false },
      };
    };
    const sampled = await server.request('tools/call', {
      name: 'test_sampling',
      arguments: { prompt: 'Capital of France?' },
    });
    assert.equal(textOf(sampled), 'LLM response: Paris');
    assert.deepEqual(asked[0]?.params, {
      messages: [{ role: 'user', content: { type: 'text', text: 'Capital of France?' } }],
      maxTokens: 100,
    });
    const elicited = await server.request('tools/call', {
      name: 'test_elicitation_sep1034_defaults',
      arguments: {},
    });
    assert.match(textOf(elicited), /^Elicitation completed: action=accept, content=/);
    const properties = asked[1]?.params.requestedSchema.properties;
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(properties as Record<string, { default: unknown }>).map(([key, value]) => [
          key,
          value.default,
        ]),
      ),
      { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    );
  });

  test('a client without sampling: test_missing_capability is a tool failure, not a protocol error', async () => {
    await using server = new RawServerProcess(SERVE);
    await server.initialize();
    const response = await server.request('tools/call', { name: 'test_missing_capability', arguments: {} });
    assert.equal(response.result.isError, true);
  });

  test('exits with code 0 when stdin closes, having written only JSON-RPC lines to stdout', async () => {
    const server = new RawServerProcess(SERVE);
    await server.initialize();
    await server.request('ping');
    assert.deepEqual(await server.close(), { code: 0, signal: null });
    assert.ok(server.received.every((message) => message.jsonrpc === '2.0'));
  });

  test('LIFE-13: requests piped in just before stdin closes are all answered, then it exits 0', async () => {
    const server = new RawServerProcess(SERVE);
    await server.initialize();
    for (let id = 1001; id <= 1500; id++)
      server.send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: `m${id}` } },
      });
    assert.deepEqual(await server.close(), { code: 0, signal: null });
    const answered = new Set(
      server.received.filter((message) => typeof message.id === 'number').map((m) => m.id),
    );
    for (let id = 1001; id <= 1500; id++) assert.ok(answered.has(id), `no answer to request ${id}`);
  });
});

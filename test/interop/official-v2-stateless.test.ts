// The official v2 SDK client (@modelcontextprotocol/client 2.x) with AUTOMATIC version negotiation drives
// `mcpwire serve everything` over a real stdio child process in the stateless era (2026-07-28): the
// `server/discover` probe, every tool, resource, template, prompt and completion, the multi-round-trip
// fixtures answered by the client's own elicitation, sampling and roots handlers, per-request logging and
// `subscriptions/listen`. official-v2-client.test.ts pins the same client to the handshake era.

import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';

import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import type { CompleteResult, GetPromptResult, ReadResourceResult } from 'mcpwire';
import { metaOf } from './conversation-log.ts';
import { assertInputRounds } from './stateless-results.ts';
import {
  EVERYTHING_CAPABILITIES,
  COMPLETION_CASES,
  PROMPT_CASES,
  RESOURCE_CASES,
  TEMPLATE_CASE,
  textResult,
} from './our-everything-expectations.ts';
import { StatelessV2Peer, SERVER_NAME } from './official-v2-stateless-peer.ts';
import { STATELESS_REVISION } from './sdk-stateless-wire-tap.ts';
import { OUR_EVERYTHING_SERVER, StderrTail } from './stdio-peers.ts';
import { KNOWN_PROGRESS_RACE, SUBSCRIPTION_ID_KEY } from './stateless-expectations.ts';

const peer = new StatelessV2Peer('interop-official-v2-stateless');
const { client, tap, logs, toolListChanges, promptListChanges, clientErrors, callTool } = peer;
const stderr = new StderrTail();

before(async () => {
  const transport = tap.attach(new StdioClientTransport({ ...OUR_EVERYTHING_SERVER, stderr: 'pipe' }));
  transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk.toString('utf8')));
  await client.connect(transport);
});

after(async () => {
  await client.close();
});

test('v2 client, auto negotiation: the server/discover probe settles on 2026-07-28, no handshake', () => {
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getNegotiatedProtocolVersion(), STATELESS_REVISION);
  const discover = client.getDiscoverResult();
  assert.deepEqual(discover?.supportedVersions, [STATELESS_REVISION]);
  assert.equal(typeof discover.ttlMs, 'number', 'DiscoverResult carries caching hints (S26-DISC-3)');
  assert.equal(client.getServerVersion()?.name, SERVER_NAME);
  assert.deepEqual(client.getServerCapabilities(), EVERYTHING_CAPABILITIES);
  assert.match(client.getInstructions() ?? '', /every MCP feature/);
  // The session process was never sent `initialize` (the probe ran on the SDK's sibling process).
  assert.ok(!tap.log.clientMethods.includes('initialize'), tap.log.clientMethods.join(', '));
});

test('v2 client: lists every tool and calls each with a meaningful result', async (t: TestContext) => {
  await peer.tourTools(t);
});

test('v2 client: input_required results are answered by its handlers and retried until complete', async (t) => {
  await peer.tourInputRounds(t);
});

test('v2 client: the input_required prompt is fulfilled the same way', async () => {
  const mark = tap.log.mark;
  const result = (await client.getPrompt({ name: 'test_input_required_result_prompt' })) as GetPromptResult;
  PROMPT_CASES.test_input_required_result_prompt?.check(result);
  const rounds = tap.log.exchangesOf('prompts/get', { since: mark });
  assertInputRounds(rounds, [['user_context']]);
});

test('v2 client: lists and reads every resource and the template; an unknown URI is -32602 (S26-RES-2)', async () => {
  const { resources } = await client.listResources();
  assert.deepEqual(resources.map((resource) => resource.uri).sort(), Object.keys(RESOURCE_CASES).sort());
  for (const resource of resources) {
    const check = RESOURCE_CASES[resource.uri];
    assert.ok(check, resource.uri);
    check((await client.readResource({ uri: resource.uri })) as ReadResourceResult);
  }
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.deepEqual(
    resourceTemplates.map((template) => template.uriTemplate),
    [TEMPLATE_CASE.uriTemplate],
  );
  TEMPLATE_CASE.check((await client.readResource({ uri: TEMPLATE_CASE.uri })) as ReadResourceResult);

  const uri = 'test://no-such-resource';
  const mark = tap.log.mark;
  await assert.rejects(client.readResource({ uri }), (error: Error & { data?: unknown }) => {
    assert.deepEqual(error.data, { uri }, error.message);
    return true;
  });
  const [read] = tap.log.exchangesOf('resources/read', { since: mark });
  assert.deepEqual(read?.response?.error, {
    code: -32602,
    message: `Resource not found: "${uri}"`,
    data: { uri },
  });
});

test('v2 client: lists every prompt and gets each with its arguments substituted', async () => {
  const { prompts } = await client.listPrompts();
  assert.deepEqual(prompts.map((prompt) => prompt.name).sort(), Object.keys(PROMPT_CASES).sort());
  for (const prompt of prompts) {
    const promptCase = PROMPT_CASES[prompt.name];
    assert.ok(promptCase, prompt.name);
    const params =
      promptCase.arguments === undefined
        ? { name: prompt.name }
        : { name: prompt.name, arguments: promptCase.arguments };
    promptCase.check((await client.getPrompt(params)) as GetPromptResult);
  }
});

test('v2 client: completion/complete returns values for prompt and template arguments', async () => {
  for (const { params, values } of COMPLETION_CASES) {
    const { completion } = (await client.complete(params)) as CompleteResult;
    assert.deepEqual(completion.values, values, JSON.stringify(params));
  }
});

test('v2 client: log messages reach only requests that carry a log level, at or above it (S26-LOG)', async () => {
  logs.clear();
  // Our server writes a request's notifications before its result: none has arrived means none was sent.
  assert.deepEqual(await callTool('test_logging_tool', {}), textResult('Logging tool executed.'));
  assert.equal(
    logs.items.length,
    0,
    `no logLevel in _meta, no notifications/message: ${JSON.stringify(logs.items)}`,
  );
  assert.deepEqual(
    await callTool('test_logging_tool', {}, { logLevel: 'error' }),
    textResult('Logging tool executed.'),
  );
  assert.equal(
    logs.items.length,
    0,
    `an info message stays below the level "error": ${JSON.stringify(logs.items)}`,
  );
  await callTool('test_logging_tool', {}, { logLevel: 'info' });
  assert.deepEqual(
    logs.items.map((log) => [log.level, log.data]),
    [['info', 'test_logging_tool ran']],
  );
});

test('v2 client: subscriptions/listen is acknowledged, and list changes reach only the stream that asked', async () => {
  const mark = tap.log.mark;
  const tools = await client.listen({ toolsListChanged: true });
  const prompts = await client.listen({ promptsListChanged: true });
  try {
    assert.deepEqual(tools.honoredFilter, { toolsListChanged: true });
    assert.deepEqual(prompts.honoredFilter, { promptsListChanged: true });
    const [toolsListen, promptsListen] = tap.log.exchangesOf('subscriptions/listen', { since: mark });
    const toolsId = toolsListen?.request.id;
    const promptsId = promptsListen?.request.id;
    assert.ok(toolsId !== undefined && promptsId !== undefined);

    const before = toolListChanges.items.length;
    assert.deepEqual(
      await callTool('test_trigger_tool_change', {}),
      textResult('Tool list changed: added test_dynamic_tool.'),
    );
    await toolListChanges.waitForCount('notifications/tools/list_changed', before + 1);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'test_dynamic_tool'));
    assert.deepEqual(await callTool('test_dynamic_tool', {}), textResult('Dynamic tool called.'));
    assert.deepEqual(
      await callTool('test_trigger_tool_change', {}),
      textResult('Tool list changed: removed test_dynamic_tool.'),
    );
    await toolListChanges.waitForCount('a second notifications/tools/list_changed', before + 2);
    assert.ok(!(await client.listTools()).tools.some((tool) => tool.name === 'test_dynamic_tool'));

    // S26-SUB-1/2/3: each stream's acknowledgement first, every message tagged with its listen id, and the
    // prompts-only stream told nothing of tools.
    const tagged = tap.log.serverNotifications
      .filter((note) => [toolsId, promptsId].includes(metaOf(note)[SUBSCRIPTION_ID_KEY] as string))
      .map((note) => [metaOf(note)[SUBSCRIPTION_ID_KEY], note.method]);
    assert.deepEqual(tagged, [
      [toolsId, 'notifications/subscriptions/acknowledged'],
      [promptsId, 'notifications/subscriptions/acknowledged'],
      [toolsId, 'notifications/tools/list_changed'],
      [toolsId, 'notifications/tools/list_changed'],
    ]);
    assert.deepEqual(promptListChanges.items, []);
  } finally {
    await tools.close();
    await prompts.close();
  }
  assert.equal(await tools.closed, 'local');
  assert.equal(await prompts.closed, 'local');
});

test('v2 client: every message our server sent is valid in 2026-07-28', (t) => {
  for (const failure of tap.clientFailures) t.diagnostic(`official v2 client: ${failure}`);
  assert.ok(tap.checkedCount > 0, 'the wire tap saw the conversation');
  assert.deepEqual(tap.serverFailures, [], `server stderr:\n${stderr}`);
  const unexpected = clientErrors.filter((error) => !KNOWN_PROGRESS_RACE.test(error.message));
  assert.deepEqual(
    unexpected.map((error) => error.message),
    [],
    'the official client reported no protocol error',
  );
});

// The official v2 SDK client (@modelcontextprotocol/client 2.x) with AUTOMATIC version negotiation drives
// `mcpwire serve everything` over a real stdio child process in the stateless era (2026-07-28): the
// `server/discover` probe, every tool, resource, template, prompt and completion, the multi-round-trip
// fixtures answered by the client's own elicitation, sampling and roots handlers, per-request logging and
// `subscriptions/listen`. official-v2-client.test.ts pins the same client to the handshake era.

import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import type { Progress } from '../../src/protocol/progress.ts';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  LoggingMessageNotificationParams,
  ReadResourceResult,
} from '../../src/protocol/types/index.ts';
import { Arrivals } from './arrivals.ts';
import { metaOf } from './conversation-log.ts';
import { assertInputRounds, toPlainResult } from './modern-results.ts';
import {
  answerElicitation,
  answerSampling,
  CLIENT_ROOTS,
  COMPLETION_CASES,
  firstText,
  PROMPT_CASES,
  RESOURCE_CASES,
  TEMPLATE_CASE,
  textResult,
} from './our-everything-expectations.ts';
import { DEDICATED_TOOLS, TOOL_CASES } from './our-everything-tool-cases.ts';
import { MODERN_REVISION, SdkModernWireTap } from './sdk-modern-wire-tap.ts';
import { OUR_EVERYTHING_SERVER, StderrTail } from './stdio-peers.ts';
import {
  INPUT_FIXTURES,
  KNOWN_PROGRESS_RACE,
  LOG_LEVEL_KEY,
  SUBSCRIPTION_ID_KEY,
} from './modern-expectations.ts';

const SERVER_NAME = 'mcpwire-everything';

const tap = new SdkModernWireTap();
const stderr = new StderrTail();
const logs = new Arrivals<LoggingMessageNotificationParams>();
const toolListChanges = new Arrivals<true>();
const promptListChanges = new Arrivals<true>();
const elicitationMessages: string[] = [];
const samplingPrompts: string[] = [];
const clientErrors: Error[] = [];

// `mode: 'auto'` probes with `server/discover` (on a short-lived sibling process, for the SDK's own stdio
// transport) and speaks 2026-07-28 when the server offers it; otherwise it runs the 2025 handshake.
const client = new Client(
  { name: 'interop-official-v2-modern', version: '2.0.0' },
  {
    versionNegotiation: { mode: 'auto' },
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
  },
);
// In the stateless era the SDK answers `input_required` results through these same handlers, then retries.
client.setRequestHandler('elicitation/create', (request) => {
  elicitationMessages.push(request.params.message);
  return answerElicitation(request.params);
});
client.setRequestHandler('sampling/createMessage', (request) => {
  samplingPrompts.push(firstText(request.params.messages[0]?.content));
  return answerSampling();
});
client.setRequestHandler('roots/list', () => ({ roots: CLIENT_ROOTS }));
client.setNotificationHandler('notifications/message', (notification) =>
  logs.push(notification.params as LoggingMessageNotificationParams),
);
client.setNotificationHandler('notifications/tools/list_changed', () => toolListChanges.push(true));
client.setNotificationHandler('notifications/prompts/list_changed', () => promptListChanges.push(true));
client.onerror = (error) => clientErrors.push(error);

before(async () => {
  const transport = tap.attach(new StdioClientTransport({ ...OUR_EVERYTHING_SERVER, stderr: 'pipe' }));
  transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk.toString('utf8')));
  await client.connect(transport);
});

after(async () => {
  await client.close();
});

/** One tool call with the per-request log level (S26-LOG-1), its result without the stateless-era envelope. */
async function callTool(
  name: string,
  args: Record<string, unknown>,
  options: { logLevel?: string; progress?: Progress[] } = {},
): Promise<CallToolResult> {
  const { logLevel, progress } = options;
  const result = await client.callTool(
    { name, arguments: args, ...(logLevel === undefined ? {} : { _meta: { [LOG_LEVEL_KEY]: logLevel } }) },
    progress === undefined ? {} : { onprogress: (update) => progress.push(update as Progress) },
  );
  return toPlainResult(result as CallToolResult, SERVER_NAME);
}

test('v2 client, auto negotiation: the server/discover probe settles on 2026-07-28, no handshake', () => {
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN_REVISION);
  const discover = client.getDiscoverResult();
  assert.deepEqual(discover?.supportedVersions, [MODERN_REVISION]);
  assert.equal(typeof discover.ttlMs, 'number', 'DiscoverResult carries caching hints (S26-DISC-3)');
  assert.equal(client.getServerVersion()?.name, SERVER_NAME);
  assert.deepEqual(client.getServerCapabilities(), {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
    logging: {},
  });
  assert.match(client.getInstructions() ?? '', /every MCP feature/);
  // The session process was never sent `initialize` (the probe ran on the SDK's sibling process).
  assert.ok(!tap.log.clientMethods.includes('initialize'), tap.log.clientMethods.join(', '));
});

test('v2 client: lists every tool and calls each with a meaningful result', async (t: TestContext) => {
  const { tools } = await client.listTools();
  const listed = tools.map((tool) => tool.name);
  for (const name of listed) {
    // State-changing tools have their own tests, the input fixtures too (below, with their rounds).
    if (DEDICATED_TOOLS.includes(name) || name in INPUT_FIXTURES) continue;
    await t.test(name, async () => {
      const toolCase = TOOL_CASES[name];
      assert.ok(toolCase, `no case in our-everything-tool-cases.ts for the listed tool "${name}"`);
      logs.clear();
      const progress: Progress[] = [];
      // Every level, so the logging cases see their messages: only requests that ask get any (S26-LOG-1).
      const result = await callTool(name, toolCase.arguments, { logLevel: 'debug', progress });
      await toolCase.check(result, { progress, logs });
    });
  }
  assert.deepEqual(
    Object.keys(TOOL_CASES).filter((name) => !listed.includes(name)),
    [],
    'every case names a listed tool',
  );
});

test('v2 client: input_required results are answered by its handlers and retried until complete', async (t) => {
  for (const [name, { rounds, text }] of Object.entries(INPUT_FIXTURES)) {
    await t.test(name, async () => {
      const mark = tap.log.mark;
      assert.deepEqual(await callTool(name, {}), textResult(text));
      assertInputRounds(tap.log.callsOf(name, mark), rounds);
    });
  }
  assert.ok(elicitationMessages.includes('Step 2: pick a size'), JSON.stringify(elicitationMessages));
  assert.ok(samplingPrompts.includes('What is the capital of France?'), JSON.stringify(samplingPrompts));
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

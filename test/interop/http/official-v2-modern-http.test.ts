// The official v2 SDK client (@modelcontextprotocol/client 2.4, StreamableHTTPClientTransport) with AUTOMATIC
// version negotiation drives our everything server over Streamable HTTP on a real socket: `server/discover`
// settles the stateless era (2026-07-28), no session and no GET stream; tools, input_required rounds answered by
// its sampling/elicitation/roots handlers, resources, prompts, completion, and `subscriptions/listen`.

import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import type { Progress } from '../../../src/protocol/progress.ts';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  LoggingMessageNotificationParams,
  ReadResourceResult,
} from '../../../src/protocol/types/index.ts';
import { Arrivals } from '../arrivals.ts';
import { metaOf } from '../conversation-log.ts';
import { assertInputRounds, toPlainResult } from '../modern-results.ts';
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
} from '../our-everything-expectations.ts';
import { DEDICATED_TOOLS, TOOL_CASES } from '../our-everything-tool-cases.ts';
import { MODERN_REVISION, SdkModernWireTap } from '../sdk-modern-wire-tap.ts';
import { HttpWireLog, startOurHttpServer, type OurHttpServer } from './http-hosts.ts';
import {
  INPUT_FIXTURES,
  KNOWN_PROGRESS_RACE,
  LOG_LEVEL_KEY,
  SUBSCRIPTION_ID_KEY,
} from '../modern-expectations.ts';

const SERVER_NAME = 'mcpwire-everything';

const wire = new HttpWireLog();
const tap = new SdkModernWireTap();
const logs = new Arrivals<LoggingMessageNotificationParams>();
const toolListChanges = new Arrivals<true>();
const promptListChanges = new Arrivals<true>();
const elicitationMessages: string[] = [];
const samplingPrompts: string[] = [];
const clientErrors: Error[] = [];
let server: OurHttpServer;

const client = new Client(
  { name: 'interop-official-v2-modern-http', version: '2.0.0' },
  {
    versionNegotiation: { mode: 'auto' },
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: {} },
  },
);
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
  server = await startOurHttpServer();
  await client.connect(
    tap.attach(new StreamableHTTPClientTransport(new URL(server.url), { fetch: wire.fetch })),
  );
});

after(async () => {
  await client.close();
  await server.close();
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

test('v2 over HTTP, auto negotiation: server/discover settles on 2026-07-28; no initialize, no session', async () => {
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getNegotiatedProtocolVersion(), MODERN_REVISION);
  assert.deepEqual(client.getDiscoverResult()?.supportedVersions, [MODERN_REVISION]);
  assert.equal(client.getServerVersion()?.name, SERVER_NAME);
  assert.deepEqual(client.getServerCapabilities(), {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
    logging: {},
  });
  assert.match(client.getInstructions() ?? '', /every MCP feature/);
  // 2026-07-28 has no ping: a list stands in for any later request.
  await client.listTools();
  const lines = wire.lines().join('\n');
  assert.ok(!wire.exchanges.some((entry) => entry.rpc.includes('initialize')), lines);
  assert.ok(wire.exchanges[0]?.rpc.includes('server/discover'), lines);
  // S26-HTTP: the stateless era has no sessions, hence no Mcp-Session-Id and no standalone GET stream.
  assert.ok(
    wire.exchanges.every(
      (entry) => entry.method === 'POST' && entry.sessionId === null && entry.assignedSessionId === null,
    ),
    lines,
  );
});

test('v2 over HTTP: lists every tool and calls each with a meaningful result', async (t: TestContext) => {
  const { tools } = await client.listTools();
  const listed = tools.map((tool) => tool.name);
  for (const name of listed) {
    if (DEDICATED_TOOLS.includes(name) || name in INPUT_FIXTURES) continue;
    await t.test(name, async () => {
      const toolCase = TOOL_CASES[name];
      assert.ok(toolCase, `no case in our-everything-tool-cases.ts for the listed tool "${name}"`);
      logs.clear();
      const progress: Progress[] = [];
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

test('v2 over HTTP: input_required rounds are answered by its sampling, elicitation and roots handlers', async (t) => {
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

test('v2 over HTTP: lists and reads every resource and the template; an unknown URI is -32602', async () => {
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
  await assert.rejects(client.readResource({ uri }));
  const [read] = tap.log.exchangesOf('resources/read', { since: mark });
  assert.deepEqual(read?.response?.error, {
    code: -32602,
    message: `Resource not found: "${uri}"`,
    data: { uri },
  });
});

test('v2 over HTTP: lists every prompt and gets each; completion/complete returns values', async () => {
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
  for (const { params, values } of COMPLETION_CASES) {
    const { completion } = (await client.complete(params)) as CompleteResult;
    assert.deepEqual(completion.values, values, JSON.stringify(params));
  }
});

test('v2 over HTTP: subscriptions/listen brings tools list_changed after test_trigger_tool_change', async () => {
  const mark = tap.log.mark;
  const subscription = await client.listen({ toolsListChanged: true });
  try {
    assert.deepEqual(subscription.honoredFilter, { toolsListChanged: true });
    const listenId = tap.log.exchangesOf('subscriptions/listen', { since: mark })[0]?.request.id;
    assert.ok(listenId !== undefined);
    const before = toolListChanges.items.length;
    assert.deepEqual(
      await callTool('test_trigger_tool_change', {}),
      textResult('Tool list changed: added test_dynamic_tool.'),
    );
    await toolListChanges.waitForCount('notifications/tools/list_changed', before + 1);
    assert.ok((await client.listTools()).tools.some((tool) => tool.name === 'test_dynamic_tool'));
    assert.deepEqual(await callTool('test_dynamic_tool', {}), textResult('Dynamic tool called.'));
    await callTool('test_trigger_tool_change', {});
    await toolListChanges.waitForCount('a second notifications/tools/list_changed', before + 2);
    const tagged = tap.log.serverNotifications
      .filter((note) => metaOf(note)[SUBSCRIPTION_ID_KEY] === listenId)
      .map((note) => note.method);
    assert.deepEqual(tagged, [
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
    ]);
    assert.deepEqual(promptListChanges.items, []);
  } finally {
    await subscription.close();
  }
  assert.equal(await subscription.closed, 'local');
  assert.ok(
    wire.exchanges.every((entry) => entry.method === 'POST' && entry.sessionId === null),
    `listen is a POST stream, never a GET or a session:\n${wire.lines().join('\n')}`,
  );
});

test('v2 over HTTP: every message our server sent is valid in 2026-07-28', (t) => {
  for (const failure of tap.clientFailures) t.diagnostic(`official v2 client: ${failure}`);
  assert.ok(tap.checkedCount > 0, 'the wire tap saw the conversation');
  assert.deepEqual(tap.serverFailures, []);
  const unexpected = clientErrors.filter((error) => !KNOWN_PROGRESS_RACE.test(error.message));
  assert.deepEqual(
    unexpected.map((error) => error.message),
    [],
    'the official client reported no protocol error',
  );
});

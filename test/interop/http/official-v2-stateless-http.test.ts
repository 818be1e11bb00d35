// The official v2 SDK client (@modelcontextprotocol/client 2.4, StreamableHTTPClientTransport) with AUTOMATIC
// version negotiation drives our everything server over Streamable HTTP on a real socket: `server/discover`
// settles the stateless era (2026-07-28), no session and no GET stream; tools, input_required rounds answered by
// its sampling/elicitation/roots handlers, resources, prompts, completion, and `subscriptions/listen`.

import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import type { CompleteResult, GetPromptResult, ReadResourceResult } from 'mcpwire';
import { metaOf } from '../conversation-log.ts';
import {
  EVERYTHING_CAPABILITIES,
  COMPLETION_CASES,
  PROMPT_CASES,
  RESOURCE_CASES,
  TEMPLATE_CASE,
  textResult,
} from '../our-everything-expectations.ts';
import { StatelessV2Peer, SERVER_NAME } from '../official-v2-stateless-peer.ts';
import { STATELESS_REVISION } from '../sdk-stateless-wire-tap.ts';
import { HttpWireLog, startOurHttpServer, type OurHttpServer } from './http-hosts.ts';
import { KNOWN_PROGRESS_RACE, SUBSCRIPTION_ID_KEY } from '../stateless-expectations.ts';

const peer = new StatelessV2Peer('interop-official-v2-stateless-http');
const { client, tap, toolListChanges, promptListChanges, clientErrors, callTool } = peer;
const wire = new HttpWireLog();
let server: OurHttpServer;

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

test('v2 over HTTP, auto negotiation: server/discover settles on 2026-07-28; no initialize, no session', async () => {
  assert.equal(client.getProtocolEra(), 'modern');
  assert.equal(client.getNegotiatedProtocolVersion(), STATELESS_REVISION);
  assert.deepEqual(client.getDiscoverResult()?.supportedVersions, [STATELESS_REVISION]);
  assert.equal(client.getServerVersion()?.name, SERVER_NAME);
  assert.deepEqual(client.getServerCapabilities(), EVERYTHING_CAPABILITIES);
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
  await peer.tourTools(t);
});

test('v2 over HTTP: input_required rounds are answered by its sampling, elicitation and roots handlers', async (t) => {
  await peer.tourInputRounds(t);
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

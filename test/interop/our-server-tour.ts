// The tests an official SDK client runs against `mcpwire serve everything`, written once for v1 and v2:
// each test file wires its SDK's client into an `OfficialClient` and registers these tests with it.

import assert from 'node:assert/strict';
import { test as nodeTest, type TestContext } from 'node:test';

import type { Progress } from 'mcpwire/client';
import type {
  CallToolResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  Implementation,
  LoggingLevel,
  LoggingMessageNotificationParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Root,
  ServerCapabilities,
  Tool,
} from 'mcpwire';
import { Arrivals } from './arrivals.ts';
import {
  EVERYTHING_HANDSHAKE_CAPABILITIES,
  CLIENT_ROOTS,
  COMPLETION_CASES,
  onlyText,
  PROMPT_CASES,
  RESOURCE_CASES,
  SAMPLED_TEXT,
  TEMPLATE_CASE,
  textResult,
} from './our-everything-expectations.ts';
import { DEDICATED_TOOLS, TOOL_CASES } from './our-everything-tool-cases.ts';
import type { SdkWireTap } from './sdk-wire-tap.ts';
import type { StderrTail } from './stdio-peers.ts';
import { KNOWN_PROGRESS_RACE } from './stateless-expectations.ts';

/** What the official client's handlers saw; each test file feeds these from its SDK's handlers. */
export class Observations {
  readonly logs = new Arrivals<LoggingMessageNotificationParams>();
  readonly updatedUris = new Arrivals<string>();
  readonly toolListChanges = new Arrivals<true>();
  readonly promptListChanges = new Arrivals<true>();
  /** The text of the first message of each sampling request. */
  readonly samplingPrompts = new Arrivals<string>();
  /** What the SDK reported through `onerror`. */
  readonly clientErrors: Error[] = [];
  /** What the roots handler answers; tests may change it. */
  roots: Root[] = CLIENT_ROOTS;
}

/** Options of one tool call. */
export interface CallOptions {
  /** Receives each progress update (passing it makes the client send a progressToken). */
  progress?: Progress[];
  signal?: AbortSignal;
  /** Called on each progress update, after it is recorded. */
  onProgress?: () => void;
}

/** One official SDK client, connected to our everything server, seen through our spec types. */
export interface OfficialClient {
  readonly tap: SdkWireTap;
  readonly stderr: StderrTail;
  readonly observations: Observations;
  serverVersion(): Implementation | undefined;
  serverCapabilities(): ServerCapabilities | undefined;
  instructions(): string | undefined;
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  listTools(): Promise<Tool[]>;
  listResources(): Promise<Resource[]>;
  listResourceTemplates(): Promise<ResourceTemplate[]>;
  readResource(uri: string): Promise<ReadResourceResult>;
  listPrompts(): Promise<Prompt[]>;
  getPrompt(params: GetPromptRequestParams): Promise<GetPromptResult>;
  complete(params: CompleteRequestParams): Promise<CompleteResult>;
  setLoggingLevel(level: LoggingLevel): Promise<void>;
  subscribeResource(uri: string): Promise<void>;
  unsubscribeResource(uri: string): Promise<void>;
  sendRootsListChanged(): Promise<void>;
  ping(): Promise<void>;
}

/**
 * Registers, in order, the tests that drive our everything server through every listed tool, resource,
 * template, prompt and completion and every server->client round trip, ending with the check that every
 * message our server sent was valid in the negotiated revision. `peer` is read when the tests run.
 */
export function registerOurServerTour(label: string, peer: () => OfficialClient): void {
  const test = (name: string, run: (t: TestContext) => void | Promise<void>): void => {
    nodeTest(`${label}: ${name}`, run);
  };
  test('the handshake reports our server, its capabilities and instructions', () => {
    const client = peer();
    assert.equal(client.serverVersion()?.name, 'mcpwire-everything');
    // The v2 SDK parses capabilities without the handshake era's experimental `tasks` (it has no
    // tasks API), the v1 SDK keeps it: compare the rest, and `tasks` where the SDK kept it.
    const { tasks: declaredTasks, ...declared } = client.serverCapabilities() ?? {};
    const { tasks: expectedTasks, ...expected } = EVERYTHING_HANDSHAKE_CAPABILITIES;
    assert.deepEqual(declared, expected);
    if (declaredTasks !== undefined) assert.deepEqual(declaredTasks, expectedTasks);
    assert.match(client.instructions() ?? '', /every MCP feature/);
  });

  test('lists every tool and calls each with a meaningful result', (t) => tourTools(peer(), t));

  test('sampling, elicitation and roots requests carry what the tool was given', async () => {
    const client = peer();
    const { observations } = client;
    observations.samplingPrompts.clear();
    assert.deepEqual(
      await client.callTool('test_sampling', { prompt: 'Name a prime.' }),
      textResult(`LLM response: ${SAMPLED_TEXT}`),
    );
    assert.deepEqual(observations.samplingPrompts.items, ['Name a prime.']);
    // An elicitation the user declines: the server reports the decline and no content.
    assert.deepEqual(
      await client.callTool('test_elicitation', { message: 'A question nobody answers' }),
      textResult('User response: action=decline, content={}'),
    );
    observations.roots = [{ uri: 'file:///work/renamed-project', name: 'renamed' }];
    try {
      await client.sendRootsListChanged();
      const result = await client.callTool('test_list_roots', {});
      assert.deepEqual(result.structuredContent, { roots: observations.roots });
    } finally {
      observations.roots = CLIENT_ROOTS;
    }
  });

  test('lists and reads every resource; an unknown URI is error -32002 on the wire', async () => {
    const client = peer();
    const resources = await client.listResources();
    assert.deepEqual(resources.map((resource) => resource.uri).sort(), Object.keys(RESOURCE_CASES).sort());
    for (const resource of resources) {
      const check = RESOURCE_CASES[resource.uri];
      assert.ok(check, resource.uri);
      check(await client.readResource(resource.uri));
    }
    const uri = 'test://no-such-resource';
    await assert.rejects(client.readResource(uri), (error: Error & { data?: unknown }) => {
      // The v2 SDK surfaces -32002 as its ResourceNotFoundError (code -32602): compare the wire below.
      assert.deepEqual(error.data, { uri }, error.message);
      return true;
    });
    // RES-8: in the handshake era a read of an unknown URI is -32002 with data.uri.
    const sent = client.tap.serverErrors.filter((entry) => entry.method === 'resources/read');
    assert.deepEqual(sent, [
      {
        method: 'resources/read',
        error: { code: -32002, message: `Resource not found: "${uri}"`, data: { uri } },
      },
    ]);
  });

  test('lists the resource template and reads a URI it expands to', async () => {
    const client = peer();
    const templates = await client.listResourceTemplates();
    assert.deepEqual(
      templates.map((template) => template.uriTemplate),
      [TEMPLATE_CASE.uriTemplate],
    );
    TEMPLATE_CASE.check(await client.readResource(TEMPLATE_CASE.uri));
  });

  test('lists every prompt and gets each with its arguments substituted', async () => {
    const client = peer();
    const prompts = await client.listPrompts();
    assert.deepEqual(prompts.map((prompt) => prompt.name).sort(), Object.keys(PROMPT_CASES).sort());
    for (const prompt of prompts) {
      const promptCase = PROMPT_CASES[prompt.name];
      assert.ok(promptCase, prompt.name);
      const params =
        promptCase.arguments === undefined
          ? { name: prompt.name }
          : { name: prompt.name, arguments: promptCase.arguments };
      promptCase.check(await client.getPrompt(params));
    }
  });

  test('completion/complete returns values for prompt and template arguments', async () => {
    for (const { params, values } of COMPLETION_CASES) {
      const { completion } = await peer().complete(params);
      assert.deepEqual(completion.values, values, JSON.stringify(params));
    }
  });

  test('logging/setLevel filters the log notifications of a tool', async () => {
    const client = peer();
    const { logs } = client.observations;
    await client.setLoggingLevel('error');
    logs.clear();
    await client.callTool('test_tool_with_logging', {});
    await logs.waitFor('the error-level log', (log) => log.level === 'error');
    await client.ping();
    assert.deepEqual(
      logs.items.map((log) => log.level),
      ['error'],
    );
    await client.setLoggingLevel('debug');
    logs.clear();
    await client.callTool('test_tool_with_logging', {});
    const all = await logs.waitForCount('logs at level debug', 5);
    assert.deepEqual(
      all.map((log) => log.level),
      ['info', 'debug', 'info', 'error', 'info'],
    );
  });

  test('resources/subscribe brings notifications/resources/updated until unsubscribe', async () => {
    const client = peer();
    const { updatedUris } = client.observations;
    const uri = 'test://watched-resource';
    const text = `changed by the ${label}`;
    await client.subscribeResource(uri);
    updatedUris.clear();
    const result = await client.callTool('test_update_watched_resource', { content: text });
    assert.match(onlyText(result), /^Updated test:\/\/watched-resource to revision \d+\.$/);
    assert.equal(await updatedUris.waitFor('notifications/resources/updated'), uri);
    assert.deepEqual((await client.readResource(uri)).contents, [{ uri, mimeType: 'text/plain', text }]);

    await client.unsubscribeResource(uri);
    updatedUris.clear();
    await client.callTool('test_update_watched_resource', {});
    // Our server writes a notification before the result it belongs to, so one would be here by now.
    await client.ping();
    assert.deepEqual(updatedUris.items, []);
  });

  test('list_changed notifications follow test_trigger_tool_change and test_trigger_prompt_change', async () => {
    const client = peer();
    const { toolListChanges, promptListChanges } = client.observations;
    const toolsBefore = toolListChanges.items.length;
    assert.deepEqual(
      await client.callTool('test_trigger_tool_change', {}),
      textResult('Tool list changed: added test_dynamic_tool.'),
    );
    await toolListChanges.waitForCount('notifications/tools/list_changed', toolsBefore + 1);
    assert.ok((await client.listTools()).some((tool) => tool.name === 'test_dynamic_tool'));
    assert.deepEqual(await client.callTool('test_dynamic_tool', {}), textResult('Dynamic tool called.'));
    assert.deepEqual(
      await client.callTool('test_trigger_tool_change', {}),
      textResult('Tool list changed: removed test_dynamic_tool.'),
    );
    await toolListChanges.waitForCount('a second notifications/tools/list_changed', toolsBefore + 2);
    assert.ok(!(await client.listTools()).some((tool) => tool.name === 'test_dynamic_tool'));

    const promptsBefore = promptListChanges.items.length;
    assert.deepEqual(
      await client.callTool('test_trigger_prompt_change', {}),
      textResult('Prompt list changed: added test_dynamic_prompt.'),
    );
    await promptListChanges.waitForCount('notifications/prompts/list_changed', promptsBefore + 1);
    const prompt = await client.getPrompt({ name: 'test_dynamic_prompt' });
    assert.deepEqual(prompt.messages, [
      { role: 'user', content: { type: 'text', text: 'This prompt was added at runtime.' } },
    ]);
    assert.deepEqual(
      await client.callTool('test_trigger_prompt_change', {}),
      textResult('Prompt list changed: removed test_dynamic_prompt.'),
    );
    await promptListChanges.waitForCount('a second notifications/prompts/list_changed', promptsBefore + 2);
    assert.ok(!(await client.listPrompts()).some((entry) => entry.name === 'test_dynamic_prompt'));
  });

  test('aborting test_tool_slow at its first progress cancels it; the connection stays usable', async () => {
    const client = peer();
    const controller = new AbortController();
    const call = client.callTool(
      'test_tool_slow',
      { durationMs: 60_000 },
      { signal: controller.signal, onProgress: () => controller.abort(new Error('the user pressed stop')) },
    );
    const reason: unknown = await call.then(
      () => assert.fail('the cancelled call resolved'),
      (error: unknown) => error,
    );
    assert.match(String(reason), /the user pressed stop/);
    assert.deepEqual(await client.callTool('test_tool_fast', {}), textResult('Fast tool completed.'));
  });

  test('every message our server sent is valid in the negotiated revision', (t) => {
    const client = peer();
    for (const failure of client.tap.clientFailures) t.diagnostic(`official ${label}: ${failure}`);
    assert.ok(client.tap.checkedCount > 0, 'the wire tap saw the conversation');
    assert.ok(
      client.tap.protocolVersion,
      'the tap learned the revision, so every message was checked against it',
    );
    assert.deepEqual(client.tap.serverFailures, [], `server stderr:\n${client.stderr}`);
    const unexpected = client.observations.clientErrors.filter(
      (error) => !KNOWN_PROGRESS_RACE.test(error.message),
    );
    assert.deepEqual(
      unexpected.map((error) => error.message),
      [],
      'the official client reported no protocol error',
    );
  });
}

async function tourTools(client: OfficialClient, t: TestContext): Promise<void> {
  const tools = await client.listTools();
  const listed = tools.map((tool) => tool.name);
  const { logs } = client.observations;
  for (const name of listed) {
    if (DEDICATED_TOOLS.includes(name)) continue;
    await t.test(name, async () => {
      const toolCase = TOOL_CASES[name];
      assert.ok(toolCase, `no case in our-everything-tool-cases.ts for the listed tool "${name}"`);
      logs.clear();
      const progress: Progress[] = [];
      const result = await client.callTool(name, toolCase.arguments, { progress });
      await toolCase.check(result, { progress, logs });
    });
  }
  assert.deepEqual(
    Object.keys(TOOL_CASES).filter((name) => !listed.includes(name)),
    [],
    'every case names a listed tool',
  );
  assert.ok(
    tools.find((tool) => tool.name === 'get_weather')?.outputSchema,
    'outputSchema survives tools/list',
  );
}

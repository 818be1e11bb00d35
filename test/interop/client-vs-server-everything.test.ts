// Our Client, with its default options (era "auto": a `server/discover` probe, then the handshake), drives the
// official `@modelcontextprotocol/server-everything` over a real stdio child process: every tool it lists
// (answering its sampling, elicitation and roots requests), its resources, templates, prompts and completions.
// Every message our client sends is checked against the official schema of its revision.

import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';

import { Client, RpcError } from 'mcpwire/client';
import type { Progress } from 'mcpwire/client';
import type {
  CreateMessageRequestParams,
  ElicitRequestParams,
  LoggingMessageNotificationParams,
} from 'mcpwire';
import { tapChannel } from 'mcpwire';
import { StdioClientTransport, type StdioClientChannel } from 'mcpwire/stdio';
import { Arrivals } from './arrivals.ts';
import { ClientWireCheck } from './client-wire-check.ts';
import {
  answerElicitation,
  answerSampling,
  HOST_ROOTS,
  SERVER_EVERYTHING_TOOL_CASES,
} from './server-everything-tool-cases.ts';
import { CHILD_STARTUP_WAIT } from '../support/node-options.ts';
import { OFFICIAL_EVERYTHING_SERVER, StderrTail } from './stdio-peers.ts';

const stderr = new StderrTail();
const logs = new Arrivals<LoggingMessageNotificationParams>();
/** Every log of the connection, never cleared. */
const allLogs = new Arrivals<LoggingMessageNotificationParams>();
const updatedUris = new Arrivals<string>();
const resourceListChanges = new Arrivals<true>();
const samplingRequests: CreateMessageRequestParams[] = [];
const elicitationRequests: ElicitRequestParams[] = [];
const clientErrors: Error[] = [];

const client = new Client(
  { name: 'interop-mcpwire-client', version: '0.1.0' },
  {
    handlers: {
      sampling: (params) => {
        samplingRequests.push(params);
        return answerSampling();
      },
      elicitation: (params) => {
        elicitationRequests.push(params);
        return answerElicitation(params);
      },
      roots: () => HOST_ROOTS,
    },
    onError: (error) => clientErrors.push(error),
    ...CHILD_STARTUP_WAIT,
  },
);
client.on('log', (params) => {
  logs.push(params);
  allLogs.push(params);
});
client.on('resourceUpdated', (params) => updatedUris.push(params.uri));
client.on('resourcesListChanged', () => resourceListChanges.push(true));

const wire = new ClientWireCheck(() => client.protocolVersion);
let channel: StdioClientChannel | undefined;

before(async () => {
  const transport = new StdioClientTransport({
    ...OFFICIAL_EVERYTHING_SERVER,
    // Proves the variable reaches the child through our minimal environment (checked with get-env).
    env: { INTEROP_MARKER: 'set-by-the-interop-test' },
    stderr: stderr.write,
    // server-everything does not exit when its stdin closes; it ends at the SIGTERM that follows.
    shutdownTimeoutMs: 500,
  });
  channel = await transport.connect();
  await client.connect(tapChannel(channel, wire.observer));
});

after(async () => {
  await client.close();
  assert.ok(channel?.exitStatus, 'the server process has exited after close()');
});

test('our client: the era probe falls back to the handshake, which negotiates 2025-11-25', () => {
  // server-everything answers server/discover with -32601: a handshake-era server.
  assert.equal(client.era, 'handshake');
  assert.equal(client.protocolVersion, '2025-11-25');
  assert.equal(client.serverInfo?.name, 'mcp-servers/everything');
  const capabilities = client.serverCapabilities;
  assert.deepEqual(capabilities?.tools, { listChanged: true });
  assert.deepEqual(capabilities.resources, { subscribe: true, listChanged: true });
  assert.ok(capabilities.completions && capabilities.logging && capabilities.prompts);
  assert.match(client.instructions ?? '', /\S/);
});

test('our client: lists every server-everything tool and calls each with valid arguments', async (t: TestContext) => {
  await client.subscribeResource({ uri: 'demo://resource/dynamic/text/1' });
  const tools = await client.listAllTools();
  const listed = tools.map((tool) => tool.name);
  for (const name of listed) {
    await t.test(name, async () => {
      const toolCase = SERVER_EVERYTHING_TOOL_CASES[name];
      assert.ok(
        toolCase,
        `no case for the listed tool "${name}"; its inputSchema: ${JSON.stringify(tools.find((tool) => tool.name === name)?.inputSchema)}`,
      );
      const progress: Progress[] = [];
      const result = await client.callTool(
        { name, arguments: toolCase.arguments },
        { onProgress: (update) => progress.push(update) },
      );
      await toolCase.check(result, {
        client,
        progress,
        logs,
        updatedUris,
        resourceListChanges,
        samplingRequests,
        elicitationRequests,
      });
    });
  }
  await client.unsubscribeResource({ uri: 'demo://resource/dynamic/text/1' });
  assert.deepEqual(
    Object.keys(SERVER_EVERYTHING_TOOL_CASES).filter((name) => !listed.includes(name)),
    [],
    'every case names a listed tool (the conditional tools are listed because the client declared sampling, elicitation and roots)',
  );
});

test('our client: a task-augmented call returns the CreateTaskResult of server-everything', async () => {
  const result = (await client.callTool({
    name: 'simulate-research-query',
    arguments: { topic: 'interop' },
    task: { ttl: 60_000 },
  })) as unknown as {
    task: { taskId: string; status: string };
  };
  assert.equal(typeof result.task.taskId, 'string');
  assert.equal(result.task.status, 'working');
});

test('our client: the URL elicitation error path surfaces -32042 with its elicitations, and the retry succeeds', async () => {
  const args = { url: 'https://example.com/authorize', elicitationId: 'interop-error-path', errorPath: true };
  await assert.rejects(
    client.callTool({ name: 'trigger-url-elicitation', arguments: args }),
    (error: unknown) => {
      assert.ok(error instanceof RpcError);
      assert.equal(error.code, -32042);
      const data = error.data as { elicitations: Array<{ mode: string; url: string }> };
      assert.deepEqual(
        data.elicitations.map((elicitation) => [elicitation.mode, elicitation.url]),
        [['url', 'https://modelcontextprotocol.io']],
      );
      return true;
    },
  );
  const retried = await client.callTool({ name: 'trigger-url-elicitation', arguments: args });
  assert.match(
    String(retried.content[0]?.type === 'text' && retried.content[0].text),
    /^✅ User completed the URL elicitation flow\.\nElicitation ID: interop-error-path\n/,
  );
});

test('our client: lists and reads every resource, following pagination', async () => {
  const firstPage = await client.listResources();
  const resources = await client.listAllResources();
  // The walk starts with the first page and stops where the server stops giving a nextCursor
  // (server-everything 2026.8.31 sends everything in one page).
  assert.deepEqual(resources.slice(0, firstPage.resources.length), firstPage.resources);
  if (firstPage.nextCursor === undefined) assert.equal(resources.length, firstPage.resources.length);
  const documents = resources.filter((resource) =>
    resource.uri.startsWith('demo://resource/static/document/'),
  );
  assert.ok(
    documents.length >= 5,
    `expected the static documents, got ${JSON.stringify(resources.map((resource) => resource.uri))}`,
  );
  for (const resource of documents) {
    const [contents, ...rest] = (await client.readResource({ uri: resource.uri })).contents;
    assert.equal(rest.length, 0);
    assert.equal(contents?.uri, resource.uri);
    assert.equal(contents.mimeType, resource.mimeType);
    assert.ok('text' in contents && contents.text.length > 0, resource.uri);
  }
});

test('our client: lists both resource templates and reads a text and a blob instance', async () => {
  const templates = await client.listAllResourceTemplates();
  assert.deepEqual(
    templates.map((template) => template.uriTemplate),
    ['demo://resource/dynamic/text/{resourceId}', 'demo://resource/dynamic/blob/{resourceId}'],
  );
  const [text] = (await client.readResource({ uri: 'demo://resource/dynamic/text/5' })).contents;
  assert.ok(text && 'text' in text);
  assert.match(text.text, /^Resource 5: This is a plaintext resource created at /);
  const [blob] = (await client.readResource({ uri: 'demo://resource/dynamic/blob/6' })).contents;
  assert.ok(blob && 'blob' in blob);
  assert.match(
    Buffer.from(blob.blob, 'base64').toString('utf8'),
    /^Resource 6: This is a base64 blob created at /,
  );
  await assert.rejects(client.readResource({ uri: 'demo://resource/dynamic/text/not-a-number' }), RpcError);
});

test('our client: lists every prompt and gets each with its arguments substituted', async () => {
  const prompts = await client.listAllPrompts();
  assert.deepEqual(
    prompts.map((prompt) => prompt.name),
    ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt'],
  );
  const simple = await client.getPrompt({ name: 'simple-prompt' });
  assert.deepEqual(simple.messages, [
    { role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } },
  ]);
  const args = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Oslo', state: 'Viken' } });
  assert.deepEqual(args.messages, [
    { role: 'user', content: { type: 'text', text: "What's weather in Oslo, Viken?" } },
  ]);
  const completable = await client.getPrompt({
    name: 'completable-prompt',
    arguments: { department: 'Engineering', name: 'Bob' },
  });
  assert.deepEqual(completable.messages, [
    {
      role: 'user',
      content: { type: 'text', text: 'Please promote Bob to the head of the Engineering team.' },
    },
  ]);
  const resource = await client.getPrompt({
    name: 'resource-prompt',
    arguments: { resourceType: 'Text', resourceId: '2' },
  });
  const [intro, embedded] = resource.messages;
  assert.deepEqual(intro?.content, {
    type: 'text',
    text: 'This prompt includes the Text resource with id: 2. Please analyze the following resource:',
  });
  assert.equal(embedded?.content.type, 'resource');
  assert.equal(embedded.content.resource.uri, 'demo://resource/dynamic/text/2');
});

test('our client: completion/complete for prompt arguments (with context) and template variables', async () => {
  const cases: Array<[Parameters<Client['complete']>[0], string[]]> = [
    [
      {
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'department', value: 'S' },
      },
      ['Sales', 'Support'],
    ],
    [
      {
        ref: { type: 'ref/prompt', name: 'completable-prompt' },
        argument: { name: 'name', value: '' },
        context: { arguments: { department: 'Sales' } },
      },
      ['David', 'Eve', 'Frank'],
    ],
    [
      {
        ref: { type: 'ref/prompt', name: 'resource-prompt' },
        argument: { name: 'resourceType', value: 'B' },
      },
      ['Blob'],
    ],
    [
      {
        ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
        argument: { name: 'resourceId', value: '7' },
      },
      ['7'],
    ],
  ];
  for (const [params, values] of cases) {
    assert.deepEqual((await client.complete(params)).completion.values, values, JSON.stringify(params));
  }
});

test('our client: logging/setLevel is accepted and the server still logs at or above it', async () => {
  await client.setLoggingLevel({ level: 'info' });
  logs.clear();
  await client.subscribeResource({ uri: 'demo://resource/dynamic/text/9' });
  const log = await logs.waitFor('the log of resources/subscribe', (entry) =>
    String(entry.data).startsWith('Received Subscribe Resource request'),
  );
  assert.equal(log.level, 'info');
  await client.unsubscribeResource({ uri: 'demo://resource/dynamic/text/9' });
});

test('our client: server-everything asked for roots and received ours', async () => {
  // server-everything requests roots/list 350 ms after initialization and logs what it got.
  const log = await allLogs.waitFor('the roots log of server-everything', (entry) =>
    String(entry.data).startsWith('Roots updated'),
  );
  assert.equal(log.data, 'Roots updated: 1 root(s) received from client');
});

test('our client: every message our client sent is valid in the negotiated revision', (t) => {
  for (const failure of wire.serverFailures) t.diagnostic(`server-everything: ${failure}`);
  assert.ok(wire.checkedCount > 0, 'the wire tap saw the conversation');
  assert.deepEqual(wire.clientFailures, [], `server stderr:\n${stderr}`);
  assert.deepEqual(
    clientErrors.map((error) => error.message),
    [],
    'our client reported no local error',
  );
});

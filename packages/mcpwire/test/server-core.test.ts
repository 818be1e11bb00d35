// ServerCore (issue 14, "a small core"): a server of tools without sessions, the resources, prompts
// and completions features or a default JSON Schema validator, served by createSessionlessHandler. It
// serves its tools in both eras, declares only what it has (so resources/list is refused like any
// undeclared feature, LIFE-11), refuses a JSON Schema tool it has no validator for at registration,
// and checks one with a validator it is given.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '../src/client/client.ts';
import type { JsonObject } from '../src/jsonrpc/message.ts';
import { createSessionlessHandler, StreamableHttpClientTransport } from '../src/transports/http/index.ts';
import { createCfWorkerValidator } from '../src/validation/cfworker-validator.ts';
import { ENDPOINT, statelessPost } from './support/http-kit.ts';
import type { StandardSchemaV1 } from '../src/validation/index.ts';
import type { ServerExtension } from '../src/server/extension.ts';
import { ServerCore } from '../src/server/server-core.ts';
import { Server } from '../src/server/server.ts';

const TEXT_SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

/** A Standard Schema written by hand: no schema library, no JSON Schema validator. */
const textInput: StandardSchemaV1<{ text: string }> = {
  '~standard': {
    version: 1,
    vendor: 'test',
    validate: (value) =>
      typeof (value as { text?: unknown } | null)?.text === 'string'
        ? { value: value as { text: string } }
        : { issues: [{ message: 'must be string', path: ['text'] }] },
    jsonSchema: { input: () => TEXT_SCHEMA, output: () => TEXT_SCHEMA },
  },
};

/** Our client in the handshake era against `server` behind createSessionlessHandler, in-process. */
async function handshakeClient(server: ServerCore): Promise<Client> {
  const handler = createSessionlessHandler(server);
  const fetch = (input: string | URL | Request, init?: RequestInit) => handler(new Request(input, init));
  const client = new Client({ name: 'c', version: '1' }, { era: 'handshake', eraCache: false });
  await client.connect(new StreamableHttpClientTransport(ENDPOINT, { fetch }));
  return client;
}

function echoCore(): ServerCore {
  const server = new ServerCore({ name: 'core', version: '1' });
  server.tool({ name: 'echo', inputSchema: textInput }, ({ text }) => `echo: ${text}`);
  server.tool({ name: 'bare' }, (args) => `bare: ${JSON.stringify(args)}`);
  return server;
}

test('a ServerCore serves its tools to a handshake-era client without a session, declaring tools and logging alone', async () => {
  const server = echoCore();
  assert.equal('connect' in server, false);
  const client = await handshakeClient(server);
  assert.deepEqual(Object.keys(client.serverCapabilities ?? {}).sort(), ['logging', 'tools']);
  assert.deepEqual(
    (await client.listTools()).tools.map((tool) => [tool.name, tool.inputSchema]),
    [
      ['echo', TEXT_SCHEMA],
      ['bare', { type: 'object' }],
    ],
  );
  assert.deepEqual((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content, [
    { type: 'text', text: 'echo: hi' },
  ]);
  const invalid = await client.callTool({ name: 'echo', arguments: { text: 1 } });
  assert.equal(invalid.isError, true);
  assert.match(JSON.stringify(invalid.content), /Invalid arguments for tool \\"echo\\": .*must be string/);
  // No inputSchema is {type: "object"}: any object passes, as it does on Server.
  assert.deepEqual((await client.callTool({ name: 'bare', arguments: { a: 1 } })).content, [
    { type: 'text', text: 'bare: {"a":1}' },
  ]);
  // LIFE-11: resources were not declared, so the client is refused before the server is asked.
  await assert.rejects(client.listResources(), /resources/);
  await client.close();
  await server.close();
});

test('a ServerCore answers the stateless era through the web handler; features it lacks are -32601', async () => {
  const handler = createSessionlessHandler(echoCore());
  const post = async (method: string, params: JsonObject): Promise<JsonObject> =>
    (await (await handler(statelessPost(method, params))).json()) as JsonObject;
  const discovered = (await post('server/discover', {})).result as JsonObject;
  assert.equal((discovered.capabilities as JsonObject).resources, undefined);
  const called = (await post('tools/call', { name: 'echo', arguments: { text: 'x' } })).result as JsonObject;
  assert.deepEqual(called.content, [{ type: 'text', text: 'echo: x' }]);
  const refused = (await post('resources/list', {})).error as JsonObject;
  assert.equal(refused.code, -32601);
});

test('a ServerCore refuses a JSON Schema tool without a validator, naming the fix, and checks one with it', async () => {
  const bare = new ServerCore({ name: 'core', version: '1' });
  assert.throws(
    () => bare.tool({ name: 'echo', inputSchema: TEXT_SCHEMA }, () => 'never'),
    (error: unknown) =>
      error instanceof TypeError &&
      /Tool "echo": its inputSchema is JSON Schema/.test(error.message) &&
      /createCfWorkerValidator\(\)/.test(error.message),
  );
  assert.throws(
    () => bare.tool({ name: 'out', outputSchema: TEXT_SCHEMA }, () => 'never'),
    /its outputSchema is JSON Schema/,
  );
  const checked = new ServerCore({ name: 'core', version: '1' }, { validator: createCfWorkerValidator() });
  checked.tool({ name: 'echo', inputSchema: TEXT_SCHEMA }, ({ text }) => `echo: ${String(text)}`);
  const client = await handshakeClient(checked);
  const invalid = await client.callTool({ name: 'echo', arguments: {} });
  assert.equal(invalid.isError, true);
  assert.match(JSON.stringify(invalid.content), /text/);
  await client.close();
  await checked.close();
});

test('an extension that registers resources needs Server: on a ServerCore it fails at construction, saying so', () => {
  const withFiles: ServerExtension = {
    id: 'example.com/files',
    methods: {},
    server: {
      handlers: {},
      settings: () => ({}),
      attach: (host) => host.resource({ name: 'readme', uri: 'file:///README' }, () => ({ contents: [] })),
    },
  };
  assert.throws(
    () => new ServerCore({ name: 'core', version: '1' }, { extensions: [withFiles] }),
    /registers the resource "readme": build the server with Server from mcpwire\/server/,
  );
  const server = new Server({ name: 'full', version: '1' }, { extensions: [withFiles] });
  assert.equal(server.resources.isEmpty, false);
});

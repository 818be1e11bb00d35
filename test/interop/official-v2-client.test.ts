// The official v2 SDK client (@modelcontextprotocol/client 2.x), pinned to the handshake revision 2025-06-18,
// drives `mcpwire serve everything` over a real stdio child process through the same tour as the v1 client.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import type { Progress } from 'mcpwire/client';
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Implementation,
  LoggingMessageNotificationParams,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from 'mcpwire';
import { answerElicitation, answerSampling, firstText } from './our-everything-expectations.ts';
import { Observations, registerOurServerTour, type OfficialClient } from './our-server-tour.ts';
import { SdkWireTap } from './sdk-wire-tap.ts';
import { OUR_EVERYTHING_SERVER, StderrTail } from './stdio-peers.ts';

/** A handshake-era revision other than the v1 client's, so the two official clients cover two revisions. */
const PINNED_VERSION = '2025-06-18';

const observations = new Observations();
const tap = new SdkWireTap();
const stderr = new StderrTail();

// `versionNegotiation.mode: 'legacy'` (the default, spelled out) runs only the 2025 `initialize` handshake,
// never the 2026-07-28 `server/discover` probe; `supportedProtocolVersions` makes it offer, and accept,
// exactly the pinned revision.
const client = new Client(
  { name: 'interop-official-v2', version: '2.0.0' },
  {
    versionNegotiation: { mode: 'legacy' },
    supportedProtocolVersions: [PINNED_VERSION],
    capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } },
  },
);
client.setRequestHandler('sampling/createMessage', (request) => {
  observations.samplingPrompts.push(firstText(request.params.messages[0]?.content));
  return answerSampling();
});
client.setRequestHandler('elicitation/create', (request) => answerElicitation(request.params));
client.setRequestHandler('roots/list', () => ({ roots: observations.roots }));
client.setNotificationHandler('notifications/message', (notification) =>
  observations.logs.push(notification.params as LoggingMessageNotificationParams),
);
client.setNotificationHandler('notifications/resources/updated', (notification) =>
  observations.updatedUris.push(notification.params.uri),
);
client.setNotificationHandler('notifications/tools/list_changed', () =>
  observations.toolListChanges.push(true),
);
client.setNotificationHandler('notifications/prompts/list_changed', () =>
  observations.promptListChanges.push(true),
);
client.onerror = (error) => observations.clientErrors.push(error);

before(async () => {
  const transport = tap.attach(new StdioClientTransport({ ...OUR_EVERYTHING_SERVER, stderr: 'pipe' }));
  transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk.toString('utf8')));
  await client.connect(transport);
});

after(async () => {
  await client.close();
});

// The SDK types the same wire shapes with `?: T | undefined`; under exactOptionalPropertyTypes each result
// is cast once, here, to our declaration of the shape. The tests then check the values themselves.
const peer: OfficialClient = {
  tap,
  stderr,
  observations,
  serverVersion: () => client.getServerVersion() as Implementation | undefined,
  serverCapabilities: () => client.getServerCapabilities() as ServerCapabilities | undefined,
  instructions: () => client.getInstructions(),
  async callTool(name, args, options = {}) {
    const result = await client.callTool(
      { name, arguments: args },
      {
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        onprogress: (update) => {
          options.progress?.push(update as Progress);
          options.onProgress?.();
        },
      },
    );
    return result as CallToolResult;
  },
  listTools: async () => (await client.listTools()).tools as Tool[],
  listResources: async () => (await client.listResources()).resources as Resource[],
  listResourceTemplates: async () =>
    (await client.listResourceTemplates()).resourceTemplates as ResourceTemplate[],
  readResource: async (uri) => (await client.readResource({ uri })) as ReadResourceResult,
  listPrompts: async () => (await client.listPrompts()).prompts as Prompt[],
  getPrompt: async (params) => (await client.getPrompt(params)) as GetPromptResult,
  complete: async (params) => (await client.complete(params)) as CompleteResult,
  setLoggingLevel: async (level) => void (await client.setLoggingLevel(level)),
  subscribeResource: async (uri) => void (await client.subscribeResource({ uri })),
  unsubscribeResource: async (uri) => void (await client.unsubscribeResource({ uri })),
  sendRootsListChanged: () => client.sendRootsListChanged(),
  ping: async () => void (await client.ping()),
};

test(`v2 client: pinned to ${PINNED_VERSION}, the handshake negotiates it in the legacy era`, () => {
  assert.equal(client.getNegotiatedProtocolVersion(), PINNED_VERSION);
  assert.equal(client.getProtocolEra(), 'legacy');
  assert.equal(tap.protocolVersion, PINNED_VERSION);
  // No 2026-07-28 discovery happened on this connection.
  assert.equal(client.getDiscoverResult(), undefined);
});

registerOurServerTour('v2 client', () => peer);

// The official v1 SDK client (@modelcontextprotocol/sdk 1.x) drives `mcpwire serve everything` over a real
// stdio child process: every tool, resource, template, prompt and completion, and each server->client round trip.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

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

const observations = new Observations();
const tap = new SdkWireTap();
const stderr = new StderrTail();

// v1 1.32 always requests its latest revision; there is no option to pin another.
const client = new Client(
  { name: 'interop-official-v1', version: '1.0.0' },
  { capabilities: { sampling: {}, elicitation: { form: {} }, roots: { listChanged: true } } },
);
client.setRequestHandler(CreateMessageRequestSchema, (request) => {
  const [first] = request.params.messages;
  observations.samplingPrompts.push(firstText(first?.content));
  return answerSampling();
});
client.setRequestHandler(ElicitRequestSchema, (request) => answerElicitation(request.params));
client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: observations.roots }));
client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
  observations.logs.push(notification.params as LoggingMessageNotificationParams),
);
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
  observations.updatedUris.push(notification.params.uri),
);
client.setNotificationHandler(ToolListChangedNotificationSchema, () =>
  observations.toolListChanges.push(true),
);
client.setNotificationHandler(PromptListChangedNotificationSchema, () =>
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
    const result = await client.callTool({ name, arguments: args }, undefined, {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onprogress: (update) => {
        options.progress?.push(update as Progress);
        options.onProgress?.();
      },
    });
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

test('v1 client: the handshake negotiates 2025-11-25, the latest revision both sides speak', () => {
  assert.equal(tap.protocolVersion, '2025-11-25');
});

registerOurServerTour('v1 client', () => peer);

// The official v1 and v2 SDK clients wired as the `OfficialClient` of our-server-tour.ts, for any of their
// transports (here: Streamable HTTP and HTTP+SSE). The handlers and casts are those of the stdio tests.

import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport as V1Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  PromptListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { Client as V2Client, type Transport as V2Transport } from '@modelcontextprotocol/client';

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
import { answerElicitation, answerSampling, firstText } from '../our-everything-expectations.ts';
import { Observations, type OfficialClient } from '../our-server-tour.ts';
import { SdkWireTap } from '../sdk-wire-tap.ts';
import { StderrTail } from '../stdio-peers.ts';

/** An official client, its tour view, and how to connect and close it. */
export interface OfficialPeer<C, T> {
  readonly client: C;
  readonly peer: OfficialClient;
  /** Taps `transport` and connects over it. */
  readonly connect: (transport: T) => Promise<void>;
}

/** The official v1 client (1.32: always offers 2025-11-25), with the tour's handlers. */
export function createV1Peer(name: string): OfficialPeer<V1Client, V1Transport> {
  const observations = new Observations();
  const tap = new SdkWireTap();
  const client = new V1Client(
    { name, version: '1.0.0' },
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

  const peer: OfficialClient = {
    tap,
    stderr: new StderrTail(),
    observations,
    serverVersion: () => client.getServerVersion() as Implementation | undefined,
    serverCapabilities: () => client.getServerCapabilities() as ServerCapabilities | undefined,
    instructions: () => client.getInstructions(),
    async callTool(toolName, args, options = {}) {
      const result = await client.callTool({ name: toolName, arguments: args }, undefined, {
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
  return { client, peer, connect: (transport) => client.connect(tap.attach(transport)) };
}

/** The official v2 client pinned to the handshake era at `version` (no `server/discover`), with the tour's handlers. */
export function createV2HandshakePeer(name: string, version: string): OfficialPeer<V2Client, V2Transport> {
  const observations = new Observations();
  const tap = new SdkWireTap();
  const client = new V2Client(
    { name, version: '2.0.0' },
    {
      versionNegotiation: { mode: 'legacy' },
      supportedProtocolVersions: [version],
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

  const peer: OfficialClient = {
    tap,
    stderr: new StderrTail(),
    observations,
    serverVersion: () => client.getServerVersion() as Implementation | undefined,
    serverCapabilities: () => client.getServerCapabilities() as ServerCapabilities | undefined,
    instructions: () => client.getInstructions(),
    async callTool(toolName, args, options = {}) {
      const result = await client.callTool(
        { name: toolName, arguments: args },
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
  return { client, peer, connect: (transport) => client.connect(tap.attach(transport)) };
}

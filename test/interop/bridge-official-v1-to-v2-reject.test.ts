// Interop (issue 25): the official v1 client (handshake era only) over stdio through `mcpwire bridge
// <url>` (a real child process) to the official v2 server made with `createMcpHandler` and
// `legacy: 'reject'` (2026-07-28 only) on a real socket of 127.0.0.1: tools, resources, prompts, and an
// elicitation the v2 server asks for with `input_required`, which the v1 client answers as a request.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { serve, type ServerType } from '@hono/node-server';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  acceptedContent,
  createMcpHandler,
  inputRequired,
  McpServer,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

import { ourCliCommand } from '../support/node-options.ts';

const V2_SERVER = 'official-v2-stateless-only';

/** The v2 server: a tool, a tool that asks the user (input_required), a resource, a prompt. */
function createV2Server(): McpServer {
  const server = new McpServer({ name: V2_SERVER, version: '2.4.0' }, { capabilities: { logging: {} } });
  server.registerTool(
    'greet',
    { description: 'Greets someone by name.', inputSchema: z.object({ name: z.string() }) },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );
  const answer = z.object({ colour: z.string() });
  server.registerTool('favourite_colour', { description: 'Asks the user for a colour.' }, async (ctx) => {
    const given = acceptedContent(ctx.mcpReq.inputResponses, 'colour', answer);
    if (given === undefined)
      return inputRequired({
        inputRequests: {
          colour: inputRequired.elicit({ message: 'Your favourite colour?', requestedSchema: answer }),
        },
      });
    return { content: [{ type: 'text', text: `You like ${given.colour}.` }] };
  });
  server.registerResource(
    'readme',
    'fixture://readme',
    { description: 'A static text resource.', mimeType: 'text/plain' },
    async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Read me through the bridge.' }],
    }),
  );
  server.registerPrompt(
    'summarize',
    { description: 'Asks for a summary of a topic.', argsSchema: z.object({ topic: z.string() }) },
    ({ topic }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic}.` } }] }),
  );
  return server;
}

async function listen(fetch: (request: Request) => Promise<Response>) {
  const server: ServerType = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  if (!server.listening) await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      server.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await once(server, 'close');
    },
  };
}

describe('official v1 client -> mcpwire bridge <url> -> official v2 server (2026-07-28 only)', () => {
  let handler: McpHttpHandler;
  let remote: { url: string; close(): Promise<void> };

  before(async () => {
    handler = createMcpHandler(() => createV2Server(), { legacy: 'reject' });
    remote = await listen((request) => handler.fetch(request));
  });

  after(async () => {
    await handler.close();
    await remote.close();
  });

  test('the v2 server refuses the handshake era on its own', async () => {
    const response = await fetch(remote.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'probe', version: '1' },
        },
      }),
    });
    await response.body?.cancel();
    assert.ok(response.status >= 400, `initialize answered ${response.status}`);
  });

  test('tools, resources, prompts and an elicitation through the bridge', { timeout: 90_000 }, async () => {
    const client = new V1Client(
      { name: 'official-v1-host', version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { colour: 'teal' } };
    });
    const { command, args, cwd, env } = ourCliCommand('bridge', remote.url);
    const transport = new V1StdioClientTransport({ command, args, cwd, env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.name, V2_SERVER, stderr);
      const tools = await client.listTools();
      assert.deepEqual(tools.tools.map((tool) => tool.name).sort(), ['favourite_colour', 'greet']);
      const greeting = await client.callTool({ name: 'greet', arguments: { name: 'Grace' } });
      assert.deepEqual(greeting.content, [{ type: 'text', text: 'Hello, Grace!' }]);

      const resources = await client.listResources();
      assert.deepEqual(
        resources.resources.map((resource) => resource.uri),
        ['fixture://readme'],
      );
      const read = await client.readResource({ uri: 'fixture://readme' });
      assert.deepEqual(read.contents, [
        { uri: 'fixture://readme', mimeType: 'text/plain', text: 'Read me through the bridge.' },
      ]);

      const prompt = await client.getPrompt({ name: 'summarize', arguments: { topic: 'MCP' } });
      assert.deepEqual(prompt.messages, [
        { role: 'user', content: { type: 'text', text: 'Summarize MCP.' } },
      ]);

      const colour = await client.callTool({ name: 'favourite_colour', arguments: {} });
      assert.deepEqual(asked, ['Your favourite colour?']);
      assert.deepEqual(colour.content, [{ type: 'text', text: 'You like teal.' }]);
    } finally {
      await client.close();
    }
  });
});

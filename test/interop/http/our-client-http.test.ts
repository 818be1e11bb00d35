// Our Client (with its default era "auto") over our HTTP client transports and real sockets on 127.0.0.1:
// against the official v2 server (@modelcontextprotocol/server 2.4) behind @hono/node-server, dual-era
// (`createMcpHandler`: the stateless era) and handshake-only with one sessionful transport per Mcp-Session-Id;
// and against `@modelcontextprotocol/server-everything` as a child process in its `streamableHttp` and `sse`
// modes. Every message our client sends is checked against the official schema of its revision.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it, type TestContext } from 'node:test';

import { serve, type ServerType } from '@hono/node-server';
import {
  completable,
  createMcpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

import { Client, type Transport } from 'mcpwire/client';
import { tapChannel, type ChannelObserver } from 'mcpwire';
import { SseClientTransport, StreamableHttpClientTransport } from 'mcpwire/http';
import { Arrivals } from '../arrivals.ts';
import { ClientWireCheck } from '../client-wire-check.ts';
import { ConversationLog } from '../conversation-log.ts';
import { toPlainResult } from '../stateless-results.ts';
import { textResult } from '../our-everything-expectations.ts';
import { answerElicitation, answerSampling, HOST_ROOTS } from '../server-everything-tool-cases.ts';
import { HttpWireLog, startServerEverything, type ServerEverythingProcess } from './http-hosts.ts';

const INFO = { name: 'interop-mcpwire-http', version: '0.1.0' };
const V2_SERVER = 'official-v2-http';

/** A small official v2 server: a tool, a tool that changes the tool list, a resource, a completable prompt. */
function createOfficialServer(): McpServer {
  const server = new McpServer(
    { name: V2_SERVER, version: '2.4.0' },
    {
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {}, completions: {} },
      instructions: 'HTTP fixture of the mcpwire interop tests.',
    },
  );
  server.registerTool(
    'greet',
    { description: 'Greets someone by name.', inputSchema: z.object({ name: z.string() }) },
    async ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
  );
  let extra: { remove(): void } | undefined;
  server.registerTool('toggle_extra_tool', { description: 'Adds or removes the tool `extra`.' }, async () => {
    if (extra !== undefined) {
      extra.remove();
      extra = undefined;
      return { content: [{ type: 'text', text: 'Removed extra.' }] };
    }
    extra = server.registerTool('extra', { description: 'Added at runtime.' }, async () => ({
      content: [{ type: 'text', text: 'Extra tool called.' }],
    }));
    return { content: [{ type: 'text', text: 'Added extra.' }] };
  });
  server.registerResource(
    'readme',
    'fixture://readme',
    { description: 'A static text resource.', mimeType: 'text/plain' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Read me over HTTP.' }] }),
  );
  server.registerPrompt(
    'summarize',
    {
      description: 'Asks for a summary of a topic in a style.',
      argsSchema: z.object({
        topic: z.string(),
        style: completable(z.string(), (value) =>
          ['brief', 'bullet points', 'detailed'].filter((style) => style.startsWith(value)),
        ),
      }),
    },
    ({ topic, style }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Summarize ${topic} (${style}).` } }],
    }),
  );
  return server;
}

/** Handshake era only: one sessionful official transport per Mcp-Session-Id, as the SDK's examples wire it. */
function createSessionfulHandler(): (request: Request) => Promise<Response> {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return async (request) => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      return transport
        ? transport.handleRequest(request)
        : new Response('Session not found', { status: 404 });
    }
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await createOfficialServer().connect(transport);
    return transport.handleRequest(request);
  };
}

/** Serves `fetch` with @hono/node-server on 127.0.0.1 and a free port. */
async function listen(
  fetch: (request: Request) => Promise<Response>,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: ServerType = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  if (!server.listening) await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    close: async () => {
      server.close();
      // Keep-alive sockets of the client's connection pool would hold the server open.
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await once(server, 'close');
    },
  };
}

/** Our Client over one HTTP transport, with what it saw on the wire. */
class Peer {
  readonly wire = new HttpWireLog();
  readonly log = new ConversationLog();
  readonly toolListChanges = new Arrivals<true>();
  readonly errors: Error[] = [];
  readonly client: Client;
  readonly check: ClientWireCheck;

  constructor() {
    this.client = new Client(INFO, {
      handlers: {
        sampling: () => answerSampling(),
        elicitation: (params) => answerElicitation(params),
        roots: () => HOST_ROOTS,
      },
      // Each test starts fresh servers; a verdict remembered from another connection would skip the probe.
      eraCache: false,
      onError: (error) => this.errors.push(error),
    });
    this.client.on('toolsListChanged', () => this.toolListChanges.push(true));
    this.check = new ClientWireCheck(() => this.client.protocolVersion);
  }

  /** Connects through `make(fetch)`, tapping the channel for the schema check and the conversation log. */
  connect(make: (fetch: HttpWireLog['fetch']) => Transport): Promise<void> {
    const transport = make(this.wire.fetch);
    const observers: ChannelObserver[] = [this.check.observer, this.log.observer];
    const observer: ChannelObserver = {
      onSend: (message) => observers.forEach((each) => each.onSend?.(message)),
      onReceive: (frame) => observers.forEach((each) => each.onReceive?.(frame)),
    };
    return this.client.connect({ connect: async () => tapChannel(await transport.connect(), observer) });
  }

  /** Our client's messages valid in their revision, no local error. */
  assertCleanWire(t: TestContext, label: string): void {
    for (const failure of this.check.serverFailures) t.diagnostic(`${label}: ${failure}`);
    assert.ok(this.check.checkedCount > 0, 'the wire tap saw the conversation');
    assert.deepEqual(this.check.clientFailures, []);
    assert.deepEqual(
      this.errors.map((error) => error.message),
      [],
      'our client reported no local error',
    );
  }
}

describe('our Client over HTTP', { concurrency: true }, () => {
  describe('against the official v2 server, dual-era (createMcpHandler)', { concurrency: false }, () => {
    const peer = new Peer();
    const { client, wire } = peer;
    let handler: McpHttpHandler;
    let host: { url: string; close(): Promise<void> };
    before(async () => {
      handler = createMcpHandler(() => createOfficialServer());
      host = await listen((request) => handler.fetch(request));
      await peer.connect((fetch) => new StreamableHttpClientTransport(host.url, { fetch }));
    });
    after(async () => {
      await client.close();
      await handler.close();
      await host.close();
    });

    it('the probe settles on the stateless era (2026-07-28): no initialize, no session', () => {
      assert.equal(client.era, 'stateless');
      assert.equal(client.protocolVersion, '2026-07-28');
      assert.deepEqual(client.serverInfo, { name: V2_SERVER, version: '2.4.0' });
      assert.equal(client.instructions, 'HTTP fixture of the mcpwire interop tests.');
      assert.deepEqual(peer.log.clientMethods.slice(0, 1), ['server/discover']);
      assert.ok(!peer.log.clientMethods.includes('initialize'), peer.log.clientMethods.join(', '));
    });

    it('lists and calls tools, reads the resource, gets the prompt, completes an argument', async (t) => {
      assert.deepEqual(
        (await client.listAllTools()).map((tool) => tool.name),
        ['greet', 'toggle_extra_tool'],
      );
      const greeting = await client.callTool({ name: 'greet', arguments: { name: 'Grace' } });
      assert.deepEqual(toPlainResult(greeting, V2_SERVER), textResult('Hello, Grace!'));
      assert.deepEqual(
        (await client.listAllResources()).map((resource) => resource.uri),
        ['fixture://readme'],
      );
      const read = await client.readResource({ uri: 'fixture://readme' });
      assert.deepEqual(read.contents, [
        { uri: 'fixture://readme', mimeType: 'text/plain', text: 'Read me over HTTP.' },
      ]);
      assert.deepEqual(
        (await client.listAllPrompts()).map((prompt) => prompt.name),
        ['summarize'],
      );
      const prompt = await client.getPrompt({
        name: 'summarize',
        arguments: { topic: 'MCP', style: 'brief' },
      });
      assert.deepEqual(prompt.messages, [
        { role: 'user', content: { type: 'text', text: 'Summarize MCP (brief).' } },
      ]);
      const { completion } = await client.complete({
        ref: { type: 'ref/prompt', name: 'summarize' },
        argument: { name: 'style', value: 'b' },
      });
      assert.deepEqual(completion.values, ['brief', 'bullet points']);
      assert.ok(
        wire.exchanges.every((entry) => entry.method === 'POST' && entry.sessionId === null),
        wire.lines().join('\n'),
      );
      peer.assertCleanWire(t, 'official v2 server (stateless)');
    });
  });

  describe('against the official v2 server, handshake era only (sessionful)', { concurrency: false }, () => {
    const peer = new Peer();
    const { client, wire } = peer;
    let host: { url: string; close(): Promise<void> };
    before(async () => {
      host = await listen(createSessionfulHandler());
      await peer.connect((fetch) => new StreamableHttpClientTransport(host.url, { fetch }));
    });
    after(async () => {
      await client.close();
      await host.close();
    });

    it('the probe falls back to initialize: era handshake at 2025-11-25, in a session', () => {
      assert.equal(client.era, 'handshake');
      assert.equal(client.protocolVersion, '2025-11-25');
      assert.equal(client.serverInfo?.name, V2_SERVER);
      assert.deepEqual(peer.log.clientMethods.slice(0, 3), [
        'server/discover',
        'initialize',
        'notifications/initialized',
      ]);
      const sessionId = wire.exchanges.find((entry) => entry.assignedSessionId !== null)?.assignedSessionId;
      assert.ok(sessionId, wire.lines().join('\n'));
      const after = wire.exchanges.slice(
        wire.exchanges.findIndex((entry) => entry.rpc.includes('initialize')) + 1,
      );
      assert.ok(
        after.every((entry) => entry.sessionId === sessionId),
        wire.lines().join('\n'),
      );
    });

    it('tools, resources and prompts; a tool list change arrives on the GET stream', async (t) => {
      assert.deepEqual(
        await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }),
        textResult('Hello, Ada!'),
      );
      assert.deepEqual((await client.readResource({ uri: 'fixture://readme' })).contents, [
        { uri: 'fixture://readme', mimeType: 'text/plain', text: 'Read me over HTTP.' },
      ]);
      const prompt = await client.getPrompt({
        name: 'summarize',
        arguments: { topic: 'HTTP', style: 'detailed' },
      });
      assert.deepEqual(prompt.messages, [
        { role: 'user', content: { type: 'text', text: 'Summarize HTTP (detailed).' } },
      ]);
      assert.ok(
        wire.exchanges.some((entry) => entry.method === 'GET' && entry.status === 200),
        `our client opened the session's GET stream:\n${wire.lines().join('\n')}`,
      );
      const before = peer.toolListChanges.items.length;
      assert.deepEqual(
        await client.callTool({ name: 'toggle_extra_tool', arguments: {} }),
        textResult('Added extra.'),
      );
      await peer.toolListChanges.waitForCount('notifications/tools/list_changed', before + 1);
      assert.ok(
        wire.getStreamMethods.includes('notifications/tools/list_changed'),
        JSON.stringify(wire.getStreamMethods),
      );
      assert.ok((await client.listAllTools()).some((tool) => tool.name === 'extra'));
      peer.assertCleanWire(t, 'official v2 server (sessionful)');
    });

    it('close() DELETEs the session', async () => {
      const sessionId = wire.exchanges.find((entry) => entry.assignedSessionId !== null)?.assignedSessionId;
      await client.close();
      const deleted = wire.exchanges.find((entry) => entry.method === 'DELETE');
      assert.ok(deleted && sessionId, wire.lines().join('\n'));
      assert.equal(deleted.sessionId, sessionId);
      assert.ok(deleted.status >= 200 && deleted.status < 300, wire.lines().join('\n'));
    });
  });

  for (const mode of ['streamableHttp', 'sse'] as const) {
    describe(
      `against @modelcontextprotocol/server-everything (${mode}, child process)`,
      { concurrency: false },
      () => {
        const peer = new Peer();
        const { client } = peer;
        let child: ServerEverythingProcess;
        before(async () => {
          child = await startServerEverything(mode);
          await peer.connect((fetch) =>
            mode === 'sse'
              ? new SseClientTransport(`${child.origin}/sse`, { fetch })
              : new StreamableHttpClientTransport(`${child.origin}/mcp`, { fetch }),
          );
        });
        after(async () => {
          await client.close();
          await child.close();
        });

        it('era handshake at 2025-11-25 (the handshake)', () => {
          assert.equal(client.era, 'handshake', `server stderr:\n${child.stderr}`);
          assert.equal(client.protocolVersion, '2025-11-25');
          assert.equal(client.serverInfo?.name, 'mcp-servers/everything');
          // The era probe comes first on either transport, and is refused: over Streamable HTTP with a bare HTTP
          // 400 outside a session, over HTTP+SSE with a JSON-RPC error on the stream.
          assert.deepEqual(peer.log.clientMethods.slice(0, 2), ['server/discover', 'initialize']);
          const [probe] = peer.log.exchanges;
          if (mode === 'sse')
            assert.equal(typeof probe?.response?.error?.code, 'number', JSON.stringify(probe));
          else {
            const [post] = peer.wire.exchanges;
            assert.deepEqual(
              [post?.rpc, post?.status],
              [['server/discover'], 400],
              peer.wire.lines().join('\n'),
            );
          }
        });

        it('tools, resources and prompts', async (t) => {
          const tools = await client.listAllTools();
          assert.ok(
            tools.some((tool) => tool.name === 'echo'),
            JSON.stringify(tools.map((tool) => tool.name)),
          );
          assert.deepEqual(
            await client.callTool({ name: 'echo', arguments: { message: `over ${mode}` } }),
            textResult(`Echo: over ${mode}`),
          );
          const resources = await client.listAllResources();
          const document = resources.find((resource) =>
            resource.uri.startsWith('demo://resource/static/document/'),
          );
          assert.ok(document, JSON.stringify(resources.map((resource) => resource.uri)));
          const [contents] = (await client.readResource({ uri: document.uri })).contents;
          assert.ok(contents && 'text' in contents && contents.text.length > 0, document.uri);
          const [text] = (await client.readResource({ uri: 'demo://resource/dynamic/text/5' })).contents;
          assert.ok(text && 'text' in text);
          assert.match(text.text, /^Resource 5: This is a plaintext resource created at /);
          assert.deepEqual(
            (await client.listAllPrompts()).map((prompt) => prompt.name),
            ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt'],
          );
          const args = await client.getPrompt({
            name: 'args-prompt',
            arguments: { city: 'Oslo', state: 'Viken' },
          });
          assert.deepEqual(args.messages, [
            { role: 'user', content: { type: 'text', text: "What's weather in Oslo, Viken?" } },
          ]);
          peer.assertCleanWire(t, `server-everything ${mode}`);
        });
      },
    );
  }
});

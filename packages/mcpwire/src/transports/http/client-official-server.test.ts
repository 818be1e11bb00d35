// Our Client over StreamableHttpClientTransport and a real socket, against the official v2 server
// (@modelcontextprotocol/server 2.4, `createMcpHandler`, dual-era) behind @hono/node-server on 127.0.0.1.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { serve, type ServerType } from '@hono/node-server';
import {
  createMcpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  type McpHttpHandler,
} from '@modelcontextprotocol/server';
import * as z from 'zod';
import { Client, RpcError } from '../../client/index.ts';
import type { CallToolResult } from '../../protocol/types/index.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';

function createServer(): McpServer {
  const server = new McpServer(
    { name: 'official-v2-http', version: '2.4.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'greet',
    {
      description: 'Greets someone by name, in a region mirrored into Mcp-Param-Region.',
      inputSchema: z.object({
        name: z.string(),
        region: z.string().meta({ 'x-mcp-header': 'Region' }),
      }),
    },
    async ({ name, region }) => ({ content: [{ type: 'text', text: `Hello, ${name} (${region})!` }] }),
  );
  return server;
}

/**
 * A handshake-era-only deployment: one sessionful official transport per `Mcp-Session-Id`, as the
 * SDK's examples wire it. Records what arrived, to check the session's GET stream and DELETE.
 */
function createSessionfulHandler(seen: Array<{ method: string; sessionId: string | null }>) {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  return async (request: Request): Promise<Response> => {
    const sessionId = request.headers.get('mcp-session-id');
    const body =
      request.method === 'POST' ? (JSON.parse(await request.clone().text()) as { method?: string }) : {};
    seen.push({
      method: `${request.method}${body.method === undefined ? '' : ` ${body.method}`}`,
      sessionId,
    });
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
    await createServer().connect(transport);
    return transport.handleRequest(request);
  };
}

let handler: McpHttpHandler;
const servers: ServerType[] = [];
let endpoint: string;
let handshakeEndpoint: string;
const handshakeSeen: Array<{ method: string; sessionId: string | null }> = [];

async function listen(fetch: (request: Request) => Promise<Response>): Promise<string> {
  const server = serve({ fetch, hostname: '127.0.0.1', port: 0 });
  servers.push(server);
  if (!server.listening) await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

before(async () => {
  handler = createMcpHandler(() => createServer());
  endpoint = await listen((request) => handler.fetch(request));
  handshakeEndpoint = await listen(createSessionfulHandler(handshakeSeen));
});

after(async () => {
  await handler.close();
  for (const server of servers) {
    server.close();
    // Keep-alive sockets of the client's connection pool would hold the server open.
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    await once(server, 'close');
  }
});

async function greet(client: Client): Promise<string> {
  const result: CallToolResult = await client.callTool({
    name: 'greet',
    arguments: { name: 'Ada', region: ' Zürich ' },
  });
  const [block] = result.content;
  return block?.type === 'text' ? block.text : '';
}

describe('StreamableHttpClientTransport against the official v2 server over a socket', () => {
  it('probes into the stateless era and calls a tool whose argument travels in a base64 Mcp-Param header', async () => {
    const errors: Error[] = [];
    const sent: Headers[] = [];
    let shouldStripParams = false;
    const fetchThrough = (request: Request): Promise<Response> => {
      sent.push(request.headers);
      if (!shouldStripParams) return fetch(request);
      const headers = new Headers(request.headers);
      headers.delete('Mcp-Param-Region');
      return fetch(new Request(request, { headers }));
    };
    const client = new Client({ name: 'mcpwire-http-interop', version: '1.0.0' }, { eraCache: false });
    const transport = new StreamableHttpClientTransport(endpoint, {
      fetch: fetchThrough,
      onError: (error) => errors.push(error),
    });
    await client.connect(transport);
    try {
      assert.equal(client.era, 'stateless');
      assert.equal(client.protocolVersion, '2026-07-28');
      const [tool] = (await client.listTools()).tools;
      assert.equal(tool?.name, 'greet');
      assert.equal(
        (tool.inputSchema.properties?.region as Record<string, unknown>)['x-mcp-header'],
        'Region',
      );
      assert.equal(await greet(client), 'Hello, Ada ( Zürich )!');
      const call = sent.at(-1)!;
      assert.equal(call.get('mcp-name'), 'greet');
      assert.equal(
        call.get('mcp-param-region'),
        `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(' Zürich ')))}?=`,
      );
      assert.equal(call.get('mcp-session-id'), null);
      // The server checks the header against the body: without it the call is refused (-32020).
      shouldStripParams = true;
      await assert.rejects(
        greet(client),
        (error: unknown) => error instanceof RpcError && error.code === -32020,
      );
      assert.deepEqual(errors, []);
    } finally {
      await client.close();
    }
  });

  it('speaks the handshake era to the same endpoint when pinned to it', async () => {
    const client = new Client(
      { name: 'mcpwire-http-interop', version: '1.0.0' },
      { era: 'handshake', eraCache: false },
    );
    await client.connect(new StreamableHttpClientTransport(endpoint));
    try {
      assert.equal(client.era, 'handshake');
      assert.equal(client.protocolVersion, '2025-11-25');
      assert.equal(await greet(client), 'Hello, Ada ( Zürich )!');
    } finally {
      await client.close();
    }
  });

  it('falls back from the probe to a handshake-era session with a GET stream, and DELETEs it on close', async () => {
    const client = new Client({ name: 'mcpwire-http-interop', version: '1.0.0' }, { eraCache: false });
    await client.connect(new StreamableHttpClientTransport(handshakeEndpoint));
    try {
      assert.equal(client.era, 'handshake');
      assert.equal(await greet(client), 'Hello, Ada ( Zürich )!');
    } finally {
      await client.close();
    }
    const sessionId = handshakeSeen.find((entry) => entry.sessionId !== null)?.sessionId;
    assert.ok(sessionId);
    assert.ok(handshakeSeen.every((entry) => entry.sessionId === null || entry.sessionId === sessionId));
    const seen = handshakeSeen.map(
      (entry) => `${entry.method}${entry.sessionId === null ? '' : ' +session'}`,
    );
    // The probe: a handshake-era server refuses a request outside a session (400, no JSON-RPC id).
    assert.deepEqual(seen.slice(0, 3), [
      'POST server/discover',
      'POST initialize',
      'POST notifications/initialized +session',
    ]);
    // The GET stream opens while the client already lists tools: those two may arrive in either order.
    assert.deepEqual(seen.slice(3, -1).sort(), [
      'GET +session',
      'POST tools/call +session',
      'POST tools/list +session',
    ]);
    assert.equal(seen.at(-1), 'DELETE +session');
  });
});

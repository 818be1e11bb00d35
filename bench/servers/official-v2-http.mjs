// Echo server on the official v2 SDK (@modelcontextprotocol/server 2.4) over Streamable HTTP, hosted the way
// src/transports/http/client-official-server.test.ts hosts it: the web-standard handler behind @hono/node-server
// on 127.0.0.1. One wiring per era, each the SDK's own recommended one (the most favourable to it):
//   `node official-v2-http.mjs stateless` → createMcpHandler(factory): the dual-era entry (2026-07-28 per-request
//                                          serving, stateless fallback for 2025 traffic).
//   `node official-v2-http.mjs sessions`  → one sessionful WebStandardStreamableHTTPServerTransport (+ McpServer)
//                                          per Mcp-Session-Id, as the SDK's examples wire handshake-era sessions.
// Prints `... at http://127.0.0.1:<port>/mcp` on stderr when listening (port from argv[3], default 0 = any).
import { once } from 'node:events';
import { serve } from '@hono/node-server';
import {
  createMcpHandler,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import * as z from 'zod';

const mode = process.argv[2];
const port = Number(process.argv[3] ?? 0);

function createServer() {
  const server = new McpServer(
    { name: 'official-v2-http', version: '0.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'echo',
    { description: 'Echo the message back.', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  return server;
}

function sessionfulHandler() {
  const sessions = new Map();
  return async (request) => {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = sessions.get(sessionId);
      return transport
        ? transport.handleRequest(request)
        : new Response('Session not found', { status: 404 });
    }
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await createServer().connect(transport);
    return transport.handleRequest(request);
  };
}

let fetchHandler;
if (mode === 'stateless') {
  const handler = createMcpHandler(() => createServer());
  fetchHandler = (request) => handler.fetch(request);
} else if (mode === 'sessions') {
  fetchHandler = sessionfulHandler();
} else {
  throw new Error(`usage: official-v2-http.mjs stateless|sessions [port], received ${mode}`);
}

const server = serve({ fetch: fetchHandler, hostname: '127.0.0.1', port });
if (!server.listening) await once(server, 'listening');
process.stderr.write(`official-v2 (${mode}) at http://127.0.0.1:${server.address().port}/mcp\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));

// Echo server on the official v1 SDK (@modelcontextprotocol/sdk 1.32) over Streamable HTTP with plain node:http
// on 127.0.0.1. v1 speaks only the handshake era (latest 2025-11-25); two wirings, both from the SDK's docs:
//   `node official-v1-http.mjs sessions`  → one StreamableHTTPServerTransport (+ McpServer) per Mcp-Session-Id.
//   `node official-v1-http.mjs stateless` → `sessionIdGenerator: undefined`: a fresh McpServer + transport per
//                                          POST, no initialize, no session (2025-era "stateless" mode; NOT the
//                                          2026-07-28 protocol, so it is reported as its own labelled row).
// Prints `... at http://127.0.0.1:<port>/mcp` on stderr when listening (port from argv[3], default 0 = any).
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

const mode = process.argv[2];
const port = Number(process.argv[3] ?? 0);

function createServer() {
  const server = new McpServer(
    { name: 'official-v1-http', version: '0.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'echo',
    { description: 'Echo the message back.', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  return server;
}

const sessions = new Map();

async function handleSessionful(req, res) {
  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId === 'string') {
    const transport = sessions.get(sessionId);
    if (!transport) {
      res.writeHead(404).end('Session not found');
      return;
    }
    await transport.handleRequest(req, res);
    return;
  }
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => void sessions.set(id, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  await createServer().connect(transport);
  await transport.handleRequest(req, res);
}

async function handleStateless(req, res) {
  const server = createServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res);
}

if (mode !== 'stateless' && mode !== 'sessions')
  throw new Error(`usage: official-v1-http.mjs stateless|sessions [port], received ${mode}`);
const handle = mode === 'stateless' ? handleStateless : handleSessionful;

const server = createHttpServer((req, res) => {
  if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  handle(req, res).catch((error) => {
    process.stderr.write(`official-v1: ${error?.stack ?? error}\n`);
    if (!res.headersSent) res.writeHead(500).end();
  });
});
server.listen(port, '127.0.0.1');
await once(server, 'listening');
process.stderr.write(`official-v1 (${mode}) at http://127.0.0.1:${server.address().port}/mcp\n`);
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));

// Echo server on the official v2 SDK (@modelcontextprotocol/server 2.4) for the 2026-07-28 (stateless) workload.
// A hand-wired McpServer + StdioServerTransport only speaks the 2025 era (server/discover answers -32601 and
// envelope requests are served as handshake-era traffic), so this uses the SDK's dual-era stdio entry, serveStdio(factory),
// which classifies the opening message and pins a stateless-era instance when it carries a valid `_meta` envelope claim.
// Plain .mjs so it starts with plain `node`, like the other servers in the benchmark.
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

serveStdio(() => {
  const server = new McpServer(
    { name: 'official-v2-echo-stateless', version: '0.0.0' },
    { capabilities: { tools: {} } },
  );
  server.registerTool(
    'echo',
    { description: 'Echo the message back.', inputSchema: z.object({ message: z.string() }) },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
  );
  return server;
});

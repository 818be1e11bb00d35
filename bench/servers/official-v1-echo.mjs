// Echo server on the official v1 SDK (@modelcontextprotocol/sdk 1.32), McpServer + StdioServerTransport.
// Plain .mjs so it starts with plain `node`, like the other servers in the benchmark.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import * as z from 'zod';

const server = new McpServer({ name: 'official-v1-echo', version: '0.0.0' }, { capabilities: { tools: {} } });

server.registerTool(
  'echo',
  { description: 'Echo the message back.', inputSchema: { message: z.string() } },
  async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
);

await server.connect(new StdioServerTransport());

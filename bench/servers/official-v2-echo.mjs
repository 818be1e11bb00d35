// Echo server on the official v2 SDK (@modelcontextprotocol/server 2.4), hand-wired McpServer + StdioServerTransport.
// Plain .mjs so it starts with plain `node`, like the other servers in the benchmark.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const server = new McpServer({ name: 'official-v2-echo', version: '0.0.0' }, { capabilities: { tools: {} } });

server.registerTool(
  'echo',
  { description: 'Echo the message back.', inputSchema: z.object({ message: z.string() }) },
  async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
);

await server.connect(new StdioServerTransport());

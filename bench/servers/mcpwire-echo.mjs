// An mcpwire Server with the `echo` tool alone and no extension or middleware: what `serve everything`
// runs per `tools/call echo`, less the tasks extension's wrap of `tools/call`. For bench/instructions.ts
// (`BENCH_SERVER=bench/servers/mcpwire-echo.mjs`): the serve path's fast path applies here, not there.
import { Server } from 'mcpwire/server';

const server = new Server({ name: 'mcpwire-echo', version: '0.0.0' });
server.tool(
  {
    name: 'echo',
    description: 'Returns the given message as text (an empty message when none is given).',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The text to send back' } },
    },
  },
  (args) => ({ content: [{ type: 'text', text: typeof args.message === 'string' ? args.message : '' }] }),
);

export default server;

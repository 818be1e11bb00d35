// `mcpwire serve <name> --http <port>`: the server on Streamable HTTP at 127.0.0.1:<port>/mcp, both
// protocol eras on one endpoint. Diagnostics and the URL go to stderr; SIGINT or SIGTERM stops it.

import type { Server } from 'mcpwire/server';
import { chainHandlers, createHttpHandler, createLegacySseHandler } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';

/**
 * Serves `server` on 127.0.0.1:`port` (0 picks a free port) and prints the endpoint URL on stderr.
 * Resolves after SIGINT or SIGTERM, once every session, stream and socket is closed.
 */
export async function serveOverHttp(server: Server, port: number): Promise<void> {
  const streamable = createHttpHandler(server, {
    onError: (error) => process.stderr.write(`mcpwire: ${error.message}${describeCause(error.cause)}\n`),
  });
  // The deprecated HTTP+SSE transport (2024-11-05) for old clients: GET /sse, POST /messages.
  const legacy = createLegacySseHandler(server);
  const handle = await serveHttp(chainHandlers(legacy, streamable), { port });
  process.stderr.write(`mcpwire: serving MCP over Streamable HTTP at ${handle.url} (HTTP+SSE at /sse)\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  await handle.close();
}

function describeCause(cause: unknown): string {
  if (cause === undefined) return '';
  return `: ${cause instanceof Error ? cause.message : String(cause)}`;
}

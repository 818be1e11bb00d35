// `mcpwire serve <server> --http <port>`: the server on Streamable HTTP at <host>:<port>/mcp (both
// protocol eras on one endpoint, HTTP+SSE at /sse for old clients), the Host and Origin checks on.
// It says where it listens on stderr only when stderr is a terminal; SIGINT or SIGTERM stops it.

import type { ChannelServer } from 'mcpwire/stdio';
import { chainHandlers, createHttpHandler, createLegacySseHandler, LOOPBACK_HOSTNAMES } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { coloursFor } from './colours.ts';

/** Where and how to listen. */
export interface HttpServeOptions {
  port: number;
  /** The interface; default 127.0.0.1. */
  host?: string;
  /** Host header names accepted besides loopback ones and `host` itself (DNS rebinding protection). */
  allowedHosts?: readonly string[];
}

/** Addresses that mean "every interface": no Host header can name them. */
const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);

/**
 * Serves `server` until SIGINT or SIGTERM, then closes every session, stream and socket. Requests
 * must carry a loopback Host header, `options.host` (unless it is a wildcard) or one of `allowedHosts`.
 */
export async function serveOverHttp(server: ChannelServer, options: HttpServeOptions): Promise<void> {
  const host = options.host ?? '127.0.0.1';
  const allowedHosts = [
    ...LOOPBACK_HOSTNAMES,
    ...(WILDCARDS.has(host) ? [] : [asHostname(host)]),
    ...(options.allowedHosts ?? []),
  ];
  const onError = (error: Error): void => {
    process.stderr.write(`mcpwire: ${error.message}${describeCause(error.cause)}\n`);
  };
  const streamable = createHttpHandler(server, { allowedHosts, onError });
  // The deprecated HTTP+SSE transport (2024-11-05) for old clients: GET /sse, POST /messages.
  const legacy = createLegacySseHandler(server, { allowedHosts });
  const handle = await serveHttp(chainHandlers(legacy, streamable), { port: options.port, host });
  if (process.stderr.isTTY === true) {
    const colours = coloursFor(process.stderr);
    process.stderr.write(
      `mcpwire: serving MCP over Streamable HTTP at ${colours.cyan(handle.url)} (HTTP+SSE at /sse); Ctrl-C stops\n`,
    );
    if (WILDCARDS.has(host) && options.allowedHosts === undefined)
      process.stderr.write(
        colours.dim('mcpwire: only loopback Host headers are accepted; add --allow-host <name> for others\n'),
      );
  }
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close?.();
  await handle.close();
}

/** How a Host header names `host`: IPv6 addresses in brackets, as URL hostnames have them. */
function asHostname(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function describeCause(cause: unknown): string {
  if (cause === undefined) return '';
  return `: ${cause instanceof Error ? cause.message : String(cause)}`;
}

// The Streamable HTTP endpoint without handshake-era sessions, for runtimes whose requests share no
// memory (several Workers isolates, Deno Deploy, Vercel and Netlify functions, replicas behind a
// balancer): `initialize` is answered without Mcp-Session-Id (HTTP-26 makes it optional), every POST
// is served on its own in the revision its MCP-Protocol-Version names (2025-03-26 when absent,
// HTTP-34), and GET and DELETE get 405 (HTTP-19). The stateless era is served as ever.

import type { RequestServer } from '../channel.ts';
import { createEndpoint, notAllowed, requestsOf, type HttpHandler } from './endpoint.ts';
import { checkVersionHeader, refuseBatch } from './handshake-checks.ts';
import { resolveOptions, type HttpHandlerOptions, type ToolSchemaSource } from './options.ts';
import { serveSessionlessPost } from './sessionless-post.ts';

/** The options of createSessionlessHandler: those of createHttpHandler less the sessions' own. */
export type SessionlessHandlerOptions = Omit<
  HttpHandlerOptions,
  | 'maxSessions'
  | 'maxSessionsPerClient'
  | 'clientKey'
  | 'sessionIdleTimeoutMs'
  | 'eventStore'
  | 'leases'
  | 'retryMs'
  | 'closeSseStreamsAfterMs'
  | 'sseAfterMs'
>;

/**
 * Creates the MCP endpoint for `server` (a `ServerCore` or a `Server`) with no handshake-era
 * sessions. Each request is served by `server.serveRequest`: without a session the server cannot ask
 * a handshake-era client anything (elicitation, sampling, roots), keep its logging level or
 * subscriptions, or resume its streams; a client that goes away cancels its request.
 */
export function createSessionlessHandler(
  server: RequestServer & ToolSchemaSource,
  options: SessionlessHandlerOptions = {},
): HttpHandler {
  const config = resolveOptions(options);
  const custom = config.toolSchema;
  const direct = server.toolInputSchema?.bind(server);
  // A server that cannot name its tools' schemas gets no Mcp-Param-* checks (S26-HDR-5) unless told.
  const toolSchema = custom ?? direct ?? (() => undefined);
  return createEndpoint(server, config, toolSchema, {
    post: (request, frame, isInitialize, accepts, principal) => {
      const requests = requestsOf(frame);
      const header = request.headers.get('mcp-protocol-version');
      const refused = checkVersionHeader(header, requests[0]?.id);
      if (refused) return refused;
      const protocolVersion = isInitialize ? undefined : (header ?? '2025-03-26');
      const batchRefused = refuseBatch(frame, protocolVersion);
      if (batchRefused) return batchRefused;
      return serveSessionlessPost(server, request, {
        frame,
        requests,
        accepts,
        protocolVersion,
        principal,
        keepAliveMs: config.keepAliveMs,
        maxSseBufferBytes: config.maxSseBufferBytes,
      });
    },
    get: () => Promise.resolve(notAllowed('POST')),
    delete: () => Promise.resolve(notAllowed('POST')),
    close: () => Promise.resolve(),
  });
}

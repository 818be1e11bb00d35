// Serving on Streamable HTTP, for `mcpwire serve <server> --http <port>` and `mcpwire bridge --http`:
// the server at <host>:<port>/mcp (both
// protocol eras on one endpoint, HTTP+SSE at /sse for old clients), the Host and Origin checks on.
// It says where it listens on stderr (always: a script or a supervisor reads it there, never on stdout);
// SIGINT or SIGTERM stops it.
// With --auth dev, a development authorization server runs beside it and tokens are required.

import type { ChannelServer } from 'mcpwire/stdio';
import type { ChainableHandler, RequestServer, SessionStore } from 'mcpwire/http';
import {
  chainHandlers,
  createHttpHandler,
  createLegacySseHandler,
  createSessionlessHandler,
  LOOPBACK_HOSTNAMES,
} from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { coloursFor } from '../terminal/colours.ts';
import { UsageError } from '../exit-code.ts';
import { collapseRepeats } from './repeated-lines.ts';

/** Where and how to listen. */
export interface HttpServeOptions {
  port: number;
  /** The interface; default 127.0.0.1. */
  host?: string;
  /** Host header names accepted besides loopback ones and `host` itself (DNS rebinding protection). */
  allowedHosts?: readonly string[];
  /** `dev`: require tokens of a development authorization server started beside the endpoint. */
  auth?: 'dev';
  /** False: no handshake-era sessions, each POST served on its own (createSessionlessHandler). */
  sessions?: boolean;
  /** The handler's `maxSessions` and `maxSessionsPerClient` (its defaults when absent). */
  maxSessions?: number;
  maxSessionsPerClient?: number;
  /** The handler's session store (its own in-memory one when absent). */
  sessionStore?: SessionStore;
  /**
   * `--redis <url>`: the session store, message bus and event store on this Redis, shared with every
   * node given the same URL (no HTTP+SSE endpoint then: its streams live in one process).
   */
  redis?: string;
  /** `--redis-cluster <url>[,<url>]`: the same on a Redis Cluster, given some of its nodes' URLs. */
  redisCluster?: readonly string[];
  /** The handler's `sessionIdleTimeoutMs` (its default when absent). */
  sessionIdleTimeoutMs?: number;
  /** False: no HTTP+SSE endpoint (/sse) for old clients. Default true (with sessions and without --auth). */
  hasLegacySse?: boolean;
  /** The handler's `sseAfterMs`: a POST not answered this long after it goes on SSE (a bridge's relay). */
  sseAfterMs?: number;
  /** Answers first, before the Streamable HTTP endpoint, where it answers at all (e.g. a refusal at a cap). */
  gate?: ChainableHandler;
  /** The line said on stderr once listening; default "serving MCP over Streamable HTTP at <url>". */
  banner?: (url: string, hasLegacySse: boolean) => string;
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
  // An outage repeats one line per request or reconnect attempt: said once, then counted.
  const say = collapseRepeats((line) => process.stderr.write(`${line}\n`));
  const onError = (error: Error): void => say(`mcpwire: ${error.message}${describeCause(error.cause)}`);
  // Loaded only with --auth dev: the development authorization server and the resource server.
  const devAuth =
    options.auth === 'dev'
      ? await (await import('../dev-auth/serve-auth-dev.ts')).startDevAuth(host)
      : undefined;
  const auth = devAuth === undefined ? {} : { auth: devAuth.auth };
  const sessions = options.sessions ?? true;
  // Loaded only with --redis or --redis-cluster; fails the start (exit 3) when Redis cannot be reached.
  const target =
    options.redis !== undefined
      ? { url: options.redis }
      : options.redisCluster === undefined
        ? undefined
        : { clusterUrls: options.redisCluster };
  const redisStores = target === undefined ? undefined : await import('./redis-stores.ts');
  const redis = target === undefined ? undefined : await redisStores?.connectRedisStores(target, onError);
  if (redis !== undefined) {
    await redisStores?.shareRequestStateKeys(server, redis);
    redisStores?.shareTaskStore(server, redis);
  }
  const shared =
    redis === undefined
      ? {}
      : { sessions: redis.sessions, bus: redis.bus, eventStore: redis.eventStore, leases: redis.leases };
  const caps = {
    ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
    ...(options.maxSessionsPerClient === undefined
      ? {}
      : { maxSessionsPerClient: options.maxSessionsPerClient }),
    ...(options.sessionIdleTimeoutMs === undefined
      ? {}
      : { sessionIdleTimeoutMs: options.sessionIdleTimeoutMs }),
    ...(options.sessionStore === undefined ? {} : { sessions: options.sessionStore }),
    ...(options.sseAfterMs === undefined ? {} : { sseAfterMs: options.sseAfterMs }),
    ...shared,
  };
  const streamable = sessions
    ? createHttpHandler(server, { allowedHosts, onError, ...auth, ...caps })
    : createSessionlessHandler(requestServerOf(server), { allowedHosts, onError, ...auth });
  // The deprecated HTTP+SSE transport (2024-11-05) for old clients: GET /sse, POST /messages.
  // It has no authorization layer, so --auth serves Streamable HTTP only; it is all sessions, so
  // --no-sessions leaves it out too, and so does --redis (a GET /sse stream and its POSTs must meet in
  // one process, which a round-robin balancer does not promise).
  const hasLegacySse =
    devAuth === undefined && sessions && redis === undefined && options.hasLegacySse !== false;
  const served = hasLegacySse
    ? [createLegacySseHandler(server, { allowedHosts }), streamable]
    : devAuth === undefined
      ? [streamable]
      : [devAuth.metadata, streamable];
  const handlers = options.gate === undefined ? served : [options.gate, ...served];
  const handle = await serveHttp(chainHandlers(...handlers), { port: options.port, host });
  devAuth?.bind(handle.url);
  if (devAuth !== undefined)
    process.stderr.write(
      `mcpwire: tokens required, from the development authorization server at ${devAuth.issuer} (for development only, not for production)\n`,
    );
  const colours = coloursFor(process.stderr);
  const banner =
    options.banner?.(colours.cyan(handle.url), hasLegacySse) ??
    `serving MCP over Streamable HTTP at ${colours.cyan(handle.url)}${hasLegacySse ? ' (HTTP+SSE at /sse)' : ''}`;
  process.stderr.write(`mcpwire: ${banner}; Ctrl-C stops\n`);
  if (target !== undefined)
    process.stderr.write(
      `mcpwire: sessions, their messages, resumable streams and tasks shared through ${redisStores?.describeRedisTarget(target)}
`,
    );
  if (WILDCARDS.has(host) && options.allowedHosts === undefined)
    process.stderr.write(
      colours.dim('mcpwire: only loopback Host headers are accepted; add --allow-host <name> for others\n'),
    );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close?.();
  await handle.close();
  await redis?.close();
  await devAuth?.[Symbol.asyncDispose]();
}

/** The server as one that serves requests on their own, which --no-sessions needs. */
function requestServerOf(server: ChannelServer): RequestServer {
  if ('serveRequest' in server) return server as ChannelServer & RequestServer;
  throw new UsageError('--no-sessions needs an mcpwire Server: this server serves connections only');
}

/** How a Host header names `host`: IPv6 addresses in brackets, as URL hostnames have them. */
function asHostname(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

function describeCause(cause: unknown): string {
  if (cause === undefined) return '';
  return `: ${cause instanceof Error ? cause.message : String(cause)}`;
}

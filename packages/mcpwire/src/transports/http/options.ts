// The HTTP handler's options, their defaults, and the one thing it needs of a server.

import type { ChannelServer } from '../channel.ts';

export type { ChannelServer };
import { InMemoryEventStore, type EventStore } from './event-store.ts';
import { LOOPBACK_HOSTNAMES } from './security.ts';

/** Who made a request, as the `authenticate` hook established it. */
export interface Principal {
  principal: string;
}

/** Options of `createHttpHandler`. Every limit and check is on by default. */
export interface HttpHandlerOptions {
  /** The endpoint's path; other paths get 404. Default `/mcp`. */
  path?: string;
  /** Host header values accepted (DNS rebinding): hostnames (any port), `host:port`, or `*`. Default loopback. */
  allowedHosts?: readonly string[];
  /** Browser origins accepted besides loopback ones (exact, e.g. `https://app.example`), or `*`. */
  allowedOrigins?: readonly string[];
  /** Largest POST body in bytes; larger gets 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /** Live handshake-era sessions at most; `initialize` beyond it gets 503. Default 10,000. */
  maxSessions?: number;
  /** A session with no traffic and no open stream this long is closed (Infinity: never). Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Where handshake-era SSE events are kept for Last-Event-ID replay. Default in memory. */
  eventStore?: EventStore;
  /** The `retry:` (ms) sent on each handshake-era stream's priming event. Default 1,000. */
  retryMs?: number;
  /**
   * Close a handshake-era POST's SSE connection this long after it opens, without ending the stream;
   * the client resumes with GET and Last-Event-ID (HTTP-10, SEP-1699; 2025-11-25 sessions only).
   * Default: never.
   */
  closeSseStreamsAfterMs?: number;
  /** Comment lines on idle SSE streams every this many ms (S26-HTTP-7); 0 turns them off. Default 15,000. */
  keepAliveMs?: number;
  /**
   * The inputSchema of a tool, for checking `Mcp-Param-*` headers (S26-HDR-5). Default: asks the
   * server with a stateless `tools/list` per `tools/call` (middleware sees that request).
   */
  toolSchema?: (name: string) => object | undefined | Promise<object | undefined>;
  /**
   * Authenticates every request; undefined means 401. Sessions are bound to the principal: another
   * principal's session id gets 404 (SEC-7). Credentials never reach the server (SEC-5).
   */
  authenticate?: (request: Request) => Promise<Principal | undefined>;
  /** Local diagnostics (store failures, handler crashes). Default: stderr. */
  onError?: (error: Error) => void;
}

/** The options with every default applied. */
export type HttpConfig = Required<
  Omit<HttpHandlerOptions, 'closeSseStreamsAfterMs' | 'toolSchema' | 'authenticate'>
> &
  Pick<HttpHandlerOptions, 'closeSseStreamsAfterMs' | 'toolSchema' | 'authenticate'>;

/** Applies the defaults. */
export function resolveOptions(options: HttpHandlerOptions): HttpConfig {
  const { closeSseStreamsAfterMs, toolSchema, authenticate, ...rest } = options;
  return {
    path: '/mcp',
    allowedHosts: LOOPBACK_HOSTNAMES,
    allowedOrigins: [],
    maxBodyBytes: 4 * 1024 * 1024,
    maxSessions: 10_000,
    sessionIdleTimeoutMs: 30 * 60 * 1000,
    eventStore: new InMemoryEventStore(),
    retryMs: 1_000,
    keepAliveMs: 15_000,
    onError: (error) => console.error(`[mcpwire http] ${error.message}`, error.cause ?? ''),
    ...rest,
    ...(closeSseStreamsAfterMs === undefined ? {} : { closeSseStreamsAfterMs }),
    ...(toolSchema === undefined ? {} : { toolSchema }),
    ...(authenticate === undefined ? {} : { authenticate }),
  };
}

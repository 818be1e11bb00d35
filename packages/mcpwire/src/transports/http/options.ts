// The HTTP handler's options, their defaults, and the one thing it needs of a server.

import type { JsonObject } from '../../jsonrpc/message.ts';
import type { Principal } from '../../protocol/principal.ts';
import type { ChannelServer } from '../channel.ts';

export type { ChannelServer, Principal };

/**
 * What the HTTP handlers may also ask of the server they serve: a registered tool's wire
 * `inputSchema`, to check a `tools/call`'s `Mcp-Param-*` headers (S26-HDR-5) without a `tools/list`
 * round (mcpwire's `ServerCore` and `Server` have it). Undefined for a tool it does not know.
 */
export interface ToolSchemaSource {
  toolInputSchema?(name: string): object | undefined;
}
import type { EventStore } from './event-store.ts';
import type { MessageBus } from './message-bus.ts';
import type { RequestLeases } from './request-leases.ts';
import type { SessionStore } from './session-store.ts';
import { LOOPBACK_HOSTNAMES } from './security.ts';
import { DEFAULT_MAX_SSE_BUFFER_BYTES } from './sse-writer.ts';

/**
 * What the HTTP handler may also ask of the server it serves, to carry list changes and resource
 * updates to the other handlers on its message bus and to take theirs (mcpwire's `Server` has it).
 */
export interface FanOutSource {
  onListChanged?(listener: (kind: ListKind) => void): () => void;
  onResourceUpdated?(listener: (uri: string) => void): () => void;
  /** Tells the server's own handshake-era sessions only (no listener hears it, so nothing echoes). */
  relayListChanged?(kind: ListKind): void;
  relayResourceUpdated?(uri: string): void;
}

/** The lists that announce changes. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** One request of a POST body, as `HttpAuth.authorize` sees it. */
export interface AuthorizedRequest {
  readonly method: string;
  readonly params: JsonObject | undefined;
}

/**
 * An authorization layer the handler consults (`bearerAuth` of `mcpwire/auth` is one). It answers
 * in HTTP terms, so the handler passes its refusals on as they are (401/403 with `WWW-Authenticate`).
 */
export interface HttpAuth {
  /** Verifies every request's credentials: the principal, or the response refusing the request. */
  authenticate(request: Request): Promise<Principal | Response>;
  /**
   * Checks that `principal` may make the requests of one POST body (e.g. per-tool scopes): undefined
   * to go on, or the refusal (403 `insufficient_scope`). Called once per POST that holds requests.
   */
  authorize?(
    principal: Principal,
    requests: readonly AuthorizedRequest[],
  ): Response | undefined | Promise<Response | undefined>;
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
  /**
   * Live handshake-era sessions at most. At the cap, `initialize` evicts the longest-idle session
   * (closed as an expired one is: its streams end, its id then gets 404 and its client initialises
   * again) so that one client cannot lock everyone else out; sessions with a request in flight are
   * never evicted, and only when every session has one does `initialize` get 503 with Retry-After.
   * Default 10,000.
   */
  maxSessions?: number;
  /**
   * Live handshake-era sessions of one client at most. At this cap, the client's `initialize`
   * evicts that client's own longest-idle session (as `maxSessions` does, never one with a request
   * in flight; 503 when all have one), so a client that leaks sessions hurts only itself. The client
   * is the authenticated principal when there is one, else the `clientKey` hook's answer, else the
   * peer's address (an IPv6 address by its /64), which only the Node adapter (`mcpwire/node`)
   * knows: without a principal or a hook, a handler called with web Requests applies only
   * `maxSessions`. Default 100.
   */
  maxSessionsPerClient?: number;
  /**
   * The client a request without a principal comes from, for `maxSessionsPerClient` (called on
   * `initialize` only). Give it on runtimes whose Request does not carry the peer's address (e.g.
   * read the platform's client-IP header), or behind a reverse proxy, where every request comes
   * from the proxy's address. Undefined: no per-client cap for that request. Default: the peer's
   * address when the adapter knows it.
   */
  clientKey?: (request: Request) => string | undefined;
  /** A session with no traffic and no open stream this long is closed (Infinity: never). Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Where handshake-era SSE events are kept for Last-Event-ID replay. Default in memory. */
  eventStore?: EventStore;
  /**
   * Where handshake-era session records are kept (see `SessionStore`). Handlers sharing one store
   * (over servers of the same definition) serve each other's sessions. Default in memory, this
   * handler's own.
   */
  sessions?: SessionStore;
  /**
   * What must reach another handler sharing `sessions` (a client's answer to a server-to-client
   * request, a cancellation, a session's end, list changes and resource updates): give every such
   * handler the same bus. Default an in-memory bus of this handler's own.
   */
  bus?: MessageBus;
  /**
   * Leases on in-flight handshake-era requests answered on SSE streams, shared by the handlers that
   * share `eventStore`: a handler resuming a stream whose holder died answers its requests with a
   * -32004 error once the lease runs out (see `RequestLeases`). Default none (one process).
   */
  leases?: RequestLeases;
  /** The `retry:` (ms) sent on each handshake-era stream's priming event. Default 1,000. */
  retryMs?: number;
  /**
   * Close a handshake-era POST's SSE connection this long after it opens, without ending the stream;
   * the client resumes with GET and Last-Event-ID (HTTP-10, SEP-1699; 2025-11-25 sessions only).
   * Default: never.
   */
  closeSseStreamsAfterMs?: number;
  /**
   * Answer a handshake-era POST of requests on an SSE stream (with its priming event on 2025-11-25,
   * so the client can resume) when its responses have not all come this long after it, and the
   * client accepts SSE: for a server that forwards to another (a bridge), which cannot tell whether
   * the slow call will later want the client to poll. 0: on SSE at once, even when the responses
   * come first. Default: never for slowness; a POST goes on SSE only when something other than
   * its responses comes first (progress, a log, a request to the client) or the server polls.
   */
  sseAfterMs?: number;
  /** Comment lines on idle SSE streams every this many ms (S26-HTTP-7); 0 turns them off. Default 15,000. */
  keepAliveMs?: number;
  /**
   * Bytes of events one SSE connection may hold for a client that does not read (besides the
   * socket's own buffers); past it the connection is dropped, and a handshake-era stream keeps its
   * events in the event store for resumption. Default 4 MiB.
   */
  maxSseBufferBytes?: number;
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
  /**
   * An authorization layer with its own refusals (e.g. `bearerAuth` of `mcpwire/auth`); used instead
   * of `authenticate` when given. The principal reaches every handler as `ctx.auth`.
   */
  auth?: HttpAuth;
  /** Local diagnostics (store failures, handler crashes). Default: stderr. */
  onError?: (error: Error) => void;
}

/** The options with every default applied. */
export type HttpConfig = Required<
  Omit<
    HttpHandlerOptions,
    | 'eventStore'
    | 'sessions'
    | 'bus'
    | 'leases'
    | 'closeSseStreamsAfterMs'
    | 'sseAfterMs'
    | 'toolSchema'
    | 'authenticate'
    | 'auth'
    | 'clientKey'
  >
> &
  Pick<
    HttpHandlerOptions,
    'closeSseStreamsAfterMs' | 'sseAfterMs' | 'toolSchema' | 'authenticate' | 'auth' | 'clientKey'
  >;

/** Applies the defaults. */
export function resolveOptions(options: HttpHandlerOptions): HttpConfig {
  const {
    eventStore: _store,
    sessions: _sessions,
    bus: _bus,
    leases: _leases,
    closeSseStreamsAfterMs,
    sseAfterMs,
    toolSchema,
    authenticate,
    auth,
    clientKey,
    ...rest
  } = options;
  return {
    path: '/mcp',
    allowedHosts: LOOPBACK_HOSTNAMES,
    allowedOrigins: [],
    maxBodyBytes: 4 * 1024 * 1024,
    maxSessions: 10_000,
    maxSessionsPerClient: 100,
    sessionIdleTimeoutMs: 30 * 60 * 1000,
    retryMs: 1_000,
    keepAliveMs: 15_000,
    maxSseBufferBytes: DEFAULT_MAX_SSE_BUFFER_BYTES,
    onError: (error) => console.error(`[mcpwire http] ${error.message}`, error.cause ?? ''),
    ...rest,
    ...(closeSseStreamsAfterMs === undefined ? {} : { closeSseStreamsAfterMs }),
    ...(sseAfterMs === undefined ? {} : { sseAfterMs }),
    ...(toolSchema === undefined ? {} : { toolSchema }),
    ...(authenticate === undefined ? {} : { authenticate }),
    ...(auth === undefined ? {} : { auth }),
    ...(clientKey === undefined ? {} : { clientKey }),
  };
}

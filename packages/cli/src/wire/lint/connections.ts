// Which connection each entry belongs to. stdio is one connection per server process. Over HTTP a
// tap may carry several clients: handshake-era traffic is keyed by its Mcp-Session-Id (HTTP-25..28),
// and each 2026-07-28 request is a connection of its own, as a dual-era server classifies them
// (2026-07-28 checklist 3.5: a `_meta` claim, or a stateless MCP-Protocol-Version header, is stateless).

import type { HttpRequestEntry, HttpResponseEntry, MessageEntry } from '../transcript.ts';
import { SchemaCheck } from './check-schema.ts';
import type { Finding } from './finding.ts';
import { LintState, type LintLimits } from './lint-state.ts';
import type { PostedRequest } from './message-context.ts';
import {
  hasStatelessClaim,
  headerOf,
  isStatelessRevision,
  isRecord,
  kindOf,
  type JsonRecord,
} from './message-facts.ts';

/** One connection: its state and the schema checks that wait for its revision. */
export interface Connection {
  readonly state: LintState;
  readonly schema: SchemaCheck;
  /** A 2026-07-28 request (or notification) of its own, over HTTP: it ends with its exchange. */
  readonly isStateless: boolean;
}

/** What is known of one HTTP exchange until it ends. */
interface Route {
  readonly request: HttpRequestEntry | undefined;
  readonly sessionId: string | undefined;
  connection: Connection | undefined;
  /** The POST, until its first client message is linted. */
  posted: PostedRequest | undefined;
  /** The response's status, once it came. */
  status?: number;
  /** True when it carried an initialize without a session id: its connection is a new session's. */
  isInitialize?: boolean;
}

/** Sessions kept at once (the least recently used is dropped past this), and exchanges not yet ended. */
const MAX_SESSIONS = 32;
const MAX_OPEN_EXCHANGES = 4096;

/** The connections of one transcript. Not safe to share between transcripts. */
export class Connections {
  readonly #forcedRevision: string | undefined;
  readonly #limits: LintLimits | undefined;
  /** stdio's connection; over HTTP, the traffic without a session id (a server that assigns none). */
  #main: Connection;
  readonly #sessions = new Map<string, Connection>();
  readonly #routes = new Map<number, Route>();
  #isHttp = false;
  /** What 2026-07-28 traffic has taught about the server, carried into each new stateless connection. */
  #statelessScope: { capabilities: JsonRecord | undefined } | undefined;

  constructor(forcedRevision: string | undefined, limits?: LintLimits) {
    this.#forcedRevision = forcedRevision;
    this.#limits = limits;
    this.#main = this.#create(false);
  }

  /** The connection of entries that name no exchange (stdio, invalid lines, notes). */
  get main(): Connection {
    return this.#main;
  }

  /** Every connection that may still hold schema checks waiting for a revision. */
  get all(): Connection[] {
    return [this.#main, ...this.#sessions.values()];
  }

  /** A new server process: a new connection. */
  spawn(): void {
    if (this.#main.state.hasMessages) this.#main.state.reset();
    this.#main.state.transport = 'stdio';
  }

  /**
   * An HTTP request starts exchange `entry.exchange`. Returns the connection a GET or DELETE
   * belongs to (checked now); a POST's is chosen by its body's first message.
   */
  openExchange(entry: HttpRequestEntry, line: number | undefined): Connection | undefined {
    // An HTTP transcript: what is created from now on, and the main connection, speak HTTP.
    this.#isHttp = true;
    this.#main.state.transport = 'http';
    const sessionId = headerOf(entry, 'mcp-session-id');
    const isPost = entry.method === 'POST';
    const route: Route = {
      request: entry,
      sessionId,
      connection: isPost ? undefined : this.#sessionOf(sessionId),
      posted: isPost ? { request: entry, line } : undefined,
    };
    this.#routes.set(entry.exchange, route);
    if (this.#routes.size > MAX_OPEN_EXCHANGES) this.#routes.delete(this.#routes.keys().next().value!);
    return route.connection;
  }

  /**
   * The connection of a message, and the POST whose headers its message is the first to answer for.
   * A message of no known exchange belongs to the main connection.
   */
  routeMessage(entry: MessageEntry): { connection: Connection; posted: PostedRequest | undefined } {
    const route = entry.exchange === undefined ? undefined : this.#routes.get(entry.exchange);
    if (route === undefined) {
      // A message of an exchange whose request was not recorded: the one connection, as without sessions.
      if (entry.exchange !== undefined) this.#startSession(entry, this.#main);
      return { connection: this.#main, posted: undefined };
    }
    let posted: PostedRequest | undefined;
    if (entry.from === 'client' && route.posted !== undefined) {
      posted = route.posted;
      route.posted = undefined;
    }
    route.connection ??= this.#choose(entry, route);
    return { connection: route.connection, posted };
  }

  /**
   * A response's headers. An initialize's connection becomes the session the response names in
   * Mcp-Session-Id; without one (a server that assigns none), the connection of every request
   * without a session id from now on.
   */
  answerExchange(entry: HttpResponseEntry): void {
    const route = this.#routes.get(entry.exchange);
    if (route === undefined) return;
    route.posted = undefined;
    route.status = entry.status;
    if (route.isInitialize !== true || route.connection === undefined) return;
    const assigned = headerOf(entry, 'mcp-session-id');
    if (assigned !== undefined) this.#remember(assigned, route.connection);
    else if (entry.status >= 200 && entry.status < 300) this.#main = route.connection;
  }

  /**
   * Exchange `exchange` ended. Returns the findings of the schema checks still waiting in a
   * connection that ends with it (a stateless request, or a session its DELETE ended).
   */
  closeExchange(exchange: number): readonly Finding[] {
    const route = this.#routes.get(exchange);
    if (route === undefined) return [];
    this.#routes.delete(exchange);
    if (route.connection?.isStateless === true) return route.connection.schema.finish();
    const isEnded = route.status !== undefined && route.status >= 200 && route.status < 300;
    if (route.request?.method === 'DELETE' && route.sessionId !== undefined && isEnded) {
      const session = this.#sessions.get(route.sessionId);
      this.#sessions.delete(route.sessionId);
      return session?.schema.finish() ?? [];
    }
    return [];
  }

  /** After a message was linted: what a stateless connection learnt of the server is kept for the next. */
  learn(connection: Connection): void {
    if (!connection.isStateless || connection.state.era !== 'stateless') return;
    const capabilities = connection.state.serverCapabilities ?? this.#statelessScope?.capabilities;
    this.#statelessScope = { capabilities };
  }

  #choose(entry: MessageEntry, route: Route): Connection {
    const message = entry.message as unknown as JsonRecord;
    if (entry.from !== 'client' || !isRecord(message)) return this.#sessionOf(route.sessionId);
    if (this.#isStateless(message, route.request)) return this.#create(true);
    if (message.method === 'initialize' && route.sessionId === undefined) {
      // Each initialize starts a session of its own (HTTP-31): two clients may be initializing at once.
      route.isInitialize = true;
      return this.#create(false);
    }
    return this.#sessionOf(route.sessionId);
  }

  /** A new initialize over HTTP without a session id starts a new session (HTTP-31), where ids start afresh. */
  #startSession(entry: MessageEntry, connection: Connection): void {
    const message = entry.message as unknown as JsonRecord;
    if (
      entry.from === 'client' &&
      isRecord(message) &&
      message.method === 'initialize' &&
      connection.state.phase !== 'none'
    )
      connection.state.reset();
  }

  /** A request with a `_meta` claim, or a message posted with a 2026-07-28 MCP-Protocol-Version header. */
  #isStateless(message: JsonRecord, request: HttpRequestEntry | undefined): boolean {
    if (typeof message.method === 'string' && kindOf(message) === 'request') {
      if (hasStatelessClaim(message)) return true;
      if (message.method === 'initialize') return false;
    }
    const header = request === undefined ? undefined : headerOf(request, 'mcp-protocol-version');
    return isStatelessRevision(header) && !('result' in message || 'error' in message);
  }

  #sessionOf(sessionId: string | undefined): Connection {
    if (sessionId === undefined) return this.#main;
    const known = this.#sessions.get(sessionId);
    if (known !== undefined) {
      // Most recently used last: the one dropped past MAX_SESSIONS is the longest idle.
      this.#sessions.delete(sessionId);
      this.#sessions.set(sessionId, known);
      return known;
    }
    // A session that began before the recording: its handshake was not seen.
    const connection = this.#create(false);
    this.#remember(sessionId, connection);
    return connection;
  }

  #remember(sessionId: string, connection: Connection): void {
    this.#sessions.set(sessionId, connection);
    if (this.#sessions.size > MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
  }

  #create(isStateless: boolean): Connection {
    const state = new LintState(this.#forcedRevision, this.#limits);
    if (this.#isHttp) state.transport = 'http';
    if (isStateless) {
      state.transport = 'http';
      if (this.#statelessScope !== undefined && this.#forcedRevision === undefined) {
        state.era = 'stateless';
        state.serverCapabilities = this.#statelessScope.capabilities;
      }
    }
    return { state, schema: new SchemaCheck(), isStateless };
  }
}

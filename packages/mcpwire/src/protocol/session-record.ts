// A handshake-era session as plain data (issue 23): what `initialize`, `logging/setLevel` and
// `resources/subscribe` decided, so that a session store can keep it anywhere and any process
// serving the same server definition can serve the session's next request.

import type { JsonObject } from '../jsonrpc/message.ts';
import type { Implementation, LoggingLevel } from './types/index.ts';

/**
 * What a handshake-era session decided, as plain JSON data: the negotiated revision, the client's
 * capabilities and info (`initialize`), whether it sent `notifications/initialized`, its logging level (`logging/setLevel`), its resource
 * subscriptions (`resources/subscribe`). Absent until decided.
 */
export interface SessionFacts {
  readonly protocolVersion?: string;
  readonly clientCapabilities?: JsonObject;
  readonly clientInfo?: Implementation;
  readonly logLevel?: LoggingLevel;
  /** Subscribed resource URIs, in subscription order, each once. */
  readonly subscriptions?: readonly string[];
  /** True once the client sent `notifications/initialized` (the session is operating). */
  readonly initialized?: boolean;
}

/**
 * One handshake-era session as a session store keeps it: plain JSON data (a JSON round trip gives an
 * equal record). `revision` fences writes: a store refuses an update made against an older one.
 */
export interface SessionRecord extends SessionFacts {
  /** The `Mcp-Session-Id` (128 random bits as a UUID, HTTP-26). */
  readonly id: string;
  /** The key of the principal the session is bound to (SEC-7); absent without authentication. */
  readonly principal?: string;
  /** The client the per-client session cap counts it under, if any. */
  readonly clientKey?: string;
  /** `Date.now()` at creation. */
  readonly createdAt: number;
  /** `Date.now()` when traffic last touched the session (idle expiry counts from it). */
  readonly lastActiveAt: number;
  /** Raised by one on every update; 0 at creation. */
  readonly revision: number;
}

/** What an update changes (the fields given replace the record's). */
export type SessionChange = SessionFacts;

/**
 * A live session's hold on its facts: `facts` reads the current ones; `write` applies a change made
 * from the facts it is given (called again with fresher ones if another writer got there first) and
 * resolves once it is stored. A transport that keeps sessions in a store offers it as
 * `Channel.sessionState`; elsewhere the server keeps the facts in memory.
 */
export interface SessionState {
  readonly facts: SessionFacts;
  write(change: (facts: SessionFacts) => SessionChange): Promise<void>;
}

/** Facts kept in the process (a connection whose transport keeps no session store). */
export class LocalSessionState implements SessionState {
  facts: SessionFacts = NO_FACTS;

  write(change: (facts: SessionFacts) => SessionChange): Promise<void> {
    this.facts = { ...this.facts, ...change(this.facts) };
    return Promise.resolve();
  }
}

const NO_FACTS: SessionFacts = Object.freeze({});

/** The subscriptions after subscribing to (or unsubscribing from) `uri`. */
export function withSubscription(
  subscriptions: readonly string[] | undefined,
  uri: string,
  isSubscribe: boolean,
): readonly string[] {
  const current = subscriptions ?? [];
  if (isSubscribe) return current.includes(uri) ? current : [...current, uri];
  return current.filter((item) => item !== uri);
}

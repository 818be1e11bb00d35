// What must reach another connection (issue 23): the MessageBus interface handlers sharing a session
// store publish to and listen on, its in-memory default, and the topics the HTTP handler uses.

import type { JsonObject } from '../../jsonrpc/message.ts';
import type { Awaitable } from './session-store.ts';

/** Told each message published on a topic it subscribed to. Must not throw. */
export type BusListener = (message: JsonObject) => void;

/**
 * Publish/subscribe by topic, with plain JSON messages. Handlers sharing a session store share a
 * bus so that what arrives at one reaches the handler that holds the connection it is for: a
 * client's answer to a server-to-client request or its cancellation (to the handler where the
 * request waits or runs), a session's end (its streams on every handler), a changed record (the
 * live copies), list changes and resource updates (every handler's streams).
 *
 * A distributed implementation must deliver every message published after `subscribe` resolved to
 * that subscriber, at most once, in publication order per publisher; messages are small JSON objects.
 * `subscribe` resolves with the function that ends the subscription.
 */
export interface MessageBus {
  publish(topic: string, message: JsonObject): Awaitable<void>;
  subscribe(topic: string, listener: BusListener): Awaitable<() => void>;
}

/**
 * The default bus: listeners of this process, called synchronously by `publish` in subscription
 * order (one that throws does not stop the others). Share one instance between handlers of one
 * process; a handler given none has a bus of its own, on which it is alone.
 */
export class InMemoryMessageBus implements MessageBus {
  #topics = new Map<string, Set<BusListener>>();

  publish(topic: string, message: JsonObject): void {
    const listeners = this.#topics.get(topic);
    if (listeners === undefined) return;
    for (const listener of [...listeners]) {
      try {
        listener(message);
      } catch {
        // A listener must not throw; one that does loses only its own delivery.
      }
    }
  }

  subscribe(topic: string, listener: BusListener): () => void {
    const listeners = this.#topics.get(topic) ?? new Set<BusListener>();
    this.#topics.set(topic, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#topics.get(topic) === listeners) this.#topics.delete(topic);
    };
  }
}

/**
 * Settles once every subscription given is in place (or failed: a failure is reported where it was
 * made); undefined when none waits, as on the in-memory bus.
 */
export function whenSubscribed(subscriptions: ReadonlyArray<Awaitable<unknown>>): Promise<void> | undefined {
  const pending = subscriptions.filter((made) => made instanceof Promise);
  if (pending.length === 0) return undefined;
  return Promise.allSettled(pending).then(() => undefined);
}

/** The topics of the HTTP handler; every message names the handler that published it (`from`). */
export const BusTopic = {
  /** `{ sessionId, from }`: the session ended (DELETE, eviction, expiry); close what is live of it. */
  sessionEnded: 'mcpwire/session-ended',
  /** `{ sessionId, message, from }`: a client's response or cancellation for the handler holding the session. */
  sessionMessage: 'mcpwire/session-message',
  /** `{ record, from }`: the session's record changed; live copies take it. */
  sessionChanged: 'mcpwire/session-changed',
  /** `{ kind, from }`: a list of the server changed (`tools`, `prompts`, `resources`). */
  listChanged: 'mcpwire/list-changed',
  /** `{ uri, from }`: a resource changed. */
  resourceUpdated: 'mcpwire/resource-updated',
  /**
   * `{ sessionId, streamId, lastEventId, relayId, from }`: a client resumed a stream on the handler
   * `from`; the handler holding it (named in the stream id) continues it there (stream-relay.ts).
   */
  streamResume: 'mcpwire/stream-resume',
  /** `{ to, relayId, live | chunk | end, from }`: the holder's answer, then the stream's text, then its end. */
  streamRelay: 'mcpwire/stream-relay',
  /** `{ to, relayId, from }`: the client of a relayed stream went away; the holder lets it go. */
  streamDetach: 'mcpwire/stream-detach',
} as const;

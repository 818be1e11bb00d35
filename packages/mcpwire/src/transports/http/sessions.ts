// The handshake-era sessions of one handler: records in its session store, created by `initialize`
// within two caps (all sessions, and each client's), found by id and principal, ended on DELETE, on
// idle expiry or when a cap needs room for a newcomer; and the live objects of those served here.

import type { SessionRecord } from '../../protocol/session-record.ts';
import { HttpSession } from './http-session.ts';
import type { HttpSessionSettings, SessionOwner } from './session-owner.ts';
import type { ChannelServer } from './options.ts';
import type { JsonObject, Message } from '../../jsonrpc/message.ts';
import { BusTopic, whenSubscribed, type MessageBus } from './message-bus.ts';
import type { SseConnection } from './sse-writer.ts';
import { nodeTagOf, StreamRelays } from './stream-relay.ts';
import type { Awaitable, SessionCreateLimits, SessionRefusal, SessionStore } from './session-store.ts';

/** Limits of the registry. */
export interface SessionLimits {
  maxSessions: number;
  /** Sessions of one client key at most (principal, address, or the `clientKey` hook's answer). */
  maxSessionsPerClient: number;
  idleTimeoutMs: number;
}

export type { SessionRefusal };

/**
 * The sessions one handler serves: records in the session store (shared with other handlers or not),
 * and here the live objects (an HttpSession and its server session) of those it has served lately.
 * A session is bound to the principal that created it: looking it up as anyone else finds nothing
 * (SEC-7). Every request reads the session's record (one store lookup; a store's `recordCacheMs`
 * spares requests of a session live here that lookup for that long): a session unknown here is
 * brought to life from it, one known here takes its newer facts, one whose record is gone (deleted,
 * evicted or expired through another handler) is closed here too.
 *
 * Idle expiry is the store's (records expire `idleTimeoutMs` after their last touch) and one sweep
 * here, not a timer per session: every request touches the session, and a timer that runs while
 * live sessions exist (every 1/60 of the timeout, so a session lives at most that much longer)
 * touches those busy here (a request in flight or a stream attached counts as activity) and lets go
 * of the others untouched here for the timeout: ended if the record expired, only released (to be
 * brought back by their next request) if another handler kept it alive.
 *
 * At a cap, the store's `create` evicts rather than refuses (issue 21: a refusal let one client lock
 * everyone out): past its client's cap, that client's least recently touched session; at the global
 * cap, the least recently touched of all; never one with a request in flight here (pinned), and when
 * every candidate has one, `create` refuses. An evicted session is ended as an expired one is: its
 * streams here end and its id then gets 404, so its client initialises again.
 */
export class SessionRegistry implements SessionOwner<HttpSession> {
  #sessions = new Map<string, HttpSession>();
  #store: SessionStore;
  #limits: SessionCreateLimits;
  /** How often a session's activity is written to the store, at most (SessionStore.touchPeriodMs). */
  #touchPeriodMs: number;
  /** How long an idle session's live objects stay here (SessionStore.liveIdleMs); at most the idle timeout. */
  #liveIdleMs: number;
  /** How long a live session is served without reading its record (SessionStore.recordCacheMs). */
  #recordCacheMs: number;
  #settings: HttpSessionSettings;
  #sweeper: ReturnType<typeof setInterval> | undefined;
  #isClosed = false;
  #bus: MessageBus;
  #busId: string | undefined;
  #node: string | undefined;
  #relays: StreamRelays | undefined;
  #unsubscribe: Array<Awaitable<() => void>>;
  /** Settles once this registry's bus subscriptions are in place; undefined when none waited. */
  readonly ready: Promise<void> | undefined;

  /**
   * This handler's name on the bus (what it published itself it ignores). Made at first use, not at
   * construction: a Worker builds its handler in global scope, where workerd refuses random values.
   */
  get busId(): string {
    return (this.#busId ??= crypto.randomUUID());
  }

  /** This handler's tag in the stream ids it makes (a resumed stream is continued by its holder). */
  get node(): string {
    return (this.#node ??= nodeTagOf(this.busId));
  }

  constructor(limits: SessionLimits, settings: HttpSessionSettings, bus: MessageBus) {
    this.#store = settings.sessions;
    this.#limits = { ...limits, isPinned: (id) => this.#sessions.get(id)?.hasRequestsInFlight ?? false };
    this.#touchPeriodMs = Math.min(this.#store.touchPeriodMs ?? 0, limits.idleTimeoutMs / 60);
    this.#liveIdleMs = Math.min(this.#store.liveIdleMs ?? Infinity, limits.idleTimeoutMs);
    this.#recordCacheMs = Math.min(this.#store.recordCacheMs ?? 0, limits.idleTimeoutMs / 60);
    this.#settings = settings;
    this.#bus = bus;
    this.#unsubscribe = [
      bus.subscribe(BusTopic.sessionEnded, (message) => {
        if (message.from !== this.busId) void this.#live(message.sessionId)?.close();
      }),
      bus.subscribe(BusTopic.sessionMessage, (message) => {
        if (message.from !== this.busId) this.#live(message.sessionId)?.deliver(message.message as Message);
      }),
      bus.subscribe(BusTopic.sessionChanged, (message) => {
        const record = message.record as unknown as SessionRecord | undefined;
        if (message.from !== this.busId && record) this.#live(record.id)?.adopt(record);
      }),
      ...[BusTopic.streamResume, BusTopic.streamRelay, BusTopic.streamDetach].map((topic) =>
        bus.subscribe(topic, (message) => {
          if (message.from !== this.busId) this.#relaysMade().take(topic, message);
        }),
      ),
    ];
    for (const off of this.#unsubscribe) {
      if (off instanceof Promise) off.catch((error: unknown) => settings.onError(asError(error)));
    }
    this.ready = whenSubscribed(this.#unsubscribe);
  }

  /** Publishes on the bus, reporting a failure to deliver. */
  publish(topic: string, message: JsonObject): void {
    void this.#publishing(topic, message);
  }

  /** Publishes on the bus; settles (never rejecting) once the bus has taken the message. */
  async #publishing(topic: string, message: JsonObject): Promise<void> {
    try {
      await this.#bus.publish(topic, { ...message, from: this.busId });
    } catch (error) {
      this.#settings.onError(asError(error));
    }
  }

  /**
   * Publishes a client's answer or cancellation for the handler it belongs to. Rejects when the bus
   * cannot take it, so the POST is not answered 202 for a message that went nowhere (a
   * StoreUnavailableError is a 503 with Retry-After, and the client can send it again).
   */
  async forward(session: HttpSession, message: Message): Promise<void> {
    await this.#bus.publish(BusTopic.sessionMessage, {
      sessionId: session.id,
      message: message as unknown as JsonObject,
      from: this.busId,
    });
  }

  relay(
    session: HttpSession,
    streamId: string,
    lastEventId: string,
  ): Promise<ReadableStream<Uint8Array> | undefined> {
    return this.#relaysMade().request(session.id, streamId, lastEventId);
  }

  #relaysMade(): StreamRelays {
    return (this.#relays ??= new StreamRelays({
      busId: this.busId,
      publish: (topic, message) => this.publish(topic, message),
      continueStream: async (sessionId, streamId, lastEventId): Promise<SseConnection | undefined> => {
        const session = this.#sessions.get(sessionId);
        if (session === undefined) return undefined;
        const replay = await this.#settings.store.replayAfter(lastEventId);
        return replay?.streamId === streamId ? session.continueStream(streamId, lastEventId) : undefined;
      },
      maxBufferedBytes: this.#settings.maxSseBufferBytes,
    }));
  }

  changed(record: SessionRecord): Promise<void> {
    return this.#publishing(BusTopic.sessionChanged, { record: record as unknown as JsonObject });
  }

  #live(id: unknown): HttpSession | undefined {
    return typeof id === 'string' ? this.#sessions.get(id) : undefined;
  }

  /** Live sessions here. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Seconds until the next idle sweep could free a session (the `Retry-After` of a 503); at least 1. */
  get retryAfterSeconds(): number {
    const idleMs = this.#limits.idleTimeoutMs;
    if (!Number.isFinite(idleMs)) return 60;
    return Math.max(1, Math.ceil(sweepPeriodMs(idleMs) / 1000));
  }

  /**
   * Creates a session served by `server` for `owner` (its principal, and the client key its
   * per-client cap counts; no key: only the global cap applies). Evicts first where a cap is
   * reached; the refusal when nothing under that cap can be evicted.
   */
  async create(
    server: ChannelServer,
    owner: { principal: string | undefined; clientKey: string | undefined },
  ): Promise<HttpSession | SessionRefusal> {
    const now = Date.now();
    const draft: SessionRecord = {
      id: crypto.randomUUID(),
      ...(owner.principal === undefined ? {} : { principal: owner.principal }),
      ...(owner.clientKey === undefined ? {} : { clientKey: owner.clientKey }),
      createdAt: now,
      lastActiveAt: now,
      revision: 0,
    };
    const pending = this.#store.create(draft, this.#limits);
    const created = pending instanceof Promise ? await pending : pending;
    if ('refused' in created) return created.refused;
    for (const id of created.evicted) {
      void this.#sessions.get(id)?.close();
      this.publish(BusTopic.sessionEnded, { sessionId: id });
    }
    return this.#serve(server, created.record);
  }

  /**
   * The session with this id if `principal` owns it: the one live here (with the record's newer
   * facts) or one brought to life from its record. Answers at once when the store does, or when the
   * session is live here and its record was read within `recordCacheMs` (the bus keeps it current).
   */
  find(
    server: ChannelServer,
    id: string,
    principal: string | undefined,
  ): HttpSession | undefined | Promise<HttpSession | undefined> {
    if (this.#isClosed) return undefined;
    const live = this.#sessions.get(id);
    // Without a record cache (the in-memory store) no clock read: every request reads the record.
    if (live !== undefined && this.#recordCacheMs > 0 && Date.now() - live.readAt < this.#recordCacheMs) {
      return live.principal === principal ? live : undefined;
    }
    const pending = this.#store.get(id);
    return pending instanceof Promise
      ? pending.then((record) => this.#found(server, id, principal, record))
      : this.#found(server, id, principal, pending);
  }

  #found(
    server: ChannelServer,
    id: string,
    principal: string | undefined,
    record: SessionRecord | undefined,
  ): HttpSession | undefined {
    const live = this.#sessions.get(id);
    if (record === undefined) {
      // Ended elsewhere (or expired): what is left of it here goes too.
      if (live) void live.close();
      return undefined;
    }
    if (record.principal !== principal || this.#isClosed) return undefined;
    if (live) {
      live.adopt(record);
      if (this.#recordCacheMs > 0) live.readAt = Date.now();
      return live;
    }
    return this.#serve(server, record);
  }

  /**
   * Restarts the session's idle time (any traffic counts). A store with a `touchPeriodMs` is told at
   * most once per that period per session: on a shared store each touch is a round trip, and a POST
   * touches twice (when it arrives and when it is answered).
   */
  touch(session: HttpSession): void {
    const now = Date.now();
    session.lastActiveAt = now;
    if (now - session.storedActiveAt < this.#touchPeriodMs) return;
    session.storedActiveAt = now;
    const pending = this.#store.touch(session.id, now);
    if (pending instanceof Promise) pending.catch((error: unknown) => this.#settings.onError(asError(error)));
  }

  /** Ends the session everywhere: its record is deleted and what is live of it here closed. */
  async end(session: HttpSession): Promise<void> {
    const pending = this.#store.delete(session.id);
    if (pending instanceof Promise) await pending;
    // Taken by the bus before the DELETE is answered: the nodes serving the session from the record
    // they hold (SessionStore.recordCacheMs) get the message before the client's next request.
    await this.#publishing(BusTopic.sessionEnded, { sessionId: session.id });
    await session.close();
  }

  /**
   * Closes every live session here; this handler then finds none. Their records and their streams'
   * events stay: other handlers sharing the stores may serve them and resume their streams.
   */
  async closeAll(): Promise<void> {
    this.#isClosed = true;
    this.#relays?.close();
    for (const off of this.#unsubscribe.splice(0)) {
      if (off instanceof Promise)
        off.then(
          (fn) => fn(),
          () => {},
        );
      else off();
    }
    await Promise.all([...this.#sessions.values()].map((session) => session.release()));
  }

  /** A session closed here: it is no longer live here. */
  forget(session: HttpSession): void {
    if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
    if (this.#sessions.size === 0 && this.#sweeper !== undefined) {
      clearInterval(this.#sweeper);
      this.#sweeper = undefined;
    }
  }

  #serve(server: ChannelServer, record: SessionRecord): HttpSession {
    const session = new HttpSession(record, this.#settings, this);
    this.#sessions.set(session.id, session);
    if (Number.isFinite(this.#liveIdleMs)) this.#sweeper ??= this.#startSweeper();
    server.connect(session);
    return session;
  }

  #startSweeper(): ReturnType<typeof setInterval> {
    const idleMs = this.#limits.idleTimeoutMs;
    const periodMs =
      this.#liveIdleMs < idleMs
        ? Math.min(sweepPeriodMs(idleMs), Math.max(1, Math.floor(this.#liveIdleMs / 4)))
        : sweepPeriodMs(idleMs);
    const timer = setInterval(() => this.#sweep(), periodMs);
    (timer as { unref?: () => void }).unref?.();
    return timer;
  }

  #sweep(): void {
    const now = Date.now();
    for (const session of this.#sessions.values()) {
      const idleFor = now - session.lastActiveAt;
      if (idleFor < this.#liveIdleMs) continue;
      if (idleFor >= this.#limits.idleTimeoutMs) {
        // Busy (a request in flight, a stream attached) counts as activity.
        if (session.isBusy) this.touch(session);
        else void this.#letGo(session);
      } else if (!session.isBusy) {
        // Idle here for the store's liveIdleMs: its record stays, and its next request brings it back.
        void session.release();
      }
    }
  }

  /** An idle session here: ended if its record expired too, else only released here. */
  async #letGo(session: HttpSession): Promise<void> {
    try {
      const pending = this.#store.get(session.id);
      const record = pending instanceof Promise ? await pending : pending;
      if (record !== undefined && record.lastActiveAt <= session.lastActiveAt) await this.end(session);
      else await session.release();
    } catch (error) {
      this.#settings.onError(asError(error));
    }
  }
}

/** The idle sweep's period: 1/60 of the idle timeout, within setInterval's range (a larger delay would become 1 ms). */
function sweepPeriodMs(idleMs: number): number {
  return Math.min(Math.max(1, Math.floor(idleMs / 60)), 2 ** 31 - 1);
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

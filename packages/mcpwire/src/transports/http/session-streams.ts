// The SSE streams of one handshake-era session: its POST streams (each with its lease on the
// requests it answers, when handlers share leases: issue 24, node death), its GET stream, and
// resumption (HTTP-23/24) here, on the handler that holds a stream, or from the event store.

import type { RequestId } from '../../jsonrpc/message.ts';
import type { HttpReply } from './exchange.ts';
import type { EventStore, StoredEvent } from './event-store.ts';
import { leasedStream, replaySettled } from './leased-streams.ts';
import type { PostStream } from './post-exchange.ts';
import type { RequestLeases } from './request-leases.ts';
import { ResumableStream, writeStored } from './sse-stream.ts';
import { SSE_HEADERS, SseConnection } from './sse-writer.ts';
import { holderOf, newStreamId } from './stream-relay.ts';

/** What the streams of a session need of its handler's settings. */
export interface SessionStreamSettings {
  store: EventStore;
  leases: RequestLeases | undefined;
  keepAliveMs: number;
  maxSseBufferBytes: number;
  onError: (error: Error) => void;
}

/** Where the streams belong: the session's id, this handler's tag, and the bus to other holders. */
export interface StreamsOwner {
  readonly sessionId: string;
  readonly node: string;
  /** A stream held live by another handler, continued from there; undefined when none holds it. */
  relay(streamId: string, lastEventId: string): Promise<ReadableStream<Uint8Array> | undefined>;
}

/**
 * The streams of one session on this handler, made on the session's first stream. Stream ids name
 * the session and this handler (`newStreamId`), so a resumption on any handler finds the holder.
 */
export class SessionStreams {
  #owner: StreamsOwner;
  #settings: SessionStreamSettings;
  #standalone: ResumableStream | undefined;
  #live = new Map<string, ResumableStream>();
  #streamIds = new Set<string>();

  constructor(owner: StreamsOwner, settings: SessionStreamSettings) {
    this.#owner = owner;
    this.#settings = settings;
  }

  /** True while a client is attached to one of the streams. */
  get isAttached(): boolean {
    for (const stream of this.#live.values()) if (stream.isAttached) return true;
    return false;
  }

  /** A new POST stream for `requestIds`, holding their lease while it is open (if leases are shared). */
  openPostStream(requestIds: readonly RequestId[]): PostStream {
    return leasedStream(this.#newStream(), requestIds, this.#settings.leases);
  }

  /**
   * Opens the GET stream (HTTP-17..19), with a priming event when `priming` says so. Undefined when a
   * client is already attached to it (one GET stream per session).
   */
  openStandalone(priming: { retryMs: number } | undefined): HttpReply | undefined {
    if (this.#standalone?.isAttached) return undefined;
    this.#standalone ??= this.#newStream();
    const connection = this.newConnection();
    this.#standalone.open(connection, priming);
    return sseResponse(connection);
  }

  /** Sends on the GET stream; undefined when the session has none. */
  sendStandalone(message: Parameters<ResumableStream['send']>[0]): Promise<void> | undefined {
    return this.#standalone?.send(message);
  }

  /**
   * Resumes the stream `lastEventId` belongs to: replays what came after it, then continues the
   * stream if it is still live, here or (over the bus) on the handler that holds it, named in the
   * stream id. Undefined for an id this session does not know (unknown, evicted, another session's).
   */
  async resume(lastEventId: string): Promise<HttpReply | undefined> {
    const { store } = this.#settings;
    const { sessionId, node } = this.#owner;
    const replay = await store.replayAfter(lastEventId);
    // A store of the handler's own (not shared) does not know another handler's events: the id
    // still names the stream (`<streamId>:<n>`), whose holder replays it from its store.
    const streamId = replay?.streamId ?? lastEventId.slice(0, Math.max(0, lastEventId.lastIndexOf(':')));
    const holder = holderOf(streamId, sessionId);
    if (holder === undefined || (replay === undefined && holder === node)) return undefined;
    const here = replay === undefined ? undefined : this.continueStream(streamId, lastEventId);
    if (here !== undefined) return sseResponse(here);
    if (holder !== node) {
      const relayed = await this.#owner.relay(streamId, lastEventId);
      if (relayed !== undefined) return { status: 200, headers: { ...SSE_HEADERS }, body: relayed };
      if (replay === undefined) return undefined;
      const leases = this.#settings.leases;
      if (leases !== undefined) {
        // Not live anywhere: what the store has, and an error response for requests whose holder died.
        const connection = this.newConnection();
        const { onError } = this.#settings;
        void replaySettled(connection, { store, leases, streamId, lastEventId, onError });
        return sseResponse(connection);
      }
      // Not live anywhere (ended, or its handler is gone): what the store has, read again now.
      const now = await store.replayAfter(lastEventId);
      return this.#replayed(now?.events ?? replay.events);
    }
    return replay === undefined ? undefined : this.#replayed(replay.events);
  }

  /**
   * A new connection attached to the live stream `streamId` after `lastEventId`, if held here (the
   * caller made sure the id is one of that stream's, known to the event store).
   */
  continueStream(streamId: string, lastEventId: string): SseConnection | undefined {
    const live = this.#live.get(streamId);
    if (live === undefined || live.isFinished) return undefined;
    const connection = this.newConnection();
    live.resume(connection, lastEventId);
    return connection;
  }

  /** Finishes the streams here; `isEnded` (the session ended) also drops them from the event store. */
  finish(isEnded: boolean): void {
    for (const stream of this.#live.values()) stream.finish();
    for (const streamId of isEnded ? this.#streamIds : []) {
      this.#settings.store.drop(streamId).catch((error: unknown) => this.#settings.onError(asError(error)));
    }
  }

  newConnection(): SseConnection {
    const { keepAliveMs, maxSseBufferBytes } = this.#settings;
    return new SseConnection({ keepAliveMs, maxBufferedBytes: maxSseBufferBytes });
  }

  #replayed(events: readonly StoredEvent[]): HttpReply {
    const connection = this.newConnection();
    for (const event of events) writeStored(connection, event);
    connection.close();
    return sseResponse(connection);
  }

  #newStream(): ResumableStream {
    const live = this.#live;
    for (const [id, stream] of live) if (stream.isFinished) live.delete(id);
    const streamId = newStreamId(this.#owner.sessionId, this.#owner.node);
    const stream = new ResumableStream(streamId, this.#settings.store, this.#settings.onError);
    this.#streamIds.add(stream.id);
    live.set(stream.id, stream);
    return stream;
  }
}

/** An SSE response whose body is `connection`'s. */
export function sseResponse(connection: SseConnection): HttpReply {
  return { status: 200, headers: { ...SSE_HEADERS }, body: connection.body };
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}

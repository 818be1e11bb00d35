// Last-Event-ID on any handler (issue 24): a stream is continued by the handler that writes it (its
// id names that handler); another handler serving the resuming GET relays it over the message bus.

import type { JsonObject } from '../../jsonrpc/message.ts';
import { BusTopic } from './message-bus.ts';
import type { SseConnection } from './sse-writer.ts';

/** How long a resuming handler waits for the holder's answer before replaying from the store itself. */
export const RELAY_ANSWER_MS = 1_000;

/** What a relay needs of its handler: the bus, its name there, and the live streams it holds. */
export interface RelayHost {
  readonly busId: string;
  publish(topic: string, message: JsonObject): void;
  /**
   * A connection attached to the live stream `streamId` of session `sessionId` after `lastEventId`,
   * if held here and the id is one of its events in the event store.
   */
  continueStream(
    sessionId: string,
    streamId: string,
    lastEventId: string,
  ): Promise<SseConnection | undefined>;
  maxBufferedBytes: number;
}

/** A handler's short name in the stream ids it makes: 48 bits of its bus id. */
export function nodeTagOf(busId: string): string {
  return busId.replaceAll('-', '').slice(0, 12);
}

/** The id of a new stream of session `sessionId` held by the handler tagged `node`. */
export function newStreamId(sessionId: string, node: string): string {
  return `${sessionId}.${node}.${crypto.randomUUID()}`;
}

/** The handler tag in a stream id of session `sessionId`; undefined for another session's stream. */
export function holderOf(streamId: string, sessionId: string): string | undefined {
  if (!streamId.startsWith(`${sessionId}.`)) return undefined;
  const rest = streamId.slice(sessionId.length + 1);
  const dot = rest.indexOf('.');
  return dot < 0 ? undefined : rest.slice(0, dot);
}

interface Waiting {
  answer: (body: ReadableStream<Uint8Array> | undefined) => void;
  timer: ReturnType<typeof setTimeout>;
}

interface Relayed {
  controller: ReadableStreamDefaultController<Uint8Array>;
  holder: string;
}

/**
 * Both ends of relayed streams for one handler. Resuming side: `request` asks the holder (by its tag
 * in the stream id) to continue the stream after `lastEventId` and answers with a body fed by the
 * bus, or undefined when the holder does not hold it live or does not answer within
 * `RELAY_ANSWER_MS` (the caller then replays from the event store and ends). Holding side: `take`
 * attaches a connection to its live stream (ResumableStream.resume: replay after the id, then live,
 * in its queue, so nothing twice and nothing lost) and publishes the connection's text. Costs a bus
 * message per chunk of a relayed stream only; streams resumed where they are held cost nothing.
 */
export class StreamRelays {
  #host: RelayHost;
  #waiting = new Map<string, Waiting>();
  #relayed = new Map<string, Relayed>();
  /** Held here for another handler: the reader of the connection whose text is published. */
  #outgoing = new Map<string, ReadableStreamDefaultReader<Uint8Array>>();

  constructor(host: RelayHost) {
    this.#host = host;
  }

  /** Asks the holder tagged `holder` to continue `streamId` after `lastEventId` for a client here. */
  request(
    sessionId: string,
    streamId: string,
    lastEventId: string,
  ): Promise<ReadableStream<Uint8Array> | undefined> {
    const relayId = crypto.randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(relayId);
        resolve(undefined);
      }, RELAY_ANSWER_MS);
      (timer as { unref?: () => void }).unref?.();
      this.#waiting.set(relayId, { answer: resolve, timer });
      this.#host.publish(BusTopic.streamResume, { sessionId, streamId, lastEventId, relayId });
    });
  }

  /** A bus message of the relay topics. */
  take(topic: string, message: JsonObject): void {
    if (topic === BusTopic.streamResume) void this.#hold(message);
    else if (message.to !== this.#host.busId) return;
    else if (topic === BusTopic.streamRelay) this.#relay(message);
    else if (topic === BusTopic.streamDetach) void this.#outgoing.get(String(message.relayId))?.cancel();
  }

  /** Ends every relay (the handler closes). */
  close(): void {
    for (const waiting of this.#waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.answer(undefined);
    }
    this.#waiting.clear();
    for (const relayed of this.#relayed.values()) relayed.controller.close();
    this.#relayed.clear();
    for (const reader of this.#outgoing.values()) void reader.cancel();
  }

  async #hold(message: JsonObject): Promise<void> {
    const { sessionId, streamId, lastEventId, relayId, from } = message;
    if (typeof sessionId !== 'string' || typeof streamId !== 'string' || typeof lastEventId !== 'string')
      return;
    if (typeof relayId !== 'string' || typeof from !== 'string') return;
    if (holderOf(streamId, sessionId) !== nodeTagOf(this.#host.busId)) return;
    let connection: SseConnection | undefined;
    try {
      connection = await this.#host.continueStream(sessionId, streamId, lastEventId);
    } catch {
      // The event store failed: the stream is not continued from here (the other handler replays).
    }
    this.#host.publish(BusTopic.streamRelay, { to: from, relayId, live: connection !== undefined });
    if (connection !== undefined) void this.#pump(connection, from, relayId);
  }

  async #pump(connection: SseConnection, to: string, relayId: string): Promise<void> {
    const reader = connection.body.getReader();
    this.#outgoing.set(relayId, reader);
    const decoder = new TextDecoder();
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        const chunk = decoder.decode(read.value, { stream: true });
        if (chunk !== '') this.#host.publish(BusTopic.streamRelay, { to, relayId, chunk });
      }
    } catch {
      // The connection was cancelled (the client went away on the other handler).
    } finally {
      this.#outgoing.delete(relayId);
      this.#host.publish(BusTopic.streamRelay, { to, relayId, end: true });
    }
  }

  #relay(message: JsonObject): void {
    const relayId = String(message.relayId);
    const from = String(message.from);
    const waiting = this.#waiting.get(relayId);
    if (waiting !== undefined) {
      this.#waiting.delete(relayId);
      clearTimeout(waiting.timer);
      waiting.answer(message.live === true ? this.#open(relayId, from) : undefined);
      return;
    }
    const relayed = this.#relayed.get(relayId);
    if (relayed === undefined || relayed.holder !== from) {
      // An answer after the wait ended: the holder lets its connection go.
      if (message.live === true) this.#host.publish(BusTopic.streamDetach, { to: from, relayId });
      return;
    }
    if (typeof message.chunk === 'string') {
      relayed.controller.enqueue(encoder.encode(message.chunk));
      // A client that does not read: give up on it, as SseConnection does (a replay is counted here too).
      if ((relayed.controller.desiredSize ?? 0) < 0) this.#drop(relayId, relayed);
    } else if (message.end === true) {
      this.#relayed.delete(relayId);
      relayed.controller.close();
    }
  }

  #open(relayId: string, holder: string): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#relayed.set(relayId, { controller, holder });
        },
        cancel: () => {
          const relayed = this.#relayed.get(relayId);
          if (relayed !== undefined) this.#drop(relayId, relayed, false);
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: RELAY_BUFFER_FACTOR * this.#host.maxBufferedBytes }),
    );
  }

  #drop(relayId: string, relayed: Relayed, close = true): void {
    this.#relayed.delete(relayId);
    this.#host.publish(BusTopic.streamDetach, { to: relayed.holder, relayId });
    if (close) relayed.controller.error(new Error('The client does not read the resumed stream'));
  }
}

/** A relayed stream's buffer bound, in SSE buffer bounds: it also carries the replay. */
const RELAY_BUFFER_FACTOR = 4;

const encoder = new TextEncoder();

// One resumable handshake-era SSE stream (a POST's response stream or the session's GET stream):
// every event is stored before it is written, and a stream outlives its HTTP connections, so a
// client can reconnect with Last-Event-ID and continue it (HTTP-10, HTTP-22..24, SEP-1699).

import { encodeMessage } from '../../jsonrpc/codec.ts';
import type { Message } from '../../jsonrpc/message.ts';
import type { EventStore } from './event-store.ts';
import type { SseConnection } from './sse-writer.ts';

/**
 * A logical stream with at most one live connection. Operations run in call order on one queue,
 * so a store that answers asynchronously cannot reorder events or lose them across a reconnect.
 */
export class ResumableStream {
  readonly id: string;
  #store: EventStore;
  #onError: (error: Error) => void;
  #queue: Promise<void> = Promise.resolve();
  #connection: SseConnection | undefined;
  #isFinished = false;

  constructor(id: string, store: EventStore, onError: (error: Error) => void) {
    this.id = id;
    this.#store = store;
    this.#onError = onError;
  }

  /** True while a client connection is attached and open. */
  get isAttached(): boolean {
    return this.#connection?.isOpen === true;
  }

  /** True once the stream has ended (a POST stream after its last response). */
  get isFinished(): boolean {
    return this.#isFinished;
  }

  /** Attaches the first connection, starting with a priming event (id, empty data) when asked (HTTP-9). */
  open(connection: SseConnection, priming: { retryMs: number } | undefined): void {
    this.#attach(connection);
    if (!priming) return;
    void this.#enqueue(async () => {
      const id = await this.#store.append(this.id, '');
      connection.write({ id, retry: priming.retryMs, data: '' });
    });
  }

  /** Attaches a reconnecting client: replays what came after `lastEventId`, then continues (HTTP-24). */
  resume(connection: SseConnection, lastEventId: string): void {
    void this.#enqueue(async () => {
      const replay = await this.#store.replayAfter(lastEventId);
      for (const event of replay?.events ?? []) writeStored(connection, event);
      if (this.#isFinished) connection.close();
      else this.#attach(connection);
    });
  }

  /**
   * Stores one message and writes it to the live connection, if any. When the store fails (Redis
   * down), the message is still written live, without an id, and the failure reported: the live
   * client gets it, and only a client that reconnects after it misses it (HTTP-22). Dropping it
   * lost progress and, for a response or a request to the client, left the call waiting forever.
   */
  send(message: Message | readonly Message[]): Promise<void> {
    return this.#enqueue(async () => {
      const data = encodeMessage(message);
      let id: string;
      try {
        id = await this.#store.append(this.id, data);
      } catch (error) {
        this.#connection?.write({ event: 'message', data });
        throw error;
      }
      this.#connection?.write({ event: 'message', id, data });
    });
  }

  /** Closes the live connection without ending the stream: the client will poll (HTTP-10). */
  detach(): void {
    void this.#enqueue(() => {
      this.#connection?.close();
      this.#connection = undefined;
      return Promise.resolve();
    });
  }

  /** Ends the stream after the queued events; its events stay replayable until dropped. */
  finish(): void {
    void this.#enqueue(() => {
      this.#isFinished = true;
      this.#connection?.close();
      this.#connection = undefined;
      return Promise.resolve();
    });
  }

  /** Resolves once every operation queued so far is done (the events sent so far are stored). */
  drained(): Promise<void> {
    return this.#queue;
  }

  #attach(connection: SseConnection): void {
    this.#connection?.close();
    this.#connection = connection;
    connection.onGone(() => {
      if (this.#connection === connection) this.#connection = undefined;
    });
  }

  #enqueue(step: () => Promise<void>): Promise<void> {
    const next = this.#queue.then(step).catch((error: unknown) => {
      this.#onError(new Error(`SSE stream ${this.id}: event store failed`, { cause: error }));
    });
    this.#queue = next;
    return next;
  }
}

/** Writes one stored event to a connection as a replay: a priming event if its data is empty. */
export function writeStored(connection: SseConnection, event: { id: string; data: string }): void {
  connection.writeReplay(event.data === '' ? { id: event.id, data: '' } : { event: 'message', ...event });
}

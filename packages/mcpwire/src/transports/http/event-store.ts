// Resumability storage (HTTP-22..24, SEP-1699): every event a handshake-era SSE stream carries is
// stored under an id, so a client that reconnects with Last-Event-ID gets what it missed.

/** One stored event: its id and its `data` (a JSON-RPC message as text; empty for a priming event). */
export interface StoredEvent {
  id: string;
  data: string;
}

/**
 * Where SSE events are kept for replay. Implementations may be asynchronous (a database); the
 * handler serialises calls per stream, so events of one stream are appended in order.
 */
export interface EventStore {
  /** Stores one event of `streamId`; resolves with its id, unique across every stream. */
  append(streamId: string, data: string): Promise<string>;
  /**
   * The stream `lastEventId` belongs to and its events stored after it, oldest first; undefined
   * when the id is unknown or was evicted.
   */
  replayAfter(lastEventId: string): Promise<{ streamId: string; events: StoredEvent[] } | undefined>;
  /** Forgets a stream and its events (its session ended). */
  drop(streamId: string): Promise<void>;
}

/** Limits of the in-memory store. */
export interface InMemoryEventStoreOptions {
  /** Events kept per stream; older ones are evicted. Default 1,000. */
  maxEventsPerStream?: number;
  /** Streams kept; the least recently written is dropped first. Default 10,000. */
  maxStreams?: number;
}

interface Stream {
  /** Sequence number of the first event still in `events`. */
  first: number;
  events: string[];
}

/**
 * The default EventStore: process memory, bounded per stream and in streams. Event ids are
 * `<streamId>:<sequence>`, so an id names its stream (HTTP-22 SHOULD).
 */
export class InMemoryEventStore implements EventStore {
  #streams = new Map<string, Stream>();
  #maxEvents: number;
  #maxStreams: number;

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.#maxEvents = Math.max(1, options.maxEventsPerStream ?? 1_000);
    this.#maxStreams = Math.max(1, options.maxStreams ?? 10_000);
  }

  append(streamId: string, data: string): Promise<string> {
    let stream = this.#streams.get(streamId);
    if (stream) this.#streams.delete(streamId);
    else stream = { first: 0, events: [] };
    // Re-inserted: Map order is then least recently written first.
    this.#streams.set(streamId, stream);
    for (const oldest of this.#streams.keys()) {
      if (this.#streams.size <= this.#maxStreams) break;
      this.#streams.delete(oldest);
    }
    stream.events.push(data);
    if (stream.events.length > this.#maxEvents) {
      stream.events.shift();
      stream.first++;
    }
    return Promise.resolve(`${streamId}:${stream.first + stream.events.length - 1}`);
  }

  replayAfter(lastEventId: string): Promise<{ streamId: string; events: StoredEvent[] } | undefined> {
    const colon = lastEventId.lastIndexOf(':');
    const streamId = lastEventId.slice(0, colon);
    const digits = lastEventId.slice(colon + 1);
    const sequence = Number(digits);
    // Only the spelling we issue: `Number` would also read "", " 1", "01", "0x1" and "-1".
    const isIssuedForm = Number.isSafeInteger(sequence) && sequence >= 0 && String(sequence) === digits;
    const stream = colon < 0 ? undefined : this.#streams.get(streamId);
    if (!stream || !isIssuedForm || sequence < stream.first - 1) {
      return Promise.resolve(undefined);
    }
    const last = stream.first + stream.events.length - 1;
    if (sequence > last) return Promise.resolve(undefined);
    const events: StoredEvent[] = [];
    for (let n = sequence + 1; n <= last; n++) {
      events.push({ id: `${streamId}:${n}`, data: stream.events[n - stream.first] ?? '' });
    }
    return Promise.resolve({ streamId, events });
  }

  drop(streamId: string): Promise<void> {
    this.#streams.delete(streamId);
    return Promise.resolve();
  }
}

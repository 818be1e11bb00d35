// Server-Sent Events, writing side: an event encoder as a web TransformStream, and one open SSE
// response body (a connection) that knows when the client went away.

/** One SSE event. `comment` alone makes a keep-alive line (`: ...`), ignored by every client. */
export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
  comment?: string;
}

const encoder = new TextEncoder();

/**
 * The wire text of one event, ending with the blank line that dispatches it. Multi-line data
 * becomes one `data:` line per line. An event with an id and no data (`data` undefined or empty)
 * is a priming event (HTTP-9): it moves the client's Last-Event-ID without dispatching anything.
 */
export function encodeSseEvent(event: SseEvent): string {
  let text = '';
  if (event.comment !== undefined) text += `: ${event.comment.replace(/[\r\n]+/g, ' ')}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.retry !== undefined) text += `retry: ${Math.max(0, Math.floor(event.retry))}\n`;
  if (event.data !== undefined || event.id !== undefined) {
    for (const line of (event.data ?? '').split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  }
  return `${text}\n`;
}

/** A TransformStream from events to the UTF-8 bytes of an SSE body. */
export function createSseEncoder(): TransformStream<SseEvent, Uint8Array> {
  return new TransformStream<SseEvent, Uint8Array>({
    transform(event, controller) {
      controller.enqueue(encoder.encode(encodeSseEvent(event)));
    },
  });
}

/** What an event weighs while it waits: its text, plus a little for the field names. */
function sizeOfEvent(event: SseEvent): number {
  return (event.data?.length ?? 0) + (event.comment?.length ?? 0) + 32;
}

/** The default bound on what one SSE connection holds for a client that does not read: 4 MiB. */
export const DEFAULT_MAX_SSE_BUFFER_BYTES = 4 * 1024 * 1024;

/** The headers of every SSE response (S26-HTTP-7: no proxy buffering). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

/**
 * One open SSE response body. `write` never throws: after `close`, or once the client has gone,
 * events are dropped. `onGone` listeners run once, only when the client cancelled the body (never
 * after our own `close`). With `keepAliveMs`, a comment line goes out whenever that long passed
 * without an event (S26-HTTP-7 encourages them on long-lived streams). When more than
 * `maxBufferedBytes` of events wait for a client that does not read (UTF-16 units of their data,
 * besides what the socket holds), the connection is given up: the body errors, the adapter drops
 * the socket, and `onGone` listeners run, as if the client had left. A resumable stream keeps
 * those events in its store for a reconnection with Last-Event-ID.
 */
export class SseConnection {
  readonly body: ReadableStream<Uint8Array>;
  #writer: WritableStreamDefaultWriter<SseEvent>;
  #state: 'open' | 'closed' | 'gone' = 'open';
  #onGone: Array<() => void> = [];
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #isIdle = true;
  readonly #maxBufferedBytes: number;
  /** Weight of the live events written and not yet taken by the reader. */
  #waiting = 0;
  /** Replayed events written and not yet taken by the reader. */
  #replaysWaiting = 0;

  constructor(options: { keepAliveMs?: number; maxBufferedBytes?: number } = {}) {
    this.#maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_MAX_SSE_BUFFER_BYTES;
    const { readable, writable } = new TransformStream<SseEvent, Uint8Array>({
      // Events leave the queue in write order, so the replayed ones (all written first) leave first.
      transform: (event, controller) => {
        if (this.#replaysWaiting > 0) this.#replaysWaiting--;
        else this.#waiting -= sizeOfEvent(event);
        controller.enqueue(encoder.encode(encodeSseEvent(event)));
      },
    });
    this.body = readable;
    this.#writer = writable.getWriter();
    // Cancelling the readable side errors the writable side: that is the client going away.
    this.#writer.closed.catch(() => this.#gone());
    const every = options.keepAliveMs;
    if (every !== undefined && every > 0 && Number.isFinite(every)) {
      this.#keepAlive = setInterval(() => {
        if (this.#isIdle) this.write({ comment: 'keep-alive' });
        this.#isIdle = true;
      }, every);
      (this.#keepAlive as { unref?: () => void }).unref?.();
    }
  }

  /** True until `close` is called or the client goes away. */
  get isOpen(): boolean {
    return this.#state === 'open';
  }

  /** Queues one event; dropped if the connection is no longer open. Past the bound, gives up on the client. */
  write(event: SseEvent): void {
    if (this.#state !== 'open') return;
    this.#isIdle = false;
    this.#writer.write(event).catch(() => this.#gone());
    const size = sizeOfEvent(event);
    this.#waiting += size;
    // One event alone always passes, however large.
    if (this.#waiting > this.#maxBufferedBytes && this.#waiting > size) this.#overflow();
  }

  /**
   * Queues one event replayed from the event store. Replays are not counted against the bound:
   * the store already holds their text (and bounds it), and a client catching up on a long replay
   * must not be dropped for it.
   */
  writeReplay(event: SseEvent): void {
    if (this.#state !== 'open') return;
    this.#isIdle = false;
    this.#writer.write(event).catch(() => this.#gone());
    this.#replaysWaiting++;
  }

  /** Ends the body after the queued events. Idempotent. */
  close(): void {
    if (this.#state !== 'open') return;
    this.#state = 'closed';
    clearInterval(this.#keepAlive);
    this.#writer.close().catch(() => {});
  }

  /** Runs `listener` when the client goes away (at once if it already has). */
  onGone(listener: () => void): void {
    if (this.#state === 'gone') listener();
    else this.#onGone.push(listener);
  }

  #overflow(): void {
    this.#writer.abort(new Error('The client did not read its SSE stream')).catch(() => {});
    this.#gone();
  }

  #gone(): void {
    if (this.#state !== 'open') return;
    this.#state = 'gone';
    clearInterval(this.#keepAlive);
    for (const listener of this.#onGone.splice(0)) listener();
  }
}

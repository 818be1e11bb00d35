// The requests a server has read but not yet answered, for a graceful end of input: when the client
// closes stdin right after its last requests (`cat requests.ndjson | server`), those still get
// their responses before the channel closes (LIFE-13: the client closes stdin and waits for the exit).

import type { Frame } from '../../jsonrpc/codec.ts';
import type { Message, RequestId } from '../../jsonrpc/message.ts';

/**
 * Tracks request ids read from the client until a response with the id is sent or it is cancelled.
 * A request answered while it is being delivered (a synchronous handler: most of them) never enters
 * the set: only the ones still waiting when their delivery returns do.
 */
export class UnansweredRequests {
  // Made on the first id and dropped with the last, as the Peer's maps are: a Set kept for the
  // channel's life sits in V8's old generation, and so does every table it makes growing and
  // shrinking, so pipelined batches (0 -> 32 -> 0 ids) filled the old generation with dead tables
  // (about 50 bytes a call) and forced full collections; a fresh Set per burst dies young.
  #ids: Set<RequestId> | undefined;

  // The request being delivered right now, and whether its response was sent meanwhile. Checking
  // one id per response costs less than a Set's add and delete (and its tables) per request.
  #delivering: RequestId | undefined;
  #isDeliveringAnswered = false;

  get size(): number {
    return this.#ids?.size ?? 0;
  }

  /**
   * Hands `frame`, read from the client, to `deliver`, and notes the requests in it that `deliver`
   * did not answer (through `sent`) before it returned; forgets the ones a cancellation names.
   */
  receive(frame: Frame, deliver: (frame: Frame) => void): void {
    const id = frame.type === 'message' ? requestIdOf(frame.message) : undefined;
    if (id === undefined) {
      this.#readFrame(frame);
      deliver(frame);
      return;
    }
    // A channel that delivers a frame while it delivers another (none does) keeps the outer one.
    const outer = this.#delivering;
    const isOuterAnswered = this.#isDeliveringAnswered;
    this.#delivering = id;
    this.#isDeliveringAnswered = false;
    try {
      deliver(frame);
    } finally {
      if (!this.#isDeliveringAnswered) (this.#ids ??= new Set()).add(id);
      this.#delivering = outer;
      this.#isDeliveringAnswered = isOuterAnswered;
    }
  }

  #readFrame(frame: Frame): void {
    if (frame.type === 'message') this.#read(frame.message);
    else if (frame.type === 'batch')
      for (const item of frame.items) if (item.type === 'message') this.#read(item.message);
  }

  /** Forgets the requests a message (or batch) sent to the client answers. */
  sent(message: Message | readonly Message[]): void {
    const delivering = this.#delivering;
    if (
      delivering !== undefined &&
      !Array.isArray(message) &&
      !('method' in message) &&
      (message as { id?: unknown }).id === delivering
    ) {
      this.#isDeliveringAnswered = true;
      return;
    }
    if (this.#ids === undefined) return;
    if (Array.isArray(message)) for (const item of message as readonly Message[]) this.#sent(item);
    else this.#sent(message as Message);
  }

  #read(message: Message): void {
    if (!('method' in message)) return;
    const id = requestIdOf(message);
    if (id !== undefined) (this.#ids ??= new Set()).add(id);
    else if (message.method === 'notifications/cancelled') {
      // A cancelled request gets no response (CANCEL-5): nothing to wait for.
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.#forget(requestId);
    }
  }

  #sent(message: Message): void {
    if ('method' in message || !('id' in message)) return;
    const id = message.id;
    if (id !== null && id !== undefined) this.#forget(id);
  }

  #forget(id: RequestId): void {
    const ids = this.#ids;
    if (!ids?.has(id)) return;
    if (ids.size === 1) this.#ids = undefined;
    else ids.delete(id);
  }
}

/** The id of `message` when it is a request (a call with a non-null id), else undefined. */
function requestIdOf(message: Message): RequestId | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const id = message.id;
  return id === undefined || id === null ? undefined : id;
}

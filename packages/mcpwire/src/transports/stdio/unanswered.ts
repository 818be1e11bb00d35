// The requests a server has read but not yet answered, for a graceful end of input: when the client
// closes stdin right after its last requests (`cat requests.ndjson | server`), those still get
// their responses before the channel closes (LIFE-13: the client closes stdin and waits for the exit).

import type { Frame } from '../../jsonrpc/codec.ts';
import type { Message, RequestId } from '../../jsonrpc/message.ts';

/** Tracks request ids read from the client until a response with the id is sent or it is cancelled. */
export class UnansweredRequests {
  // Made on the first id and dropped with the last, as the Peer's maps are: a Set kept for the
  // channel's life sits in V8's old generation, and so does every table it makes growing and
  // shrinking, so pipelined batches (0 -> 32 -> 0 ids) filled the old generation with dead tables
  // (about 50 bytes a call) and forced full collections; a fresh Set per burst dies young.
  #ids: Set<RequestId> | undefined;

  get size(): number {
    return this.#ids?.size ?? 0;
  }

  /** Notes the requests in a frame read from the client, and forgets the ones it cancels. */
  read(frame: Frame): void {
    if (frame.type === 'message') this.#read(frame.message);
    else if (frame.type === 'batch')
      for (const item of frame.items) if (item.type === 'message') this.#read(item.message);
  }

  /** Forgets the requests a message (or batch) sent to the client answers. */
  sent(message: Message | readonly Message[]): void {
    if (this.#ids === undefined) return;
    if (Array.isArray(message)) for (const item of message as readonly Message[]) this.#sent(item);
    else this.#sent(message as Message);
  }

  #read(message: Message): void {
    if (!('method' in message)) return;
    if ('id' in message && message.id !== undefined && message.id !== null)
      (this.#ids ??= new Set()).add(message.id);
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

// Ids of requests a handler sends to the client (issue 24): unique across the handlers serving one
// session, so an answer POSTed to any handler is taken by the one that sent the request, and only there.

import type { Message, RequestId } from '../../jsonrpc/message.ts';
import { isRequest, isResponse } from '../../jsonrpc/message.ts';

/** Requests to the client remembered at most (the oldest is forgotten: one never answered). */
const MAX_AWAITED = 1024;

/**
 * One session's requests sent to the client from this handler and not yet answered: the id on the
 * wire (the handler's tag, a dash, the server session's id) and the server session's own id.
 */
export class WireIds {
  readonly #node: string;
  readonly #awaiting = new Map<string, RequestId>();

  constructor(node: string) {
    this.#node = node;
  }

  /**
   * What goes on the wire for a message to the client: a request gets the tagged id, remembered
   * (a bounded map); a cancellation of such a request names that id. Anything else as it is.
   */
  toWire(message: Message): Message {
    if (isRequest(message)) {
      const wireId = `${this.#node}-${message.id}`;
      if (this.#awaiting.size >= MAX_AWAITED) this.#awaiting.delete(this.#awaiting.keys().next().value!);
      this.#awaiting.set(wireId, message.id);
      return { ...message, id: wireId };
    }
    if ((message as { method?: unknown }).method !== 'notifications/cancelled') return message;
    const params = (message as { params?: { requestId?: unknown } }).params;
    const wireId = `${this.#node}-${String(params?.requestId)}`;
    if (!this.#awaiting.has(wireId)) return message;
    return { ...message, params: { ...params, requestId: wireId } } as Message;
  }

  /** A client's message as the server session knows it: an answer to a request sent here gets its own id back. */
  fromWire(message: Message): Message {
    if (!isResponse(message) || typeof message.id !== 'string') return message;
    const id = this.#awaiting.get(message.id);
    if (id === undefined) return message;
    this.#awaiting.delete(message.id);
    return { ...message, id } as Message;
  }

  /** True when `id` is the wire id of a request sent here and not yet answered. */
  has(id: RequestId): boolean {
    return typeof id === 'string' && this.#awaiting.has(id);
  }
}

// The requests a client channel has sent and not yet seen answered: which POST carries each answer,
// matching responses to them, and dropping a response that arrives a second time (a replay).

import type { Frame } from '../../jsonrpc/codec.ts';
import {
  isRequest,
  isResponse,
  type JsonObject,
  type Message,
  type RequestId,
} from '../../jsonrpc/message.ts';
import { claimOf, isBatch } from './http-messages.ts';

/** One frame that is not a batch. */
export type SingleFrame = Exclude<Frame, { type: 'batch' }>;

/** A request sent on the channel whose response has not been delivered. */
export interface PendingRequest {
  method: string;
  isStateless: boolean;
  /** Aborts the POST (and its stream) that carries the response. */
  controller: { abort(reason?: unknown): void };
}

/** How many delivered response ids are remembered to drop replays. */
const ANSWERED_LIMIT = 256;

/**
 * The pending requests of one channel, by id. `match` takes each incoming frame: a response to a
 * pending request ends it (and may be rewritten by `onResult`), a response to one already answered
 * is dropped, anything else passes unchanged.
 */
export class PendingRequests {
  readonly #byId = new Map<RequestId, PendingRequest>();
  readonly #answered = new Set<RequestId>();

  add(id: RequestId, request: PendingRequest): void {
    this.#byId.set(id, request);
  }

  /** Registers the requests in `message` (not sent through the Streamable path); returns their ids. */
  addAll(message: Message | readonly Message[]): RequestId[] {
    const ids: RequestId[] = [];
    for (const item of isBatch(message) ? message : [message]) {
      if (!isRequest(item)) continue;
      ids.push(item.id);
      const isStateless = claimOf(item) !== undefined;
      this.add(item.id, { method: item.method, isStateless, controller: new AbortController() });
    }
    return ids;
  }

  get(id: RequestId): PendingRequest | undefined {
    return this.#byId.get(id);
  }

  delete(id: RequestId): void {
    this.#byId.delete(id);
  }

  /** True while any of `ids` awaits its response. */
  isOwed(ids: readonly RequestId[]): boolean {
    return ids.some((id) => this.#byId.has(id));
  }

  /** Stops waiting for `request`, and aborts the exchange that carries its response. */
  forget(request: PendingRequest): void {
    for (const [id, entry] of this.#byId) if (entry === request) this.#byId.delete(id);
    request.controller.abort();
  }

  /** Aborts every exchange and forgets every request (the channel closed). */
  abortAll(): void {
    for (const request of this.#byId.values()) request.controller.abort();
    this.#byId.clear();
  }

  /** Matches one incoming frame; undefined means drop it (a replayed response). */
  match(
    frame: SingleFrame,
    onResult: (request: PendingRequest, result: JsonObject) => JsonObject,
  ): SingleFrame | undefined {
    if (frame.type !== 'message' || !isResponse(frame.message)) return frame;
    const response = frame.message;
    const id = response.id;
    if (id === undefined) return frame;
    const request = this.#byId.get(id);
    if (request === undefined) return this.#answered.has(id) ? undefined : frame;
    this.#byId.delete(id);
    this.#answered.add(id);
    if (this.#answered.size > ANSWERED_LIMIT) this.#answered.delete(this.#answered.values().next().value!);
    if (!('result' in response)) return frame;
    const result = onResult(request, response.result);
    return result === response.result ? frame : { type: 'message', message: { ...response, result } };
  }
}

// The seam through which an extension adds a notification kind to `subscriptions/listen` streams
// (S26-SUB-1: opt-in by a key of the request's `notifications` filter): it decides what it honours,
// may refuse the listen, and sends its notifications only after the acknowledgement (S26-SUB-2).

import type { JsonObject, RequestId } from '../jsonrpc/message.ts';
import { readEnvelope } from '../protocol/envelope.ts';
import type { Principal } from '../protocol/principal.ts';
import type { ClientCapabilities } from '../protocol/types/index.ts';
import type { StatelessRequest, StatelessStream } from './stateless.ts';

/** What a feed may know of the listen request that asks for it. */
export interface ListenRequest {
  readonly id: RequestId;
  /** The capabilities this very request declares (its `_meta` envelope). */
  readonly clientCapabilities: ClientCapabilities;
  /** The caller, as the transport authenticated it. */
  readonly auth: Principal | undefined;
  /** Aborts when the stream ends. */
  readonly signal: AbortSignal;
}

/** One feed opened for one listen stream. */
export interface OpenedListenFeed {
  /** What the acknowledgement echoes under the feed's key (JSON); undefined leaves the key out (S26-SUB-2). */
  readonly honoured: unknown;
  /**
   * Called once, right after the acknowledgement is sent: `send` delivers a notification on the
   * stream, tagged with the subscription id (S26-SUB-3). Returns the function that stops the feed,
   * called when the stream ends.
   */
  start(send: (method: string, params: JsonObject) => void): () => void;
}

/** A notification kind an extension offers on listen streams (`ServerExtensionPart.listen`). */
export interface ListenFeed {
  /** The key of the request's `notifications` filter that asks for this feed (e.g. `taskIds`). */
  readonly key: string;
  /**
   * Opens the feed for a listen whose filter has `key` (`value` is what the filter holds there).
   * Rejects with an RpcError to refuse the whole listen (e.g. -32021 for a missing capability).
   */
  open(value: unknown, request: ListenRequest): Promise<OpenedListenFeed>;
}

/** The feeds one listen stream opened, merged. */
export interface OpenedFeeds {
  /** Added to the acknowledgement's `notifications`. */
  readonly honoured: JsonObject;
  /** Starts every feed; returns the function that stops them all. */
  start(send: (method: string, params: JsonObject) => void): () => void;
}

/**
 * Opens the feeds the request's filter asks for, or returns undefined when it asks for none (the
 * usual case: no allocation and no await before the acknowledgement).
 */
export function openListenFeeds(
  feeds: readonly ListenFeed[] | undefined,
  request: StatelessRequest,
  stream: StatelessStream,
): Promise<OpenedFeeds> | undefined {
  const filter = request.params.notifications as JsonObject;
  const asked = feeds?.filter((feed) => filter[feed.key] !== undefined);
  if (!asked || asked.length === 0) return undefined;
  const listenRequest: ListenRequest = {
    id: request.id,
    clientCapabilities: readEnvelope(request.params).capabilities,
    auth: stream.principalOf?.(request.id),
    signal: request.signal,
  };
  return Promise.all(asked.map((feed) => feed.open(filter[feed.key]!, listenRequest))).then((opened) => {
    const honoured: JsonObject = {};
    opened.forEach((feed, index) => {
      if (feed.honoured !== undefined) honoured[asked[index]!.key] = feed.honoured;
    });
    return {
      honoured,
      start: (send) => {
        const stops = opened.map((feed) => feed.start(send));
        return () => stops.forEach((stop) => stop());
      },
    };
  });
}

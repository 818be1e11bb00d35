// Leases on in-flight handshake-era requests (issue 24, node death): the handler answering a POST on
// an SSE stream holds a lease on its requests, renewed while they run; a handler resuming that stream
// after its holder went silent finds the lease run out and answers the requests with an error itself.

import type { JsonRpcResponse, RequestId } from '../../jsonrpc/message.ts';

/**
 * The error code of a request whose serving handler stopped before answering it (its lease ran
 * out): -32004, in JSON-RPC's implementation-defined server error range (-32000..-32099), below the
 * block 2026-07-28 reserves (-32020..-32099). The request may or may not have taken effect.
 */
export const HOLDER_STOPPED = -32004;

/** The error response a resuming handler writes for request `id` whose holder stopped. */
export function holderStoppedResponse(id: RequestId): JsonRpcResponse {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: HOLDER_STOPPED,
      message:
        'The node serving this request stopped before answering (its lease ran out); the request may or may not have taken effect',
    },
  };
}

/** A lease held on one stream's requests. */
export interface RequestLease {
  /**
   * Lets the lease go: with `isAnswered` (every request got its response, stored) it is forgotten;
   * otherwise (the session closed here with requests unanswered) it is given up at once, so a
   * handler resuming the stream answers them without waiting for the lease to run out.
   */
  end(isAnswered: boolean): void;
}

/** What a resuming handler learns of a stream's lease from `settle`. */
export type LeaseOutcome =
  /** Its holder still renews it (alive, though it did not continue the stream). */
  | { readonly state: 'held' }
  /**
   * It ran out (or was given up) with these requests unanswered, and this caller claimed them:
   * no other handler will, so the caller writes their error responses.
   */
  | { readonly state: 'lost'; readonly requestIds: readonly RequestId[] }
  /** There is none: its requests were answered, it never was, or another handler claimed it. */
  | { readonly state: 'none' };

/**
 * Leases on the requests of handshake-era POST streams, shared by every handler that shares the
 * event store (`createHttpHandler`'s `leases`). Without it (the default, one process), a stream
 * whose holder is gone is replayed and ended, as its requests cannot outlive the process anyway.
 */
export interface RequestLeases {
  /**
   * Takes a lease on `requestIds`, answered on stream `streamId`, and keeps it renewed until `end`.
   * Called once when the stream opens; never awaited by the caller (no round trip on its path).
   */
  hold(streamId: string, requestIds: readonly RequestId[]): RequestLease;
  /**
   * Called by a handler resuming `streamId` whose holder did not continue it: waits while the lease
   * is still held (at most about one lease period), then claims it if it ran out. Atomic: of
   * handlers settling one stream at once, one gets `lost`.
   */
  settle(streamId: string): Promise<LeaseOutcome>;
}

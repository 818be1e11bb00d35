// Polling (2025-11-25, SEP-1699): an ability some channels offer the server beside the transport
// contract, looked up on the channel by name, so the contract carries messages only (issue 23).

import type { RequestId } from '../jsonrpc/message.ts';
import type { Channel } from '../transports/channel.ts';

/**
 * A channel that can let a client poll: it drops the connection carrying the messages related to
 * `requestId` while the request stays resumable, so the client reconnects later and receives the
 * rest, the result included. Returns false, doing nothing, where the client could not resume (a
 * revision or client without resumption, a request already answered). Streamable HTTP sessions
 * offer it (`transports/http/http-session.ts`); other channels do not.
 */
export interface PollingChannel {
  disconnectForPolling(requestId: RequestId): boolean;
}

/** Asks `channel` to let the client of `requestId` poll; false where the channel cannot. */
export function disconnectForPolling(channel: Channel, requestId: RequestId): boolean {
  const ability = (channel as Partial<PollingChannel>).disconnectForPolling;
  return typeof ability === 'function' ? ability.call(channel, requestId) : false;
}

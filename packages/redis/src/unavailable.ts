// Turns a failure to reach Redis into the library's StoreUnavailableError, so the HTTP handler answers
// 503 with Retry-After instead of 500; an error Redis itself replied (a script's) stays what it is,
// but for the replies that mean "not now" (a Redis Cluster failing over, a node loading its data).

import { StoreUnavailableError } from 'mcpwire/http';
import { ErrorReply } from 'redis';

/**
 * Error replies that say the data is there but cannot be served right now: a cluster with a slot
 * not served (CLUSTERDOWN) or being moved (TRYAGAIN), a replica cut from its master (MASTERDOWN), a
 * node loading its data (LOADING), a read-only replica written to (READONLY, after a failover).
 */
const TRANSIENT_REPLY = /^(CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING|READONLY)\b/;

/** Runs `call`; a rejection other than a Redis error reply (or a TRANSIENT_REPLY) becomes a StoreUnavailableError naming `store`. */
export async function orUnavailable<T>(store: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ErrorReply && !TRANSIENT_REPLY.test(error.message)) throw error;
    // The message goes to the client: the driver's words (an address, a port) stay in `cause`,
    // which the handler reports to onError.
    throw new StoreUnavailableError(`The ${store} is unavailable; retry later`, { cause: error });
  }
}

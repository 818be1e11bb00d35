// Turns a failure to reach Redis into the library's StoreUnavailableError, so the HTTP handler answers
// 503 with Retry-After instead of 500; an error Redis itself replied (a script's) stays what it is.

import { StoreUnavailableError } from 'mcpwire/http';
import { ErrorReply } from 'redis';

/** Runs `call`; a rejection other than a Redis error reply becomes a StoreUnavailableError naming `store`. */
export async function orUnavailable<T>(store: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ErrorReply) throw error;
    // The message goes to the client: the driver's words (an address, a port) stay in `cause`,
    // which the handler reports to onError.
    throw new StoreUnavailableError(`The ${store} is unavailable; retry later`, { cause: error });
  }
}

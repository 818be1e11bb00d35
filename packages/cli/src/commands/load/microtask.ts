// A microtask for the wire engines' per-read work, without Node's queueMicrotask wrapper: Node makes an
// AsyncResource and a bound function on every queueMicrotask call (0.4-0.8 us here, twice per read of
// the server's answers over stdio), where a settled promise's reaction is V8's own.

const SETTLED = Promise.resolve();

/**
 * Runs `callback` once the current task's synchronous work is done, in order with other microtasks,
 * as queueMicrotask does but with no async context of its own. `callback` must not throw (it would
 * surface as an unhandled rejection, not an uncaught exception).
 */
export function runInMicrotask(callback: () => void): void {
  void SETTLED.then(callback);
}

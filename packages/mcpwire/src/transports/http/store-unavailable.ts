// A store the HTTP handler depends on could not be reached (issue 24): the one failure of a
// SessionStore, MessageBus or EventStore that the handler answers 503 instead of 500.

/**
 * Thrown (or rejected) by a SessionStore, MessageBus or EventStore implementation when its backend
 * cannot be reached (a Redis connection down). The handler answers the request 503 with
 * `Retry-After: retryAfterSeconds` and the message, reports it to `onError`, and stays up; it never
 * falls back to memory. Local failure with a stable `code`; never sent on the wire as such.
 */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  /** How long a client should wait before it tries again. */
  readonly retryAfterSeconds: number;

  constructor(message: string, options: { cause?: unknown; retryAfterSeconds?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StoreUnavailableError';
    this.retryAfterSeconds = Math.max(1, Math.ceil(options.retryAfterSeconds ?? 1));
  }
}

// Local failures: never sent on the wire, each with a stable `code` to branch on.

/** The connection is closed; sending on it or waiting for a reply cannot succeed. */
export class ConnectionClosedError extends Error {
  readonly code = 'CONNECTION_CLOSED';
  constructor(message = 'Connection closed', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionClosedError';
  }
}

/** An outbound request got no response in time; a cancellation was sent to the peer. */
export class RequestTimeoutError extends Error {
  readonly code = 'REQUEST_TIMEOUT';
  /** How long the request waited, in ms. */
  readonly timeoutMs: number;
  constructor(method: string, timeoutMs: number) {
    super(`Request "${method}" timed out after ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
    this.timeoutMs = timeoutMs;
  }
}

/** An outbound request was cancelled by the caller's AbortSignal; a cancellation was sent to the peer. */
export class RequestCancelledError extends Error {
  readonly code = 'REQUEST_CANCELLED';
  constructor(method: string, reason?: unknown) {
    super(`Request "${method}" was cancelled${typeof reason === 'string' ? `: ${reason}` : ''}`, {
      cause: reason,
    });
    this.name = 'RequestCancelledError';
  }
}

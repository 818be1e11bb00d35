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

/**
 * The response to an outbound request was discarded unread: the peer sent a message over the
 * transport's size limit (`maxMessageBytes`). The request fails at once, not at its timeout; when
 * the message's id could not be read, every request pending on that connection fails with this.
 */
export class MessageTooLargeError extends Error {
  readonly code = 'MESSAGE_TOO_LARGE';
  /** Bytes of the message received when it was discarded: at least `limit + 1`. */
  readonly bytes: number;
  /** The limit it passed, in bytes. */
  readonly limit: number;

  constructor(method: string, sizes: { bytes: number; limit: number; isIdRead: boolean }) {
    const which = sizes.isIdRead
      ? 'the response'
      : 'a message whose id was not in its first bytes (it may be the response)';
    super(
      `Request "${method}" failed: ${which} is at least ${sizes.bytes} bytes, over the limit of ${sizes.limit} bytes (maxMessageBytes); it was discarded`,
    );
    this.name = 'MessageTooLargeError';
    this.bytes = sizes.bytes;
    this.limit = sizes.limit;
  }
}

// The client's local failures: never sent on the wire, each with a stable `code` to branch on.
// Protocol errors from the server surface as `RpcError` (jsonrpc/rpc-error.ts) instead.

/**
 * The server answered `initialize` with a protocol revision this client does not speak (LIFE-9).
 * The connection has been closed by the time this is thrown.
 */
export class UnsupportedProtocolVersionError extends Error {
  readonly code = 'UNSUPPORTED_PROTOCOL_VERSION';
  /** The revision the client asked for. */
  readonly requested: string;
  /** What the server answered (stringified if it was not a string). */
  readonly received: string;
  /** The revisions this client accepts. */
  readonly supported: readonly string[];

  constructor(requested: string, received: unknown, supported: readonly string[]) {
    const shown = typeof received === 'string' ? received : (JSON.stringify(received) ?? String(received));
    super(
      `initialize: requested protocol version ${requested}, server answered ${shown}; ` +
        `this client supports ${supported.join(', ')}. Disconnected.`,
    );
    this.name = 'UnsupportedProtocolVersionError';
    this.requested = requested;
    this.received = shown;
    this.supported = supported;
  }
}

/**
 * A `tools/call` result's `structuredContent` does not match the tool's `outputSchema` (TOOL-3),
 * or is missing although the tool declares one. The result is kept for inspection.
 */
export class OutputValidationError extends Error {
  readonly code = 'OUTPUT_VALIDATION';
  readonly toolName: string;
  /** One readable line per problem, each naming the instance path. */
  readonly errors: readonly string[];
  /** The result exactly as the server sent it. */
  readonly result: unknown;

  constructor(toolName: string, errors: readonly string[], result: unknown) {
    super(
      `tools/call "${toolName}": structuredContent does not match the tool's outputSchema: ${errors.join('; ')}`,
    );
    this.name = 'OutputValidationError';
    this.toolName = toolName;
    this.errors = errors;
    this.result = result;
  }
}

/** A server result lacks a field the spec requires (e.g. `tools` in a tools/list page). */
export class InvalidResultError extends Error {
  readonly code = 'INVALID_RESULT';
  readonly method: string;

  constructor(method: string, problem: string) {
    super(`Invalid result for "${method}": ${problem}`);
    this.name = 'InvalidResultError';
    this.method = method;
  }
}

/** An auto-paginating helper reached its page cap before the server stopped sending `nextCursor`. */
export class PaginationLimitError extends Error {
  readonly code = 'PAGINATION_LIMIT';
  readonly method: string;
  readonly maxPages: number;

  constructor(method: string, maxPages: number) {
    super(
      `"${method}" still had a nextCursor after ${maxPages} pages; stopped (raise maxPages if the list is really that long)`,
    );
    this.name = 'PaginationLimitError';
    this.method = method;
    this.maxPages = maxPages;
  }
}

/** A request was made on a client that is not connected (never connected, or closed). */
export class NotConnectedError extends Error {
  readonly code = 'NOT_CONNECTED';

  constructor(method: string) {
    super(`Cannot send "${method}": the client is not connected; call connect() first`);
    this.name = 'NotConnectedError';
  }
}

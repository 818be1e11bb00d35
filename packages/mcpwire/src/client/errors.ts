// The client's local failures: never sent on the wire, each with a stable `code` to branch on.
// Protocol errors from the server surface as `RpcError` (jsonrpc/rpc-error.ts) instead.

import { ConnectionClosedError } from '../jsonrpc/errors.ts';

/** The steps of `connect` that wait for the server: the era probe, and the handshake. */
export type ConnectStep = 'server/discover' | 'initialize';

/**
 * The server did not answer a step of `connect` in time: `initialize`, or the era probe where
 * silence is no verdict (over HTTP, where it is an outage, 2026-07-28 checklist section 3.3; or
 * with era "stateless"). The connection has been closed by the time this is thrown; `cause` is the
 * request's RequestTimeoutError. The message names no option: the wait is `initializeTimeoutMs`
 * for `initialize` and `probeTimeoutMs` for `server/discover` (a CLI names its own flag).
 */
export class ConnectTimeoutError extends Error {
  readonly code = 'CONNECT_TIMEOUT';
  readonly step: ConnectStep;
  /** How long the step waited, in ms. */
  readonly timeoutMs: number;

  constructor(step: ConnectStep, timeoutMs: number, options: { hint: string; cause?: unknown }) {
    super(`${step}: no answer within ${formatDuration(timeoutMs)}; ${options.hint}`, {
      cause: options.cause,
    });
    this.name = 'ConnectTimeoutError';
    this.step = step;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The connection closed while `connect` waited for `step` (a stdio server that exited during the
 * era probe, for one). Nothing is retried or respawned. Its `code` is CONNECTION_CLOSED as for any
 * closed connection; `cause` is the transport's error (over stdio a ProcessExitError with
 * `exitCode` and `stderrTail`), whose message this one contains, before any era hint.
 */
export class ConnectClosedError extends ConnectionClosedError {
  readonly step: ConnectStep;

  constructor(step: ConnectStep, cause: Error) {
    // The spec's probe note: some handshake-era servers exit on any request before initialize.
    // After the cause: what the process said (a missing key, a crash) is far more often the reason.
    const hint =
      step === 'server/discover'
        ? '\n(if it is a handshake-era server that exits on requests before initialize, use era "handshake")'
        : '';
    super(`${step}: the connection closed before the server answered: ${cause.message}${hint}`, { cause });
    this.name = 'ConnectClosedError';
    this.step = step;
  }
}

/** 8000 -> "8 s", 2500 -> "2.5 s", 30 -> "30 ms". */
function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

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

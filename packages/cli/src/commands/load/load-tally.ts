// What `mcpwire load` counts of the measured requests: their latencies (histogram.ts), how many
// succeeded, and the errors by kind with the first message of each. The driver's hot path: O(1)
// per request, allocating only for the first error of a kind.

import { InvalidResultError, OutputValidationError, RequestTimeoutError, RpcError } from 'mcpwire/client';
import { LatencyHistogram } from './histogram.ts';
import { HttpStatusError, SessionExpiredError } from './http-engine.ts';
import { HttpWireError } from './http-response-parser.ts';

/**
 * The kinds of failure: an error response (`rpc_error`, with its code), a tool result with isError
 * (`tool_error`), no answer within --timeout (`timeout`), a result the client refused
 * (`invalid_result`), the server answering 404 to the session (`session_expired`: the connection
 * initialises again), an HTTP status that is no answer (`http_status`, with the status as code), an
 * answer the wire engine could not read (`malformed_answer`), and the connection or transport
 * failing (`transport`).
 */
export type LoadErrorKind =
  | 'rpc_error'
  | 'tool_error'
  | 'timeout'
  | 'invalid_result'
  | 'session_expired'
  | 'http_status'
  | 'malformed_answer'
  | 'transport';

/** The errors of one kind (and code): how many, and the first one's message (a server's words, raw). */
export interface LoadErrorCount {
  kind: LoadErrorKind;
  code?: number;
  count: number;
  firstMessage: string;
}

/** The measured requests' outcomes. */
export class LoadTally {
  readonly histogram = new LatencyHistogram();
  /** Measured requests per step (the index in the run's steps). */
  readonly stepCounts: Float64Array;
  ok = 0;
  errors = 0;
  /** When the last answer counted came (performance.now() ms), NaN before one. */
  lastEnd = NaN;
  readonly #errors = new Map<string, LoadErrorCount>();

  constructor(stepCount: number) {
    this.stepCounts = new Float64Array(stepCount);
  }

  /** All measured requests, answered or not. */
  get requests(): number {
    return this.ok + this.errors;
  }

  /** A request of step `step` that succeeded after `ms`. */
  recordOk(step: number, ms: number): void {
    this.stepCounts[step]!++;
    this.ok++;
    this.histogram.record(ms);
  }

  /** A tool result with isError after `ms`: answered, so its latency counts. */
  recordToolError(step: number, ms: number, message: string): void {
    this.stepCounts[step]!++;
    this.histogram.record(ms);
    this.#count('tool_error', undefined, message);
  }

  /**
   * A request that rejected with `error` after `ms`: an error response's latency counts (it was
   * answered); a timeout's or a transport failure's does not (it says nothing of the server's speed).
   */
  recordFailure(step: number, ms: number, error: unknown): void {
    this.stepCounts[step]!++;
    if (error instanceof RpcError) {
      this.histogram.record(ms);
      this.#count('rpc_error', error.code, error.message);
    } else if (error instanceof RequestTimeoutError) this.#count('timeout', undefined, error.message);
    else if (error instanceof InvalidResultError || error instanceof OutputValidationError) {
      this.histogram.record(ms);
      this.#count('invalid_result', undefined, error.message);
    } else if (error instanceof SessionExpiredError) this.#count('session_expired', undefined, error.message);
    else if (error instanceof HttpStatusError) this.#count('http_status', error.status, error.message);
    else if (error instanceof HttpWireError) this.#count('malformed_answer', undefined, error.message);
    else this.#count('transport', undefined, error instanceof Error ? error.message : String(error));
  }

  /** The error counts, most frequent first. */
  errorCounts(): LoadErrorCount[] {
    return [...this.#errors.values()].sort((a, b) => b.count - a.count);
  }

  #count(kind: LoadErrorKind, code: number | undefined, message: string): void {
    this.errors++;
    const key = code === undefined ? kind : `${kind} ${code}`;
    const known = this.#errors.get(key);
    if (known !== undefined) known.count++;
    else
      this.#errors.set(key, {
        kind,
        ...(code === undefined ? {} : { code }),
        count: 1,
        firstMessage: message.length > 500 ? `${message.slice(0, 497)}...` : message,
      });
  }
}

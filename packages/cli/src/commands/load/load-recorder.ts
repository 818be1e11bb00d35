// What `mcpwire load` does with each request's outcome: its latency measured as the connection timed
// it, counted in the tally when it is measured, and the connections that closed under it noted.

import { performance } from 'node:perf_hooks';
import type { RunConnection } from './run-connection.ts';
import { LoadTally } from './load-tally.ts';
import type { SendTiming } from './send-timing.ts';

/** A request as sent: its step, whether it is measured, when it started (latency's start without timing). */
export interface SentRequest {
  index: number;
  isMeasured: boolean;
  from: number;
  timing: SendTiming;
}

/** How a request ended: a tool error's message, or a failure (hasFailed, then error). */
export interface Outcome {
  failure: string | undefined;
  error: unknown;
  hasFailed: boolean;
}

/**
 * The run's counters: the tally of measured requests, the warm-up requests that settled, the end of
 * the last measured answer, and the closed connections (`handleAllClosed` once every one of
 * `connectionCount` has closed). O(1) per request, allocating nothing but on a failure.
 */
export class LoadRecorder {
  readonly tally: LoadTally;
  /** Warm-up requests that settled. */
  warmupRequests = 0;
  /** When the last measured answer came (performance.now() ms), NaN before one. */
  lastEnd = NaN;
  readonly #isOpenModel: boolean;
  readonly #connectionCount: number;
  readonly #handleAllClosed: () => void;
  readonly #closed = new Set<RunConnection>();

  constructor(options: {
    stepCount: number;
    connectionCount: number;
    isOpenModel: boolean;
    handleAllClosed: () => void;
  }) {
    this.tally = new LoadTally(options.stepCount);
    this.#connectionCount = options.connectionCount;
    this.#isOpenModel = options.isOpenModel;
    this.#handleAllClosed = options.handleAllClosed;
  }

  /** The connections that closed during the run. */
  get closedConnections(): number {
    return this.#closed.size;
  }

  /**
   * Counts the outcome of `sent` on `client`; false when it failed because the connection is gone
   * (its worker stops: every request on it would fail at once).
   */
  record(client: RunConnection, sent: SentRequest, outcome: Outcome): boolean {
    const { index, timing } = sent;
    // As a hand-written driver measures: from the write that carried the request to the read of
    // its answer, when the connection knows them; the open model keeps its due time as the start.
    const isTimed = !Number.isNaN(timing.answeredAt);
    const end = isTimed ? timing.answeredAt : performance.now();
    const start = isTimed && !this.#isOpenModel && !Number.isNaN(timing.sentAt) ? timing.sentAt : sent.from;
    if (!sent.isMeasured) this.warmupRequests++;
    else {
      this.lastEnd = end;
      if (outcome.hasFailed) this.tally.recordFailure(index, end - start, outcome.error);
      else if (outcome.failure !== undefined) this.tally.recordToolError(index, end - start, outcome.failure);
      else this.tally.recordOk(index, end - start);
    }
    if (!outcome.hasFailed || client.isConnected) return true;
    this.#closed.add(client);
    if (this.#closed.size === this.#connectionCount) this.#handleAllClosed();
    return false;
  }
}

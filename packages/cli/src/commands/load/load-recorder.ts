// What `mcpwire load` does with each request's outcome: its latency measured as the connection timed
// it, counted in the warm-up's tally or the measured one, and the connections that closed under it noted.

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
 * The run's counters: the tally of measured requests, the warm-up's tally, the end of the last
 * measured answer, and the closed connections (`handleAllClosed` once every one of
 * `connectionCount` has closed). O(1) per request, allocating nothing but on a failure.
 */
export class LoadRecorder {
  /**
   * The warm-up's tally, then the measured one. Warm-up outcomes are counted by the same code as
   * measured ones, into a tally of their own, so the code that counts is compiled and warm when
   * measuring starts: a branch first taken then had V8 throw away its optimized code of the answer
   * path inside the measured window (`--trace-deopt`: "insufficient type feedback" in `record`).
   */
  readonly #tallies: [LoadTally, LoadTally];
  readonly #stepCount: number;
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
    this.#stepCount = options.stepCount;
    this.#tallies = [new LoadTally(options.stepCount), new LoadTally(options.stepCount)];
    this.#connectionCount = options.connectionCount;
    this.#isOpenModel = options.isOpenModel;
    this.#handleAllClosed = options.handleAllClosed;
  }

  /** The measured requests' outcomes. */
  get tally(): LoadTally {
    return this.#tallies[1];
  }

  /** Warm-up requests that settled. */
  get warmupRequests(): number {
    return this.#tallies[0].requests;
  }

  /** When the last measured answer came (performance.now() ms), NaN before one. */
  get lastEnd(): number {
    return this.#tallies[1].lastEnd;
  }

  /**
   * Measuring starts: its tally is made now, after the warm-up's counting has settled the shapes
   * of V8's objects (a number field that held 0 and then a fraction), so the measured tally has
   * the same shapes and the compiled code takes it as it is.
   */
  startMeasuring(): void {
    this.#tallies[1] = new LoadTally(this.#stepCount);
  }

  /** The connections that closed during the run. */
  get closedConnections(): number {
    return this.#closed.size;
  }

  /**
   * Counts the outcome of `sent` on `client` in its phase's tally; false when it failed because
   * the connection is gone (its worker stops: every request on it would fail at once).
   */
  record(client: RunConnection, sent: SentRequest, outcome: Outcome): boolean {
    const { index, timing } = sent;
    // As a hand-written driver measures: from the write that carried the request to the read of
    // its answer, when the connection knows them; the open model keeps its due time as the start.
    const isTimed = !Number.isNaN(timing.answeredAt);
    const end = isTimed ? timing.answeredAt : performance.now();
    const start = isTimed && !this.#isOpenModel && !Number.isNaN(timing.sentAt) ? timing.sentAt : sent.from;
    // Indexed, not a branch per phase: the same instructions in the warm-up and measured.
    const tally = this.#tallies[sent.isMeasured ? 1 : 0];
    tally.lastEnd = end;
    if (outcome.hasFailed) tally.recordFailure(index, end - start, outcome.error);
    else if (outcome.failure !== undefined) tally.recordToolError(index, end - start, outcome.failure);
    else tally.recordOk(index, end - start);
    if (!outcome.hasFailed || client.isConnected) return true;
    this.#closed.add(client);
    if (this.#closed.size === this.#connectionCount) this.#handleAllClosed();
    return false;
  }
}

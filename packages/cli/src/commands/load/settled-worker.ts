// A closed-loop worker of `mcpwire load` on a connection that settles requests with no promise
// (`RunConnection.sendThen`): each request is sent from the previous one's outcome.

import { performance } from 'node:perf_hooks';
import type { Outcome, SentRequest } from './load-recorder.ts';
import type { RunConnection, SendSettled } from './run-connection.ts';
import type { LoadStep } from './load-steps.ts';
import type { SendTiming } from './send-timing.ts';

/** Whether a request about to start is not to be sent (the run is over), warm-up, or measured. */
export type Phase = 0 | 1 | 2;
export const DONE: Phase = 0;
export const WARMUP: Phase = 1;
export const MEASURED: Phase = 2;

/** What the worker needs of its run (load-run.ts). */
export interface ClosedLoop {
  readonly steps: readonly LoadStep[];
  /** The phase of a request about to start at `now` (counted as started unless DONE). */
  claim(now: number): Phase;
  /** The step of the next request. */
  pick(): number;
  /** The run-wide number of the next request. */
  nextRequest(): number;
  /** Counts the outcome; false when the worker is to stop (its connection is gone). */
  record(client: RunConnection, sent: SentRequest, outcome: Outcome): boolean;
}

/**
 * Runs worker `worker` on `client` (which has `sendThen`), its request's times in `timing`, as a
 * hand-written driver does: no promise and no microtask hop per request. Resolves when the run is
 * over for it; rejects if counting throws.
 */
export function runSettledWorker(
  loop: ClosedLoop,
  worker: { index: number; client: RunConnection; timing: SendTiming },
): Promise<void> {
  const { index: workerIndex, client, timing } = worker;
  const sent: SentRequest = { index: 0, isMeasured: false, from: 0, timing };
  return new Promise((resolve, reject) => {
    const next = (): void => {
      // The answer's time when the engine read it just now (one clock reading per read, as a
      // hand-written driver sends from its read's time), else the clock's.
      const start = Number.isNaN(timing.answeredAt) ? performance.now() : timing.answeredAt;
      const phase = loop.claim(start);
      if (phase === DONE) return resolve();
      sent.index = loop.pick();
      sent.isMeasured = phase === MEASURED;
      sent.from = start;
      timing.sentAt = timing.answeredAt = NaN;
      client.sendThen!(loop.steps[sent.index]!, loop.nextRequest(), workerIndex, timing, settled);
    };
    const settle = (failure: string | undefined, error: unknown, hasFailed: boolean): void => {
      try {
        if (loop.record(client, sent, { failure, error, hasFailed })) next();
        else resolve();
      } catch (caught) {
        reject(caught);
      }
    };
    const settled: SendSettled = {
      handleAnswer: (failure) => settle(failure, undefined, false),
      handleError: (error) => settle(undefined, error, true),
    };
    try {
      next();
    } catch (caught) {
      reject(caught);
    }
  });
}

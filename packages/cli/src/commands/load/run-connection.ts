// The connection a run of `mcpwire load` sends on, as the run sees it (load-connection.ts is the one
// it is given), and where a closed-loop worker's request hands its outcome.

import type { LoadStep } from './load-steps.ts';
import type { SendTiming } from './send-timing.ts';

/** A connection the run sends on (load-connection.ts). */
export interface RunConnection {
  /** False once the connection is gone for good. */
  readonly isConnected: boolean;
  /**
   * Sends request `i` of worker `worker` of `step`; resolves with a tool error's message, else
   * undefined. Fills `timing` (given NaN) when it knows when the request was written and answered.
   */
  send(step: LoadStep, i: number, worker: number, timing?: SendTiming): Promise<string | undefined>;
  /**
   * If present, the closed loop sends with it instead: as `send`, its outcome handed to `settled`
   * (never before it returns), with one request of `worker` in flight at a time.
   */
  sendThen?(step: LoadStep, i: number, worker: number, timing: SendTiming, settled: SendSettled): void;
}

/** Where `RunConnection.sendThen` hands a request's outcome: exactly one of the two, once. */
export interface SendSettled {
  /** Answered: a tool error's message, else undefined (what `send` resolves with). */
  handleAnswer(failure: string | undefined): void;
  /** Failed (what `send` rejects with). */
  handleError(error: unknown): void;
}

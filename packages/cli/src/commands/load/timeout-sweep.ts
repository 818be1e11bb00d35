// The wire engine's timeouts: one timer per connection that sweeps the requests in flight, instead
// of a timer per request (the timed loop's hot path sets and clears none).

import type { JsonObject } from 'mcpwire';
import type { PendingRequests } from './pending-requests.ts';
import type { SendTiming } from './send-timing.ts';

/** A request of the engine in flight (an object a closed-loop worker reuses for each of its requests). */
export interface EngineRequest {
  readonly method: string;
  /** When it was sent (the stdio engine moves it to the write that carried it). */
  sentAt: number;
  /** Where the engine reports when the request was written and answered, if asked. */
  readonly timing?: SendTiming | undefined;
  resolve(result: JsonObject): void;
  reject(error: unknown): void;
}

/**
 * Every `timeoutMs / 4` (at least 10 ms, at most 1 s) while requests are pending, removes those sent
 * over `timeoutMs` ago from `pending` and hands each to `expire`: a request times out between
 * `timeoutMs` and `1.25 * timeoutMs` after it was sent.
 */
export class TimeoutSweep {
  readonly #pending: PendingRequests<EngineRequest>;
  readonly #timeoutMs: number;
  readonly #expire: (request: EngineRequest, id: number) => void;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    pending: PendingRequests<EngineRequest>,
    timeoutMs: number,
    expire: (request: EngineRequest, id: number) => void,
  ) {
    this.#pending = pending;
    this.#timeoutMs = timeoutMs;
    this.#expire = expire;
  }

  /** Starts sweeping, if not already. */
  start(): void {
    if (this.#timer !== undefined) return;
    const every = Math.min(1000, Math.max(10, this.#timeoutMs / 4));
    this.#timer = setInterval(() => this.#sweep(), every);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #sweep(): void {
    const due = performance.now() - this.#timeoutMs;
    // Collected first: the table must not change while it is walked.
    let expired: number[] | undefined;
    this.#pending.forEach((request, id) => {
      if (request.sentAt <= due) (expired ??= []).push(id);
    });
    for (const id of expired ?? []) {
      const request = this.#pending.get(id)!;
      this.#pending.delete(id);
      this.#expire(request, id);
    }
    if (this.#pending.size === 0) this.stop();
  }
}

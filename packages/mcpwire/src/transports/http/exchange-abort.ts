// The abort of one POST exchange (issue 26): an AbortController's part the client needs, without
// making an AbortSignal per exchange (an EventTarget: on Node the costliest object a call made)
// unless someone asks for one (an SSE answer's stream, the fetch path).

import type { AbortLike } from './requester.ts';

/**
 * Aborts once: the first `abort` sets `reason` (an AbortError DOMException when none is given),
 * calls each listener once in the order added, then aborts the AbortSignal `signal` made, if any.
 * As with an AbortSignal, a listener added after the abort is never called, and `signal` read after
 * the abort is already aborted with the same reason.
 */
export class ExchangeAbort implements AbortLike {
  #isAborted = false;
  #reason: unknown;
  #listeners: (() => void)[] | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#isAborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** A real AbortSignal following this abort, made at the first read. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#isAborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason?: unknown): void {
    if (this.#isAborted) return;
    this.#isAborted = true;
    this.#reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) for (const listener of listeners) listener();
    this.#controller?.abort(this.#reason);
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.#isAborted) (this.#listeners ??= []).push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.#listeners?.indexOf(listener) ?? -1;
    if (index >= 0) this.#listeners!.splice(index, 1);
  }
}

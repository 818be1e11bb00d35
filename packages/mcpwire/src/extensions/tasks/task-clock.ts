// The clock tasks run on: now() and timers, injectable so tests run ttl expiry and polling under a
// fake clock (`FakeClock`) with no real waiting.

/** What the task runner reads time from. */
export interface TaskClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Runs `callback` once after `ms`; returns a handle for clearTimer. Must not keep the process alive. */
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/** The real clock: Date.now and unref'd timers. */
export const systemClock: TaskClock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    const handle = setTimeout(callback, ms);
    (handle as { unref?: () => void }).unref?.();
    return handle;
  },
  clearTimer(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};

/**
 * A clock that moves only when told: `advance(ms)` runs every timer due by then, in due order.
 * For tests (the runner's and the client's); timers run synchronously inside `advance`.
 */
export class FakeClock implements TaskClock {
  #now: number;
  #next = 0;
  #timers = new Map<number, { at: number; callback: () => void }>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(callback: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), callback });
    return id;
  }

  clearTimer(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Timers not yet run. */
  get pending(): number {
    return this.#timers.size;
  }

  /** Moves time forward by `ms`, running each timer that falls due, earliest first. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      let due: [number, { at: number; callback: () => void }] | undefined;
      for (const entry of this.#timers)
        if (entry[1].at <= end && (!due || entry[1].at < due[1].at)) due = entry;
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = Math.max(this.#now, due[1].at);
      due[1].callback();
    }
    this.#now = end;
  }
}

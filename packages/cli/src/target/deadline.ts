// One budget (--timeout) for a command's whole talk with a stdio server: spawning it, the era probe,
// initialize and the work after them share one deadline instead of each waiting the full timeout.

/** The deadline passed: what the signal of a {@link Deadline} aborts with. */
export class DeadlineExceededError extends Error {
  readonly code = 'DEADLINE_EXCEEDED';
  /** The budget that ran out, in seconds. */
  readonly seconds: number;

  constructor(seconds: number) {
    super(`no answer within ${seconds} s`);
    this.name = 'DeadlineExceededError';
    this.seconds = seconds;
  }
}

/**
 * A deadline `seconds` from its creation: `signal` aborts then, with a DeadlineExceededError as its
 * reason. Disposing it clears the timer (the signal then never aborts). Its timer never keeps the
 * process alive on its own.
 */
export class Deadline implements Disposable {
  readonly seconds: number;
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;

  constructor(seconds: number) {
    this.seconds = seconds;
    this.#timer = setTimeout(
      () => this.#controller.abort(new DeadlineExceededError(seconds)),
      seconds * 1000,
    );
    this.#timer.unref();
  }

  /** Aborts when the deadline passes. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** `signal` and `other` (e.g. Ctrl-C) as one signal: aborts with whichever comes first. */
  with(other: AbortSignal | undefined): AbortSignal {
    return other === undefined ? this.signal : AbortSignal.any([this.signal, other]);
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#timer);
  }
}

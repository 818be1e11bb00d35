// Values a server makes up on each run that the client sends back later: `replay --check` learns
// the live value from each response and puts it in place of the recorded one in later requests.

/**
 * Keys whose string values the client echoes: a 2026-07-28 `requestState` (sealed per process,
 * S26-MRTR-4) and a task's `taskId` (2025-11-25 tasks); a page's `nextCursor` comes back as `cursor`.
 */
const CARRIED_KEYS: ReadonlySet<string> = new Set(['requestState', 'taskId', 'nextCursor']);

/** Recorded value -> live value, for the {@link CARRIED_KEYS}. */
export class CarriedValues {
  readonly #live = new Map<string, string>();

  /** Walks a recorded result and the live one side by side, noting each carried value that changed. */
  learn(recorded: unknown, received: unknown): void {
    if (typeof recorded !== 'object' || recorded === null) return;
    if (typeof received !== 'object' || received === null) return;
    for (const [key, value] of Object.entries(recorded)) {
      const live = (received as Record<string, unknown>)[key];
      if (CARRIED_KEYS.has(key) && typeof value === 'string' && typeof live === 'string') {
        if (value !== live) this.#live.set(value, live);
      } else this.learn(value, live);
    }
  }

  /** A copy of `value` with every string that is a recorded carried value replaced by the live one. */
  apply<T>(value: T): T {
    return this.#live.size === 0 ? value : (this.#replace(value) as T);
  }

  #replace(value: unknown): unknown {
    if (typeof value === 'string') return this.#live.get(value) ?? value;
    if (Array.isArray(value)) return value.map((item) => this.#replace(item));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.#replace(item)]));
  }
}

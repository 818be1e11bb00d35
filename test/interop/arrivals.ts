// Notifications a real peer sends at its own pace, collected so a test can wait for one without sleeping.

/** How long to wait for a notification from a child process before failing; generous, never asserted on. */
export const ARRIVAL_TIMEOUT_MS = 10_000;

/**
 * Collects items in arrival order. `waitFor` resolves as soon as a matching item has arrived (including
 * one that arrived before the call), or rejects after `timeoutMs` naming what was awaited and what came.
 */
export class Arrivals<T> {
  readonly items: T[] = [];
  #waiters = new Set<{ matches: (item: T) => boolean; resolve: (item: T) => void }>();

  /** Records one item and wakes the waiters it satisfies. */
  readonly push = (item: T): void => {
    this.items.push(item);
    for (const waiter of [...this.#waiters]) {
      if (waiter.matches(item)) {
        this.#waiters.delete(waiter);
        waiter.resolve(item);
      }
    }
  };

  /** Forgets what has arrived so far (pending waiters keep waiting). */
  clear(): void {
    this.items.length = 0;
  }

  /** The first item, past or future, for which `matches` is true. */
  waitFor(
    what: string,
    matches: (item: T) => boolean = () => true,
    timeoutMs = ARRIVAL_TIMEOUT_MS,
  ): Promise<T> {
    const found = this.items.find(matches);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        matches,
        resolve: (item: T) => {
          clearTimeout(timer);
          resolve(item);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(
          new Error(`Waited ${timeoutMs} ms for ${what}; received instead: ${JSON.stringify(this.items)}`),
        );
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }

  /** Resolves once `count` items have arrived in total. */
  async waitForCount(what: string, count: number, timeoutMs = ARRIVAL_TIMEOUT_MS): Promise<T[]> {
    // Checked after each push, when `items` already holds the new arrival.
    await this.waitFor(`${count} ${what}`, () => this.items.length >= count, timeoutMs);
    return [...this.items];
  }
}

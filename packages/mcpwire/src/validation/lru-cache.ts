// A bounded least-recently-used map, for caches whose keys arrive from peers and must not grow without limit.

/** A Map that keeps at most `maxEntries`; `get` refreshes an entry, `set` past the limit drops the stalest. */
export class LruCache<K, V> {
  readonly #maxEntries: number;
  readonly #entries = new Map<K, V>();

  constructor(maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError(`LruCache expected a positive integer size, received ${String(maxEntries)}`);
    }
    this.#maxEntries = maxEntries;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Returns the entry and marks it most recently used. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value === undefined) return undefined;
    // Map iterates in insertion order: re-inserting moves the entry to the young end.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  /** Stores the entry as most recently used, evicting the least recently used one when full. */
  set(key: K, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done !== true) this.#entries.delete(oldest.value);
    }
  }
}

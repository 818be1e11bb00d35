// The wire engines' requests in flight, by id: an open-addressing table whose storage is kept while
// the number in flight stays the same. A Map churned by a request per id (set, then delete) rehashes
// into a new table every few requests, and once its table is old V8 allocates each new one in the
// old space: garbage only a mark-compact frees (about 60 bytes per request, bench/NOTES.md).

/** Slots at first: 32 requests in flight before the table first grows. */
const INITIAL_CAPACITY = 64;

/**
 * Values by integer id, as a Map holds them (`set` replaces), with linear probing on `id` modulo a
 * power of two (the engines' ids rise by one, so they spread) and deletion by shifting the probe
 * run back (no tombstones, so no rebuilding). Grows, doubling, only when more than half full:
 * `set`, `get` and `delete` allocate nothing otherwise. Not safe to change while `forEach` runs.
 */
export class PendingRequests<T> {
  #ids = new Float64Array(INITIAL_CAPACITY);
  #values: Array<T | undefined> = new Array<T | undefined>(INITIAL_CAPACITY).fill(undefined);
  #mask = INITIAL_CAPACITY - 1;
  #size = 0;

  /** How many requests are in flight. */
  get size(): number {
    return this.#size;
  }

  /** How many slots the table has (it grows when more than half are taken). */
  get capacity(): number {
    return this.#values.length;
  }

  /** The value of `id`, or undefined. */
  get(id: number): T | undefined {
    const slot = this.#find(id);
    return slot === -1 ? undefined : this.#values[slot];
  }

  has(id: number): boolean {
    return this.#find(id) !== -1;
  }

  /** Stores `value` under `id` (an integer), replacing what `id` had. */
  set(id: number, value: T): void {
    if ((this.#size + 1) * 2 > this.#values.length) this.#grow();
    let slot = id & this.#mask;
    for (;;) {
      if (this.#values[slot] === undefined) {
        this.#ids[slot] = id;
        this.#values[slot] = value;
        this.#size++;
        return;
      }
      if (this.#ids[slot] === id) {
        this.#values[slot] = value;
        return;
      }
      slot = (slot + 1) & this.#mask;
    }
  }

  /** Removes `id`; true if it was there. */
  delete(id: number): boolean {
    let hole = this.#find(id);
    if (hole === -1) return false;
    this.#size--;
    // Moves back each entry after the hole that probing from its home slot would no longer reach.
    for (
      let slot = (hole + 1) & this.#mask;
      this.#values[slot] !== undefined;
      slot = (slot + 1) & this.#mask
    ) {
      const home = this.#ids[slot]! & this.#mask;
      const isReachable = hole <= slot ? hole < home && home <= slot : hole < home || home <= slot;
      if (isReachable) continue;
      this.#ids[hole] = this.#ids[slot]!;
      this.#values[hole] = this.#values[slot];
      hole = slot;
    }
    this.#values[hole] = undefined;
    return true;
  }

  /** Calls `visit` with each value and its id, in no set order; `visit` must not change the table. */
  forEach(visit: (value: T, id: number) => void): void {
    for (let slot = 0; slot < this.#values.length; slot++) {
      const value = this.#values[slot];
      if (value !== undefined) visit(value, this.#ids[slot]!);
    }
  }

  clear(): void {
    this.#values.fill(undefined);
    this.#size = 0;
  }

  #find(id: number): number {
    for (let slot = id & this.#mask; ; slot = (slot + 1) & this.#mask) {
      if (this.#values[slot] === undefined) return -1;
      if (this.#ids[slot] === id) return slot;
    }
  }

  #grow(): void {
    const ids = this.#ids;
    const values = this.#values;
    const capacity = values.length * 2;
    this.#ids = new Float64Array(capacity);
    this.#values = new Array<T | undefined>(capacity).fill(undefined);
    this.#mask = capacity - 1;
    this.#size = 0;
    for (let slot = 0; slot < values.length; slot++)
      if (values[slot] !== undefined) this.set(ids[slot]!, values[slot]!);
  }
}

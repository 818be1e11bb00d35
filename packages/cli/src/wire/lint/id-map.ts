// A map keyed by JSON-RPC request id (or progress token) as JSON-RPC compares them: by type and
// value, so `1` and `"1"` are two ids. Strings and numbers are keys as they are; only the rare
// other ids (null, booleans, objects) are serialized. And the bounded collections the lint state
// keeps recent facts in.

/** Values by id. Insertion-ordered like Map; not safe to share between connections. */
export class IdMap<V> {
  readonly #plain = new Map<string | number, V>();
  readonly #other = new Map<string, V>();

  /** The value for `id`, if any. */
  get(id: unknown): V | undefined {
    return isPlain(id) ? this.#plain.get(id) : this.#other.get(otherKey(id));
  }

  /** True when `id` has a value. */
  has(id: unknown): boolean {
    return isPlain(id) ? this.#plain.has(id) : this.#other.has(otherKey(id));
  }

  /** Sets the value for `id` (replacing any). */
  set(id: unknown, value: V): void {
    if (isPlain(id)) this.#plain.set(id, value);
    else this.#other.set(otherKey(id), value);
  }

  /** Forgets `id`. */
  delete(id: unknown): void {
    if (isPlain(id)) this.#plain.delete(id);
    else this.#other.delete(otherKey(id));
  }

  /** How many ids it holds. */
  get size(): number {
    return this.#plain.size + this.#other.size;
  }
}

/**
 * A set of ids that keeps at most `limit`, forgetting the oldest added first: for facts that only
 * matter for a while (the ids of lines that were no message, which an error response may answer).
 */
export class BoundedIdSet {
  readonly #ids = new IdMap<true>();
  readonly #order: RecentQueue<unknown>;

  constructor(limit: number) {
    this.#order = new RecentQueue(limit);
  }

  /** Adds `id` (forgetting the oldest past the limit); an id already held stays where it was. */
  add(id: unknown): void {
    if (this.#ids.has(id)) return;
    this.#ids.set(id, true);
    const evicted = this.#order.push(id);
    if (evicted !== NONE) this.#ids.delete(evicted);
  }

  /** True when `id` is among the ids kept. */
  has(id: unknown): boolean {
    return this.#ids.has(id);
  }

  /** How many ids it holds (at most the limit). */
  get size(): number {
    return this.#ids.size;
  }
}

/** What {@link RecentQueue.push} returns when nothing was pushed out. */
export const NONE: unique symbol = Symbol('none');

/**
 * The last `capacity` items pushed, oldest first; constant time per push (a ring once full, no
 * shifting), and no bigger than what it holds (a short connection allocates little).
 */
export class RecentQueue<T> {
  readonly #items: T[] = [];
  readonly #capacity: number;
  #head = 0;

  constructor(capacity: number) {
    this.#capacity = Math.max(1, capacity);
  }

  /** Adds `item`; returns the oldest item when it had to make room for it, else NONE. */
  push(item: T): T | typeof NONE {
    if (this.#items.length < this.#capacity) {
      this.#items.push(item);
      return NONE;
    }
    const oldest = this.#items[this.#head]!;
    this.#items[this.#head] = item;
    this.#head = (this.#head + 1) % this.#capacity;
    return oldest;
  }

  /** How many items it holds (at most its capacity). */
  get size(): number {
    return this.#items.length;
  }
}

function isPlain(id: unknown): id is string | number {
  return typeof id === 'string' || typeof id === 'number';
}

function otherKey(id: unknown): string {
  return `${typeof id}:${JSON.stringify(id)}`;
}

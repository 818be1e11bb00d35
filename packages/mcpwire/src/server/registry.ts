// An ordered, named collection of registrations that reports changes (for list_changed).

/** A handle to one registration: change it or take it away at runtime. */
export interface Registration<D> {
  /** Replaces fields of the definition; listeners hear a change. */
  update(changes: Partial<D>): void;
  /** Hides it from lists and calls without forgetting it. */
  disable(): void;
  enable(): void;
  /** Removes it for good. Idempotent. */
  remove(): void;
}

interface Entry<D, H> {
  definition: D;
  handler: H;
  isEnabled: boolean;
}

/**
 * Registrations keyed by name, listed in registration order (deterministic, S26-STATE-4). Every
 * change calls the listeners synchronously; coalescing is the listener's business.
 */
export class Registry<D, H> {
  #entries = new Map<string, Entry<D, H>>();
  #listeners = new Set<() => void>();
  readonly #kind: string;

  constructor(kind: string) {
    this.#kind = kind;
  }

  /** Adds a registration; throws if the key is taken. */
  add(key: string, definition: D, handler: H): Registration<D> {
    if (this.#entries.has(key)) throw new Error(`A ${this.#kind} named "${key}" is already registered`);
    const entry: Entry<D, H> = { definition, handler, isEnabled: true };
    this.#entries.set(key, entry);
    this.#changed();
    const isCurrent = (): boolean => this.#entries.get(key) === entry;
    return {
      update: (changes) => {
        if (!isCurrent()) return;
        entry.definition = { ...entry.definition, ...changes };
        this.#changed();
      },
      disable: () => this.#setEnabled(entry, isCurrent(), false),
      enable: () => this.#setEnabled(entry, isCurrent(), true),
      remove: () => {
        if (isCurrent() && this.#entries.delete(key)) this.#changed();
      },
    };
  }

  /** The enabled entry for `key`. */
  get(key: string): { definition: D; handler: H } | undefined {
    const entry = this.#entries.get(key);
    return entry?.isEnabled ? entry : undefined;
  }

  /** Enabled entries in registration order. */
  list(): Array<{ key: string; definition: D; handler: H }> {
    const out: Array<{ key: string; definition: D; handler: H }> = [];
    for (const [key, entry] of this.#entries)
      if (entry.isEnabled) out.push({ key, definition: entry.definition, handler: entry.handler });
    return out;
  }

  /** True if anything is registered (enabled or not). */
  get isEmpty(): boolean {
    return this.#entries.size === 0;
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #setEnabled(entry: Entry<D, H>, isCurrent: boolean, isEnabled: boolean): void {
    if (!isCurrent || entry.isEnabled === isEnabled) return;
    entry.isEnabled = isEnabled;
    this.#changed();
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}

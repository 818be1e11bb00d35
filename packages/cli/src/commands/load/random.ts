// The seeded random numbers of `mcpwire load` (mulberry32): which step a request runs and what the
// templates' {{random}}, {{pick}} and {{uuid}} give; the same --seed gives the same sequence.

/** A seeded generator; not for secrets. */
export class LoadRandom {
  #state: number;

  /** `seed` is taken as a 32-bit unsigned integer. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number from `min` to `max`, both included. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One of `items` (not empty). */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A version-4 UUID made of this generator's numbers. */
  uuid(): string {
    let hex = '';
    for (let index = 0; index < 4; index++)
      hex += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }
}

// The latency histogram of the bench's hand-written load drivers: `mcpwire load`'s buckets
// (packages/cli/src/commands/load/histogram.ts, which the bench may not import) in a typed array, so
// a driver records a latency with no allocation, as `load` does, and its slice reads as `load`'s.

/** Sub-buckets per power of two: 128, each at most 1/128 of its lower bound wide. */
const SUB_BITS = 7;
const SUB_COUNT = 1 << SUB_BITS;
/** Below this many nanoseconds every integer has a bucket of its own. */
const LINEAR_LIMIT = SUB_COUNT * 2;
/** The largest power of two with buckets (2^52 ns); anything longer lands in the top one. */
const MAX_EXPONENT = 52;
const BUCKET_COUNT = LINEAR_LIMIT + (MAX_EXPONENT - SUB_BITS) * SUB_COUNT;

/** Below this many nanoseconds (2.1 s) `ns` fits a 32-bit integer's bit operations. */
const INTEGER_LIMIT = 2 ** 31;

/** The bucket of `ns` nanoseconds (a non-negative integer), as `load` finds it. */
function indexOf(ns: number): number {
  if (ns < LINEAR_LIMIT) return ns;
  // As `load` does: the highest bit and a shift, not a logarithm and a Math.pow per answer.
  if (ns < INTEGER_LIMIT) {
    const high = 31 - Math.clz32(ns);
    return LINEAR_LIMIT + (high - SUB_BITS - 1) * SUB_COUNT + ((ns >>> (high - SUB_BITS)) - SUB_COUNT);
  }
  let exponent = Math.floor(Math.log2(ns));
  if (exponent > MAX_EXPONENT) return BUCKET_COUNT - 1;
  let mantissa = Math.floor(ns / 2 ** (exponent - SUB_BITS));
  // log2 of a float can be off by one next to a power of two: the mantissa says which way.
  if (mantissa >= LINEAR_LIMIT) mantissa = Math.floor(ns / 2 ** (++exponent - SUB_BITS));
  else if (mantissa < SUB_COUNT) mantissa = Math.floor(ns / 2 ** (--exponent - SUB_BITS));
  if (exponent > MAX_EXPONENT) return BUCKET_COUNT - 1;
  return LINEAR_LIMIT + (exponent - SUB_BITS - 1) * SUB_COUNT + (mantissa - SUB_COUNT);
}

/** What bucket `index` reads as (ms): its start when it is 1 ns wide, else its midpoint, as `load` reads it. */
function valueOf(index: number): number {
  if (index < LINEAR_LIMIT) return index / 1e6;
  const offset = index - LINEAR_LIMIT;
  const shift = Math.floor(offset / SUB_COUNT) + 1;
  return ((SUB_COUNT + (offset % SUB_COUNT) + 0.5) * 2 ** shift) / 1e6;
}

/** Latencies in milliseconds, counted per bucket; `record` is O(1) and allocates nothing. */
export class LatencyCounts {
  readonly #counts = new Float64Array(BUCKET_COUNT);
  /** How many latencies were recorded. */
  count = 0;

  /** Adds one latency (ms); a negative one counts as 0. */
  record(ms: number): void {
    this.#counts[indexOf(Math.round(ms > 0 ? ms * 1e6 : 0))]!++;
    this.count++;
  }

  /** The non-empty buckets in order of latency: [what the bucket reads as (ms), count]. */
  buckets(): Array<[number, number]> {
    const buckets: Array<[number, number]> = [];
    for (let index = 0; index < BUCKET_COUNT; index++)
      if (this.#counts[index]! > 0) buckets.push([valueOf(index), this.#counts[index]!]);
    return buckets;
  }
}

// The latency histogram of `mcpwire load`: HDR-style log-linear buckets over nanoseconds, a fixed
// array whatever the run's length, each bucket at most 1/128 of its value wide. Pure.

/** Sub-buckets per power of two (2^7): a bucket is at most 1/128 (0.78%) of its lower bound wide. */
const SUB_BITS = 7;
const SUB_COUNT = 1 << SUB_BITS;
/** Below this many nanoseconds every integer has a bucket of its own. */
const LINEAR_LIMIT = SUB_COUNT * 2;
/** The largest power of two with buckets (2^52 ns is 52 days); anything longer lands in the top one. */
const MAX_EXPONENT = 52;
const BUCKET_COUNT = LINEAR_LIMIT + (MAX_EXPONENT - SUB_BITS) * SUB_COUNT;
/** Where `#stats` holds what it holds. */
const COUNT = 0;
const SUM = 1;
const MIN = 2;
const MAX = 3;

/** One non-empty bucket: latencies in [fromMs, toMs). */
export interface HistogramBucket {
  fromMs: number;
  toMs: number;
  count: number;
}

/**
 * Latencies in milliseconds. `record` is O(1) and allocates nothing; percentiles are within 0.4% of
 * the exact nearest-rank value (a bucket's midpoint, clamped to the exact min and max, which are kept
 * as recorded, as are the count and the sum for the mean).
 */
export class LatencyHistogram {
  readonly #counts = new Float64Array(BUCKET_COUNT);
  /**
   * Count, sum, min and max in one typed array, not in fields: a field made 0 and then given a
   * fraction moves its object to another hidden class, and load makes the measured window's
   * histogram after the warm-up's has recorded, which had V8 drop the compiled answer path there.
   */
  readonly #stats = Float64Array.of(0, 0, Infinity, 0);

  /** Adds one latency (ms); a negative one counts as 0. */
  record(ms: number): void {
    const value = ms > 0 ? ms : 0;
    const stats = this.#stats;
    this.#counts[indexOf(Math.round(value * 1e6))]!++;
    stats[COUNT]!++;
    stats[SUM]! += value;
    if (value < stats[MIN]!) stats[MIN] = value;
    if (value > stats[MAX]!) stats[MAX] = value;
  }

  /** How many latencies were recorded. */
  get count(): number {
    return this.#stats[COUNT]!;
  }

  /** The size of the bucket array: the same whatever was recorded. */
  get bucketCount(): number {
    return this.#counts.length;
  }

  /** The smallest latency recorded, ms (0 when none). */
  get min(): number {
    return this.count === 0 ? 0 : this.#stats[MIN]!;
  }

  /** The largest latency recorded, ms (0 when none). */
  get max(): number {
    return this.#stats[MAX]!;
  }

  /** The mean latency, ms (0 when none). */
  get mean(): number {
    return this.count === 0 ? 0 : this.#stats[SUM]! / this.count;
  }

  /** The `p`th percentile (0-100, nearest rank), ms; 0 when nothing was recorded. */
  percentile(p: number): number {
    const count = this.count;
    if (count === 0) return 0;
    if (p <= 0) return this.min;
    if (p >= 100) return this.max;
    const rank = Math.max(1, Math.ceil((p / 100) * count));
    let seen = 0;
    for (let index = 0; index < BUCKET_COUNT; index++) {
      seen += this.#counts[index]!;
      if (seen < rank) continue;
      const [from, to] = boundsOf(index);
      const middle = index < LINEAR_LIMIT ? from : (from + to) / 2;
      return Math.min(this.max, Math.max(this.min, middle / 1e6));
    }
    return this.max;
  }

  /** The non-empty buckets, in order of latency. */
  buckets(): HistogramBucket[] {
    const buckets: HistogramBucket[] = [];
    for (let index = 0; index < BUCKET_COUNT; index++) {
      const count = this.#counts[index]!;
      if (count === 0) continue;
      const [from, to] = boundsOf(index);
      buckets.push({ fromMs: from / 1e6, toMs: to / 1e6, count });
    }
    return buckets;
  }
}

/** Below this many nanoseconds (2.1 s) `ns` fits a 32-bit integer's bit operations. */
const INTEGER_LIMIT = 2 ** 31;

/** The bucket of `ns` (a non-negative integer). */
function indexOf(ns: number): number {
  if (ns < LINEAR_LIMIT) return ns;
  if (ns < INTEGER_LIMIT) {
    // Every answer of a run lands here once: the highest bit and a shift, where the general case
    // below takes a logarithm and a power of two (Math.pow) per call.
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

/** The range [from, to) of nanoseconds that bucket `index` holds. */
function boundsOf(index: number): [number, number] {
  if (index < LINEAR_LIMIT) return [index, index + 1];
  const offset = index - LINEAR_LIMIT;
  const shift = Math.floor(offset / SUB_COUNT) + 1;
  const mantissa = SUB_COUNT + (offset % SUB_COUNT);
  return [mantissa * 2 ** shift, (mantissa + 1) * 2 ** shift];
}

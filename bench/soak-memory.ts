// Memory over the soak: samples of heap (after a forced GC) and RSS per process, the reader of the
// samples server processes print, and the "flat after warm-up" check.

/** One memory sample (bytes; `t` is the wall clock in ms). */
export interface MemorySample {
  t: number;
  pid: number;
  heapUsed: number;
  rss: number;
}

/** The JSON key that marks a memory report among a server process's output lines. */
export const MEMORY_KEY = 'soakMemory';

/** A process whose memory is charted: the soak's own (client) process, the HTTP server, stdio servers. */
export type ProcessRole = 'client' | 'http-server' | 'stdio-server';

/** Samples per role, in arrival order. */
export type MemorySeries = Record<ProcessRole, MemorySample[]>;

/** An empty set of series. */
export function createSeries(): MemorySeries {
  return { client: [], 'http-server': [], 'stdio-server': [] };
}

/** Takes a sample of this process after a forced GC (the soak runs with --expose-gc). */
export function sampleSelf(): MemorySample {
  (globalThis as { gc?: () => void }).gc?.();
  const { heapUsed, rss } = process.memoryUsage();
  return { t: Date.now(), pid: process.pid, heapUsed, rss };
}

/**
 * Splits a server's output into lines and hands each memory report to `onSample`; other lines go
 * to `onOther`. Keeps a partial last line until its newline arrives.
 */
export function createReportReader(
  onSample: (sample: MemorySample) => void,
  onOther: (line: string) => void = () => {},
): (text: string) => void {
  let pending = '';
  return (text) => {
    pending += text;
    let newline: number;
    while ((newline = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      const sample = parseReport(line);
      if (sample) onSample(sample);
      else if (line.trim() !== '') onOther(line);
    }
  };
}

function parseReport(line: string): MemorySample | undefined {
  if (!line.includes(MEMORY_KEY)) return undefined;
  try {
    const value = (JSON.parse(line) as Record<string, MemorySample | undefined>)[MEMORY_KEY];
    return value && typeof value.heapUsed === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Least-squares slope of `y` over `x`; 0 for fewer than two points. */
export function slope(points: ReadonlyArray<readonly [number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let numerator = 0;
  let denominator = 0;
  for (const [x, y] of points) {
    numerator += (x - meanX) * (y - meanY);
    denominator += (x - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

/** The verdict on one process's heap. */
export interface FlatnessVerdict {
  /** A process role, or a node life of the multi-node soak (`node2#1`). */
  role: string;
  samples: number;
  /** Least-squares heap growth over the second half, in bytes per minute. */
  slopeBytesPerMinute: number;
  /** That slope times the second half's length: the growth it predicts over that half. */
  projectedGrowthBytes: number;
  /** The largest projected growth allowed. */
  boundBytes: number;
  isFlat: boolean;
}

/** Projected growth over the second half must stay below this share of the half's mean heap... */
export const FLAT_SHARE = 0.1;
/** ...or below this many bytes, whichever is larger (small heaps move by a few hundred KiB). */
export const FLAT_FLOOR_BYTES = 2 * 1024 * 1024;

/**
 * "Flat after warm-up": over the second half of the run, the heap's least-squares growth projected
 * across that half is below max(FLAT_SHARE of its mean, FLAT_FLOOR_BYTES). Judges one long-lived
 * process's samples; undefined when there are fewer than four in the second half.
 */
export function judgeFlatness(role: string, samples: readonly MemorySample[]): FlatnessVerdict | undefined {
  if (samples.length < 2) return undefined;
  const start = samples[0]!.t;
  const end = samples.at(-1)!.t;
  const half = samples.filter((sample) => sample.t >= start + (end - start) / 2);
  if (half.length < 4) return undefined;
  const perMs = slope(half.map((sample) => [sample.t, sample.heapUsed] as const));
  const spanMs = half.at(-1)!.t - half[0]!.t;
  const mean = half.reduce((sum, sample) => sum + sample.heapUsed, 0) / half.length;
  const projectedGrowthBytes = perMs * spanMs;
  const boundBytes = Math.max(FLAT_SHARE * mean, FLAT_FLOOR_BYTES);
  return {
    role,
    samples: half.length,
    slopeBytesPerMinute: perMs * 60_000,
    projectedGrowthBytes,
    boundBytes,
    isFlat: projectedGrowthBytes < boundBytes,
  };
}

/** Bytes as MiB with one decimal, for reports. */
export function mib(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}

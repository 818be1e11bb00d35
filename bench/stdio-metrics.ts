// The stdio benchmark's metrics and what one server's measurements add up to across rounds (bench/stdio.ts).
import type { ErrorLog } from './raw-driver.ts';
import { median } from './stats.ts';

/** The headline metrics, and which direction is better for each. */
export const metrics = [
  { key: 'spawnMs', label: 'spawn→ready ms', digits: 1, better: 'lower' },
  { key: 'p50Us', label: 'seq p50 µs', digits: 0, better: 'lower' },
  { key: 'p99Us', label: 'seq p99 µs', digits: 0, better: 'lower' },
  { key: 'callsPerSecond', label: 'pipelined calls/s', digits: 0, better: 'higher' },
  { key: 'serverCpuUs', label: 'pipelined server CPU µs/call', digits: 1, better: 'lower' },
  { key: 'steadyCallsPerSecond', label: 'steady calls/s', digits: 0, better: 'higher' },
  { key: 'steadyServerCpuUs', label: 'steady server CPU µs/call', digits: 1, better: 'lower' },
] as const;
export type MetricKey = (typeof metrics)[number]['key'];

/** Everything observed for one server on one workload across all rounds. */
export interface ServerResult {
  name: string;
  /** Arguments after `node` that started it for this workload. */
  entry?: readonly string[];
  /** Why the server does not speak this workload's era; it is not run and has no ratio. */
  notApplicable?: string;
  unavailable?: string;
  /** Per-round values from measurements with no verification errors. */
  samples: Record<MetricKey, number[]>;
  errors: number;
  errorSamples: string[];
  /** Measurements that crashed or timed out. */
  failures: string[];
}

/** A server's result before its first round: no samples, no errors. */
export function newResult(name: string): ServerResult {
  return {
    name,
    samples: Object.fromEntries(metrics.map(({ key }) => [key, [] as number[]])) as Record<
      MetricKey,
      number[]
    >,
    errors: 0,
    errorSamples: [],
    failures: [],
  };
}

/** Keeps a measurement's values only when every response verified; otherwise records the errors instead. */
export function record(
  result: ServerResult,
  errors: ErrorLog,
  values: Partial<Record<MetricKey, number | undefined>>,
): void {
  result.errors += errors.count;
  for (const sample of errors.samples) if (result.errorSamples.length < 5) result.errorSamples.push(sample);
  if (errors.count > 0) return;
  for (const [key, value] of Object.entries(values) as [MetricKey, number | undefined][])
    if (value !== undefined) result.samples[key].push(value);
}

/** The median of each metric over the rounds (undefined where no round measured it). */
export function medians(result: ServerResult): Record<MetricKey, number | undefined> {
  const entries = metrics.map(({ key }) => [key, median(result.samples[key])] as const);
  return Object.fromEntries(entries) as Record<MetricKey, number | undefined>;
}

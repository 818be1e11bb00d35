// `--assert 'p99<50ms,errors=0,rps>1000'`: the expressions parsed (a usage error saying what is
// allowed when one cannot be judged) and judged against a run's measures. Pure.

import { UsageError } from '../../exit-code.ts';

/** What an assertion can be about. Latencies are in ms. */
export type AssertionMetric =
  'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'mean' | 'errors' | 'error_rate' | 'rps';

/** How the measure is compared with the value. */
export type AssertionOperator = '<' | '<=' | '>' | '>=' | '=';

/** One parsed assertion: `metric operator value` (a latency's value in ms). */
export interface LoadAssertion {
  /** As written, without the spaces around it. */
  expression: string;
  metric: AssertionMetric;
  operator: AssertionOperator;
  value: number;
}

/** A run's measures an assertion is judged against (latencies in ms). */
export interface LoadMeasures {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
  errors: number;
  /** errors / requests, 0 when there were none. */
  errorRate: number;
  rps: number;
}

/** One assertion's verdict and the measure it was judged on. */
export interface AssertionOutcome {
  expression: string;
  passed: boolean;
  actual: number;
}

/** What `--assert` accepts, for its help and its errors. */
export const ASSERT_FORMS =
  'p50|p90|p99|p999|max|mean with <, <=, > or >= and a time in us, ms or s (p99<50ms); ' +
  'errors with =, <, <=, > or >= and a whole number (errors=0); error_rate with a fraction ' +
  'from 0 to 1 (error_rate<0.01); rps with a number (rps>1000); several separated by commas';

const LATENCY = new Set<AssertionMetric>(['p50', 'p90', 'p99', 'p999', 'max', 'mean']);
const PATTERN =
  /^(p50|p90|p99|p999|max|mean|errors|error_rate|rps)(<=|>=|<|>|=)(\d+(?:\.\d+)?|\.\d+)(us|µs|ms|s)?$/;
const UNIT_MS: Record<string, number> = { us: 0.001, µs: 0.001, ms: 1, s: 1000 };

/**
 * The assertions of every `--assert` value (each a comma-separated list), in order. Throws
 * UsageError naming the first expression that cannot be judged, why, and {@link ASSERT_FORMS}.
 */
export function parseAssertions(values: readonly string[]): LoadAssertion[] {
  const assertions: LoadAssertion[] = [];
  for (const value of values) for (const part of value.split(',')) assertions.push(parseOne(part.trim()));
  return assertions;
}

function parseOne(expression: string): LoadAssertion {
  const refuse = (why: string): UsageError =>
    new UsageError(`--assert "${expression}": ${why}; allowed: ${ASSERT_FORMS}`);
  const match = PATTERN.exec(expression.replace(/\s+/g, ''));
  if (match === null) throw refuse('not an assertion');
  const metric = match[1] as AssertionMetric;
  const operator = match[2] as AssertionOperator;
  const number = Number(match[3]);
  const unit = match[4];
  if (LATENCY.has(metric)) {
    if (unit === undefined) throw refuse(`${metric} needs a unit (us, ms or s)`);
    if (operator === '=') throw refuse(`${metric} is compared with <, <=, > or >=, not =`);
    return { expression, metric, operator, value: number * UNIT_MS[unit]! };
  }
  if (unit !== undefined) throw refuse(`${metric} takes no unit`);
  if (metric === 'errors' && !Number.isInteger(number)) throw refuse('errors is a whole number');
  if (metric === 'error_rate' && number > 1) throw refuse('error_rate is a fraction from 0 to 1');
  return { expression, metric, operator, value: number };
}

/** Each assertion judged against `measures`, in order. */
export function evaluateAssertions(
  assertions: readonly LoadAssertion[],
  measures: LoadMeasures,
): AssertionOutcome[] {
  return assertions.map(({ expression, metric, operator, value }) => {
    const actual = measureOf(measures, metric);
    return { expression, passed: compare(actual, operator, value), actual };
  });
}

function measureOf(measures: LoadMeasures, metric: AssertionMetric): number {
  return metric === 'error_rate' ? measures.errorRate : measures[metric];
}

function compare(actual: number, operator: AssertionOperator, value: number): boolean {
  switch (operator) {
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
    case '=':
      return actual === value;
  }
}

/** How an outcome's measure reads in a message: `p99 was 12.3 ms`, `errors was 2`. */
export function describeActual(outcome: AssertionOutcome): string {
  const metric = PATTERN.exec(outcome.expression.replace(/\s+/g, ''))?.[1] ?? '';
  const shown = LATENCY.has(metric as AssertionMetric)
    ? `${formatMs(outcome.actual)} ms`
    : metric === 'rps'
      ? outcome.actual.toFixed(1)
      : String(outcome.actual);
  return `${metric} was ${shown}`;
}

/** A latency in ms with three significant decimals at most. */
export function formatMs(ms: number): string {
  if (ms >= 100) return ms.toFixed(1);
  if (ms >= 10) return ms.toFixed(2);
  return ms.toFixed(3);
}

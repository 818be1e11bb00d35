// `--assert`: what parses (and into what), what is refused with the forms that are allowed, and how
// each assertion is judged against a run's measures.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError } from '../../exit-code.ts';
import { evaluateAssertions, parseAssertions, type LoadMeasures } from './assertions.ts';

test('parses latency with units, counts, rates and rps; spaces and repeated lists allowed', () => {
  const parsed = parseAssertions(['p99<50ms, errors=0', 'rps>1000,p50<=200us,max<2s,p999>=1.5ms']);
  assert.deepEqual(
    parsed.map(({ metric, operator, value }) => [metric, operator, value]),
    [
      ['p99', '<', 50],
      ['errors', '=', 0],
      ['rps', '>', 1000],
      ['p50', '<=', 0.2],
      ['max', '<', 2000],
      ['p999', '>=', 1.5],
    ],
  );
  assert.deepEqual(parsed[0]?.expression, 'p99<50ms');
  const more = parseAssertions(['mean>0us,p90<1s,errors<5,error_rate<0.01']);
  assert.deepEqual(
    more.map(({ metric, operator, value }) => [metric, operator, value]),
    [
      ['mean', '>', 0],
      ['p90', '<', 1000],
      ['errors', '<', 5],
      ['error_rate', '<', 0.01],
    ],
  );
});

test('refuses what it cannot judge, naming the expression and the allowed forms', () => {
  for (const bad of [
    'p98<5ms',
    'p99<50',
    'p99<50min',
    'p99=50ms',
    'errors=1.5',
    'errors<-1',
    'rps>fast',
    'error_rate<2',
    'p99 < ms',
    '',
    'errors==0',
  ]) {
    assert.throws(
      () => parseAssertions([bad]),
      (error: unknown) =>
        error instanceof UsageError &&
        error.message.includes(`"${bad}"`) &&
        error.message.includes('p50|p90|p99|p999|max|mean') &&
        error.message.includes('errors'),
      `expected a UsageError for ${JSON.stringify(bad)}`,
    );
  }
});

test('judges each assertion against the measures, with the actual value', () => {
  const measures: LoadMeasures = {
    p50: 2,
    p90: 8,
    p99: 40,
    p999: 60,
    max: 75,
    mean: 3,
    errors: 2,
    errorRate: 0.002,
    rps: 1200,
  };
  const outcomes = evaluateAssertions(
    parseAssertions(['p99<50ms,p999<50ms,errors=0,errors<=2,error_rate<0.01,rps>1000,rps>=2000,max>75ms']),
    measures,
  );
  assert.deepEqual(
    outcomes.map(({ expression, passed, actual }) => [expression, passed, actual]),
    [
      ['p99<50ms', true, 40],
      ['p999<50ms', false, 60],
      ['errors=0', false, 2],
      ['errors<=2', true, 2],
      ['error_rate<0.01', true, 0.002],
      ['rps>1000', true, 1200],
      ['rps>=2000', false, 1200],
      ['max>75ms', false, 75],
    ],
  );
});

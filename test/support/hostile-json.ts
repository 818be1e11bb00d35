// Fuzzing the walkers over untrusted JSON (issue 21): the hostile shapes (deep arrays and objects,
// wide, long strings, lone surrogates, `__proto__` keys), random JSON with hostile pieces, and one
// runner. A target passes when it returns, or throws one of the typed errors it documents: never a
// RangeError (stack exhausted) or a TypeError (a walker that met a shape it did not expect).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkProperty, FUZZ_RUNS_ENV } from './property.ts';

/** One input: its JSON text and the value JSON.parse makes of it (a `__proto__` key stays data). */
export interface FuzzInput {
  name: string;
  text: string;
  value: unknown;
}

/** A walker under test: `run` may return anything, or throw one of the `expected` error classes. */
export interface FuzzTarget {
  name: string;
  run: (input: FuzzInput) => unknown;
  expected?: ReadonlyArray<abstract new (...args: never[]) => Error>;
}

/** An input from JSON text (built as text: JSON.stringify recurses and fails on deep values). */
export function inputOfText(name: string, text: string): FuzzInput {
  return { name, text, value: JSON.parse(text) as unknown };
}

/** The hostile shapes; `scale` 1 is full size: 10^5 levels or keys, 10 MB strings. */
export function hostileInputs(scale = 1): FuzzInput[] {
  const count = Math.max(2, Math.round(100_000 * scale));
  const length = Math.max(2, Math.round(10_000_000 * scale));
  const wide = Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, index]));
  const chain = '{"type":"object","properties":{"a":';
  return [
    inputOfText('deep arrays', '['.repeat(count) + ']'.repeat(count)),
    inputOfText('deep objects', '{"a":'.repeat(count) + '1' + '}'.repeat(count)),
    inputOfText(
      'deep properties chain',
      chain.repeat(count) + '{"type":"string","x-mcp-header":"H"}' + '}}'.repeat(count),
    ),
    inputOfText('wide object', JSON.stringify(wide)),
    inputOfText('wide array', JSON.stringify(Array.from({ length: count }, (_, id) => ({ id })))),
    inputOfText('long string', JSON.stringify({ text: 'x'.repeat(length) })),
    inputOfText(
      'lone surrogates',
      JSON.stringify({ '\ud800': '\udc00 \ud83d', text: 'a\udfffb', list: ['\ud800'] }),
    ),
    inputOfText(
      '__proto__ and constructor keys',
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"properties":{"__proto__":{"type":"string","x-mcp-header":"P"}}}',
    ),
  ];
}

/** Random JSON with hostile pieces spliced in: nesting up to 20,000 deep under a hostile key. */
export const hostileJsonText: fc.Arbitrary<string> = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }),
    fc.integer({ min: 0, max: 20_000 }),
    fc.boolean(),
    fc.constantFrom('\ud800', '\udc00x', '__proto__', 'constructor', 'x-mcp-header', '$ref', 'properties'),
  )
  .map(([value, levels, asArray, key]) => {
    const leaf = JSON.stringify(value);
    const nested = asArray
      ? '['.repeat(levels) + leaf + ']'.repeat(levels)
      : '{"a":'.repeat(levels) + leaf + '}'.repeat(levels);
    return `{${JSON.stringify(key)}:${nested},"properties":{${JSON.stringify(key)}:${leaf}}}`;
  });

/** Runs `target` on `input`: undefined when it passed, else why it failed. */
export function failureOf(target: FuzzTarget, input: FuzzInput): string | undefined {
  try {
    target.run(input);
    return undefined;
  } catch (error) {
    if (target.expected?.some((kind) => error instanceof kind)) return undefined;
    const what = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return `${target.name} on ${input.name}: ${what}`;
  }
}

/**
 * Two tests per target: every hostile shape, and random hostile JSON. In `npm test` the shapes at a
 * tenth of full size and 3 random cases; under `npm run fuzz` (MCPWIRE_FUZZ_RUNS) full size and
 * MCPWIRE_FUZZ_RUNS * 3 / 100 random cases.
 */
export function fuzzTargets(title: string, targets: readonly FuzzTarget[]): void {
  const inputs = hostileInputs(process.env[FUZZ_RUNS_ENV] === undefined ? 0.1 : 1);
  describe(title, () => {
    for (const target of targets) {
      test(`${target.name}: the hostile shapes`, () => {
        const failures = inputs
          .map((input) => failureOf(target, input))
          .filter((failure) => failure !== undefined);
        assert.deepEqual(failures, []);
      });
      test(`${target.name}: random JSON with hostile pieces`, async (t) => {
        await checkProperty(
          t,
          fc.property(hostileJsonText, (text) => {
            assert.equal(failureOf(target, inputOfText('random', text)), undefined);
          }),
          { runs: 3 },
        );
      });
    }
  });
}

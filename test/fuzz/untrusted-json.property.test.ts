// Every walker over untrusted JSON (test/fuzz/untrusted-json-targets.ts) on the hostile shapes and on
// random JSON with hostile pieces spliced in (issue 21). In `npm test` the shapes at a tenth of full
// size and 3 random cases per target; `npm run fuzz` (MCPWIRE_FUZZ_RUNS) full size and many cases.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { checkProperty, FUZZ_RUNS_ENV } from '../support/property.ts';
import { failureOf, hostileInputs, inputOf, TARGETS } from './untrusted-json-targets.ts';

/** Nests `inner` `levels` deep in arrays or objects (iteratively). */
function nest(inner: unknown, levels: number, asArray: boolean): unknown {
  let node = inner;
  for (let level = 0; level < levels; level += 1) node = asArray ? [node] : { a: node };
  return node;
}

/** Random JSON with hostile pieces: nesting up to 20,000 deep, lone surrogates, `__proto__` keys. */
const hostileJson = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }),
    fc.integer({ min: 0, max: 20_000 }),
    fc.boolean(),
    fc.constantFrom('\ud800', '\udc00x', '__proto__', 'constructor', 'x-mcp-header', '$ref'),
  )
  .map(([value, levels, asArray, key]) => ({
    [key]: nest(value, levels, asArray),
    properties: { [key]: value },
  }));

// Full size (10^5 levels and keys, 10 MB strings) under `npm run fuzz`; a tenth of it in `npm test`.
const INPUTS = hostileInputs(process.env[FUZZ_RUNS_ENV] === undefined ? 0.1 : 1);

describe('fuzz targets: walkers over untrusted JSON', () => {
  for (const target of TARGETS) {
    test(`${target.name}: the hostile shapes`, () => {
      const failures = INPUTS.map((input) => failureOf(target, input)).filter(
        (failure) => failure !== undefined,
      );
      assert.deepEqual(failures, []);
    });

    test(`${target.name}: random JSON with hostile pieces`, async (t) => {
      await checkProperty(
        t,
        fc.property(hostileJson, (value) => {
          const failure = failureOf(target, inputOf('random', value));
          assert.equal(failure, undefined);
        }),
        { runs: 3 },
      );
    });
  }
});

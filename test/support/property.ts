// Runs fast-check properties the same way in every suite: a small budget in `npm test`, a larger one
// under `npm run fuzz` (scripts/fuzz.mjs sets MCPWIRE_FUZZ_RUNS), each run's count of cases reported.

import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { TestContext } from 'node:test';

import fc from 'fast-check';

/** Cases for a property whose quick budget is the default (100); others scale in proportion. */
export const FUZZ_RUNS_ENV = 'MCPWIRE_FUZZ_RUNS';
/** A file that gets one JSON line per property run: `{file, property, cases, skipped, seed}`. */
export const FUZZ_REPORT_ENV = 'MCPWIRE_FUZZ_REPORT';
/** Replays every property from this seed (a failure report prints the seed it used). */
export const FUZZ_SEED_ENV = 'MCPWIRE_FUZZ_SEED';

/** fast-check's own default number of cases, the budget of a property in `npm test`. */
export const QUICK_RUNS = 100;

/** Options of {@link checkProperty}. */
export interface PropertyOptions<Ts> {
  /**
   * Cases in the quick run (default 100). An expensive property asks for fewer; under
   * MCPWIRE_FUZZ_RUNS=N it runs N * runs / 100 cases, so the ratio between properties stays.
   */
  runs?: number;
  /**
   * Inputs always tried first, before the random ones: the regression cases. Each one is a seed
   * that once failed, kept with a comment saying what broke.
   */
  examples?: Ts[];
}

/** The number of cases a property with quick budget `quick` gets in this run. */
export function runsFor(quick: number = QUICK_RUNS): number {
  const fuzz = Number(process.env[FUZZ_RUNS_ENV]);
  if (!Number.isSafeInteger(fuzz) || fuzz <= 0) return quick;
  return Math.max(quick, Math.round((fuzz * quick) / QUICK_RUNS));
}

/**
 * Checks `property` (sync or async) and fails the test with fast-check's report (counterexample,
 * seed and path, shrunk) when a case fails. The count of cases run goes to the test's diagnostics
 * and, under `npm run fuzz`, to the report file. The regression `examples` run in every mode.
 */
export async function checkProperty<Ts>(
  t: TestContext,
  property: fc.IRawProperty<Ts>,
  options: PropertyOptions<Ts> = {},
): Promise<void> {
  const seedText = process.env[FUZZ_SEED_ENV];
  const parameters: fc.Parameters<Ts> = { numRuns: runsFor(options.runs) };
  if (options.examples !== undefined) parameters.examples = options.examples;
  if (seedText !== undefined && seedText !== '') parameters.seed = Number(seedText);
  const details = await fc.check(property, parameters);
  const cases = details.numRuns;
  t.diagnostic(`${cases} cases (${details.numSkips} skipped), seed ${details.seed}`);
  const report = process.env[FUZZ_REPORT_ENV];
  if (report !== undefined && report !== '') {
    const line = {
      // The test runner gives every file its own process, started with the file as its script.
      file: relative(process.cwd(), process.argv[1] ?? ''),
      property: t.name,
      cases,
      skipped: details.numSkips,
      seed: details.seed,
      failed: details.failed,
    };
    appendFileSync(report, `${JSON.stringify(line)}\n`);
  }
  if (!details.failed) return;
  const cause = details.errorInstance;
  const why = cause instanceof Error ? cause.message : String(cause);
  throw new Error(`${fc.defaultReportMessage(details) ?? 'property failed'}\n\nGot: ${why}`, { cause });
}

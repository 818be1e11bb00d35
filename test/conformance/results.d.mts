// Types of results.mjs (plain JavaScript so that scripts/conformance.mjs runs without tsx), for its test.

/** One check as the suite writes it in checks.json. */
export interface Check {
  id: string;
  name: string;
  description: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'SKIPPED' | 'INFO';
  errorMessage?: string;
  details?: Record<string, unknown>;
}

/** One scenario run at one revision; `checks` is undefined when the harness wrote none. */
export interface ScenarioRun {
  side: 'server' | 'client';
  scenario: string;
  version: string;
  checks: Check[] | undefined;
  problems?: string[];
}

export interface ExpectedFailure {
  scenario: string;
  reason: string;
  issue: string;
}

export interface AllowedSkip {
  scenario: string;
  /** A check id or name. */
  check: string;
  specVersion?: string;
  reason: string;
}

export interface Expected {
  failures: ExpectedFailure[];
  allowedSkips: AllowedSkip[];
}

export interface JudgedRun extends ScenarioRun {
  isPass: boolean;
  failures: Check[];
  warnings: Check[];
  allowedSkipped: { check: Check; rule: AllowedSkip }[];
  problems: string[];
}

export const SPEC_VERSIONS: readonly string[];
export function parseScenarioList(text: string): { name: string; tags: string[] }[];
export function defaultVersionOf(tags: readonly string[]): string;
export function scenarioOfResultDir(dirName: string): string | undefined;
export function readResultDirs(dir: string): { dirName: string; checks: Check[] }[];
export function judgeRun(run: ScenarioRun, allowedSkips: readonly AllowedSkip[]): JudgedRun;
export function parseExpected(text: string): Expected;
export function compareWithExpected(
  judged: readonly JudgedRun[],
  expected: Expected,
  options: { isComplete: boolean },
): {
  unexpected: JudgedRun[];
  expectedSeen: { run: JudgedRun; entry: ExpectedFailure }[];
  stale: string[];
};
export function formatTable(judged: readonly JudgedRun[], expected: Expected): string;
export function formatFailure(run: JudgedRun): string;
export function formatWarnings(run: JudgedRun): string[];

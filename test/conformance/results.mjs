// Reading and judging the official conformance suite's results: its scenario list, its checks.json
// files, one verdict per scenario run, and the comparison with expected-failures.json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The two protocol revisions every scenario is run at, oldest first. */
export const SPEC_VERSIONS = ['2025-11-25', '2026-07-28'];

/** Scenario families that expected-failures.json may name; every other scenario must pass. */
const EXCUSABLE = [/^auth\//, /^tasks-/, /^sep-2640-/];

/**
 * Parses the output of `conformance list --client` or `--server` (`  - name [tag,tag]`) into
 * `{ name, tags }`, in the order listed. Tags are revision dates or `extension`.
 */
export function parseScenarioList(text) {
  const scenarios = [];
  for (const line of text.split('\n')) {
    const match = /^\s+- (\S+) \[([^\]]*)\]\s*$/.exec(line);
    if (match) scenarios.push({ name: match[1], tags: match[2].split(',').map((tag) => tag.trim()) });
  }
  return scenarios;
}

/**
 * The revision the suite picks for a scenario run without `--spec-version`: 2026-07-28 for
 * extensions and scenarios introduced then, else 2025-11-25 (the harness's own rule).
 */
export function defaultVersionOf(tags) {
  const isStatelessOnly = tags.every((tag) => tag === 'extension' || tag === '2026-07-28');
  return isStatelessOnly ? '2026-07-28' : '2025-11-25';
}

/** The name a server result folder carries (`server-<scenario>-<ISO timestamp with dashes>`). */
export function scenarioOfResultDir(dirName) {
  const match = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(dirName);
  return match ? match[1] : undefined;
}

/** Every `checks.json` under `dir` (one level of result folders), as `{ dirName, checks }`. */
export function readResultDirs(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, 'checks.json')))
    .map((entry) => ({
      dirName: entry.name,
      checks: JSON.parse(readFileSync(join(dir, entry.name, 'checks.json'), 'utf8')),
    }));
}

/**
 * Judges one scenario run `{ side, scenario, version, checks, problems }`. It passes when it
 * produced checks, none is FAILURE, every SKIPPED one is allowed by `allowedSkips`, and the run
 * had no problem (harness error, client exit code, time-out). WARNING and INFO never fail it.
 */
export function judgeRun(run, allowedSkips) {
  const failures = [];
  const warnings = [];
  const allowedSkipped = [];
  for (const check of run.checks ?? []) {
    if (check.status === 'FAILURE') failures.push(check);
    else if (check.status === 'WARNING') warnings.push(check);
    else if (check.status === 'SKIPPED') {
      const rule = allowedSkips.find((skip) => skipMatches(skip, run, check));
      if (rule) allowedSkipped.push({ check, rule });
      else
        failures.push({
          ...check,
          errorMessage: `unexpected SKIPPED: ${check.errorMessage ?? check.description}`,
        });
    }
  }
  const problems = [...(run.problems ?? [])];
  const judged = (run.checks ?? []).filter((check) => check.status !== 'INFO');
  if (run.checks && judged.length === 0)
    problems.push(`no check was scored (only INFO)${lastInfo(run.checks)}`);
  if (!run.checks && problems.length === 0) problems.push('no checks.json was written');
  const isPass = failures.length === 0 && problems.length === 0;
  return { ...run, isPass, failures, warnings, allowedSkipped, problems };
}

/** The last INFO check of a run that scored nothing: usually why the scenario had nothing to test. */
function lastInfo(checks) {
  const last = checks.at(-1);
  if (!last) return '';
  const message = last.details?.message ?? last.errorMessage ?? '';
  return `; the last says: ${last.description}${message ? ` (${message})` : ''}`;
}

function skipMatches(skip, run, check) {
  return (
    skip.scenario === run.scenario &&
    (skip.check === check.id || skip.check === check.name) &&
    (skip.specVersion === undefined || skip.specVersion === run.version)
  );
}

/**
 * Reads and validates expected-failures.json: `failures` may name only auth, tasks-* and sep-2640-*
 * scenarios, each with a reason and an issue; `allowedSkips` entries need a scenario, a check
 * (id or name) and a reason. Throws an Error naming the first bad entry.
 */
export function parseExpected(text) {
  const file = JSON.parse(text);
  const failures = file.failures ?? [];
  const allowedSkips = file.allowedSkips ?? [];
  for (const entry of failures) {
    if (!EXCUSABLE.some((pattern) => pattern.test(entry.scenario ?? ''))) {
      throw new Error(
        `expected-failures.json: "${entry.scenario}" may not be an expected failure (only auth/*, tasks-*, sep-2640-*)`,
      );
    }
    if (!entry.reason || !entry.issue) {
      throw new Error(`expected-failures.json: "${entry.scenario}" needs both a reason and an issue`);
    }
  }
  for (const skip of allowedSkips) {
    if (!skip.scenario || !skip.check || !skip.reason) {
      throw new Error(
        `expected-failures.json: allowedSkips entry ${JSON.stringify(skip)} needs scenario, check, reason`,
      );
    }
  }
  return { failures, allowedSkips };
}

/**
 * Compares judged runs with the expectations. `isComplete` says every scenario was run, so an
 * entry that matched nothing is stale too. Returns the runs that failed unexpectedly, the expected
 * failures seen, and the stale entries (expected to fail but passing, or never seen).
 */
export function compareWithExpected(judged, expected, { isComplete }) {
  const unexpected = [];
  const expectedSeen = [];
  for (const run of judged.filter((r) => !r.isPass)) {
    const entry = expected.failures.find((f) => f.scenario === run.scenario);
    if (entry) expectedSeen.push({ run, entry });
    else unexpected.push(run);
  }
  const stale = [];
  for (const entry of expected.failures) {
    const runs = judged.filter((run) => run.scenario === entry.scenario);
    if (runs.length > 0 && runs.every((run) => run.isPass)) {
      stale.push(`${entry.scenario}: listed as an expected failure but now passes; remove it`);
    } else if (runs.length === 0 && isComplete) {
      stale.push(`${entry.scenario}: listed as an expected failure but the suite did not run it`);
    }
  }
  for (const skip of expected.allowedSkips) {
    const runs = judged.filter(
      (run) =>
        run.scenario === skip.scenario &&
        (skip.specVersion === undefined || skip.specVersion === run.version),
    );
    const isUsed = runs.some((run) => run.allowedSkipped.some((s) => s.rule === skip));
    if (runs.length > 0 && runs.every((run) => run.checks) && !isUsed) {
      stale.push(`${skip.scenario}: allowed skip "${skip.check}" no longer happens; remove it`);
    } else if (runs.length === 0 && isComplete) {
      stale.push(`${skip.scenario}: allowed skip "${skip.check}" names a scenario the suite did not run`);
    }
  }
  return { unexpected, expectedSeen, stale };
}

/** The per-scenario table: one row per side and scenario, one column per revision. */
export function formatTable(judged, expected) {
  const rows = new Map();
  for (const run of judged) {
    const key = `${run.side} ${run.scenario}`;
    const row = rows.get(key) ?? { side: run.side, scenario: run.scenario, cells: {} };
    row.cells[run.version] = run;
    rows.set(key, row);
  }
  const width = Math.max(8, ...[...rows.values()].map((row) => row.scenario.length));
  const lines = [
    `${'side'.padEnd(7)}${'scenario'.padEnd(width + 2)}${SPEC_VERSIONS.map((v) => v.padEnd(16)).join('')}note`,
  ];
  for (const row of rows.values()) {
    const entry = expected.failures.find((f) => f.scenario === row.scenario);
    const cells = SPEC_VERSIONS.map((version) => cellText(row.cells[version], entry).padEnd(16)).join('');
    const note =
      entry && Object.values(row.cells).some((run) => !run.isPass) ? `expected: ${entry.issue}` : '';
    lines.push(`${row.side.padEnd(7)}${row.scenario.padEnd(width + 2)}${cells}${note}`.trimEnd());
  }
  return lines.join('\n');
}

function cellText(run, entry) {
  if (!run) return '-';
  if (run.isPass) return run.warnings.length > 0 ? `pass (${run.warnings.length}w)` : 'pass';
  const count = run.failures.length + run.problems.length;
  return `${entry ? 'xfail' : 'FAIL'} (${count})`;
}

/** What failed in one run: each failing check's id, name and message, and each run problem. */
export function formatFailure(run) {
  const lines = [`${run.side} ${run.scenario} @ ${run.version}:`];
  for (const problem of run.problems) lines.push(`  ! ${problem}`);
  for (const check of run.failures) {
    lines.push(`  - ${check.id} (${check.name}): ${clip(check.errorMessage ?? check.description, 600)}`);
    const violations = check.details?.violations;
    if (Array.isArray(violations)) {
      for (const violation of violations.slice(0, 5))
        lines.push(`      ${clip(JSON.stringify(violation), 600)}`);
    } else if (!check.errorMessage && check.details) {
      lines.push(`      details: ${clip(JSON.stringify(check.details), 400)}`);
    }
  }
  return lines.join('\n');
}

/** The warnings of one run, one line each. */
export function formatWarnings(run) {
  return run.warnings.map(
    (check) =>
      `  ~ ${run.side} ${run.scenario} @ ${run.version}: ${check.id}: ${clip(check.errorMessage ?? check.description, 300)}`,
  );
}

function clip(text, max) {
  const flat = String(text).replace(/\s+/g, ' ');
  return flat.length > max ? `${flat.slice(0, max)}...` : flat;
}

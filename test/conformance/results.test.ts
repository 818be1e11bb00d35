// How the conformance results are read and judged: the scenario list, result folder names, one
// verdict per run (SKIPPED and missing checks fail), and expected-failures.json kept honest.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compareWithExpected,
  defaultVersionOf,
  judgeRun,
  parseExpected,
  parseScenarioList,
  scenarioOfResultDir,
  type Check,
  type Expected,
} from './results.mjs';

function check(id: string, status: Check['status'], name = id): Check {
  return { id, name, description: `${id} described`, status };
}

const NONE: Expected = { failures: [], allowedSkips: [] };

describe('reading the suite', () => {
  test('the scenario list keeps names and tags', () => {
    const text =
      'Server scenarios (test against a server):\n  - tools-list [2025-06-18,2026-07-28]\n  - tasks-lifecycle [extension]\n';
    assert.deepEqual(parseScenarioList(text), [
      { name: 'tools-list', tags: ['2025-06-18', '2026-07-28'] },
      { name: 'tasks-lifecycle', tags: ['extension'] },
    ]);
  });

  test('without --spec-version a scenario runs at 2026-07-28 only when it exists only there', () => {
    assert.equal(defaultVersionOf(['2025-06-18', '2025-11-25', '2026-07-28']), '2025-11-25');
    assert.equal(defaultVersionOf(['2026-07-28']), '2026-07-28');
    assert.equal(defaultVersionOf(['extension']), '2026-07-28');
  });

  test('server result folders name their scenario', () => {
    assert.equal(
      scenarioOfResultDir('server-server-initialize-2026-11-30T00-44-59-265Z'),
      'server-initialize',
    );
    assert.equal(scenarioOfResultDir('checks'), undefined);
  });
});

describe('judging one run', () => {
  const base = { side: 'server' as const, scenario: 'caching', version: '2026-07-28' };

  test('warnings and info pass, a failure fails', () => {
    const passing = judgeRun(
      { ...base, checks: [check('a', 'SUCCESS'), check('b', 'WARNING'), check('c', 'INFO')] },
      [],
    );
    assert.equal(passing.isPass, true);
    assert.equal(passing.warnings.length, 1);
    const failing = judgeRun({ ...base, checks: [check('a', 'SUCCESS'), check('b', 'FAILURE')] }, []);
    assert.deepEqual(
      failing.failures.map((c) => c.id),
      ['b'],
    );
    assert.equal(failing.isPass, false);
  });

  test('a SKIPPED check fails unless an allowed skip names it by id or name (and revision)', () => {
    const checks = [check('sep-2243-x', 'SKIPPED', 'Header_initialize')];
    assert.equal(judgeRun({ ...base, checks }, []).isPass, false);
    const byName = { scenario: 'caching', check: 'Header_initialize', reason: 'not sent in 2026' };
    assert.equal(judgeRun({ ...base, checks }, [byName]).isPass, true);
    const otherVersion = { ...byName, specVersion: '2025-11-25' };
    assert.equal(judgeRun({ ...base, checks }, [otherVersion]).isPass, false);
  });

  test('no checks, only INFO checks, or a run problem fail', () => {
    assert.equal(judgeRun({ ...base, checks: undefined }, []).isPass, false);
    assert.equal(judgeRun({ ...base, checks: [check('log', 'INFO')] }, []).isPass, false);
    const exited = judgeRun({ ...base, checks: [check('a', 'SUCCESS')], problems: ['exited with 1'] }, []);
    assert.equal(exited.isPass, false);
  });
});

describe('expected failures', () => {
  test('only auth, tasks and skills scenarios may be listed, each with a reason and an issue', () => {
    const entry = (scenario: string) => JSON.stringify({ failures: [{ scenario, reason: 'r', issue: 'i' }] });
    assert.equal(parseExpected(entry('tasks-lifecycle')).failures.length, 1);
    assert.equal(parseExpected(entry('auth/dpop')).failures.length, 1);
    assert.throws(() => parseExpected(entry('tools-list')), /may not be an expected failure/);
    assert.throws(
      () => parseExpected(JSON.stringify({ failures: [{ scenario: 'tasks-x' }] })),
      /reason and an issue/,
    );
  });

  test('a listed scenario that passes, or that never ran in a full run, is stale', () => {
    const expected: Expected = {
      failures: [
        { scenario: 'tasks-lifecycle', reason: 'r', issue: 'i' },
        { scenario: 'tasks-gone', reason: 'r', issue: 'i' },
      ],
      allowedSkips: [],
    };
    const run = (scenario: string, status: Check['status']) =>
      judgeRun({ side: 'server', scenario, version: '2026-07-28', checks: [check('a', status)] }, []);
    const failing = compareWithExpected(
      [run('tasks-lifecycle', 'FAILURE'), run('tools-list', 'FAILURE')],
      expected,
      {
        isComplete: false,
      },
    );
    assert.deepEqual(
      failing.unexpected.map((r) => r.scenario),
      ['tools-list'],
    );
    assert.equal(failing.expectedSeen.length, 1);
    assert.deepEqual(failing.stale, []);
    const fixed = compareWithExpected([run('tasks-lifecycle', 'SUCCESS')], expected, { isComplete: true });
    assert.equal(fixed.stale.length, 2);
    assert.match(fixed.stale[0] ?? '', /now passes/);
    assert.match(fixed.stale[1] ?? '', /did not run/);
    assert.deepEqual(compareWithExpected([], NONE, { isComplete: true }).stale, []);
  });
});

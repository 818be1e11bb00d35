// The linter's memory is bounded: what a connection's state keeps of requests, progress tokens and
// invalid lines stays within LINT_LIMITS however many entries pass (a tap runs for days), and what
// falls out of the window costs findings only in the documented direction (a missed reuse, never
// a false "unknown id").

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventEntry, Side } from '../transcript.ts';
import { LINT_LIMITS } from './lint-state.ts';
import { Linter, type Finding } from './index.ts';

let clock = 0;
const message = (from: Side, body: Record<string, unknown>): EventEntry =>
  ({ type: 'message', t: ++clock, from, message: { jsonrpc: '2.0', ...body } }) as EventEntry;
const rules = (findings: readonly Finding[]): string[] => findings.map((finding) => finding.rule);

/** A linter past the 2025-11-25 handshake of a server with tools. */
function connected(options: ConstructorParameters<typeof Linter>[0] = {}): Linter {
  const linter = new Linter(options);
  const handshake = [
    { type: 'spawn', t: 0, command: 'server', args: [] } as EventEntry,
    message('client', {
      id: 'init',
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    }),
    message('server', {
      id: 'init',
      result: {
        protocolVersion: '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 's', version: '1' },
      },
    }),
    message('client', { method: 'notifications/initialized' }),
  ];
  for (const entry of handshake) assert.deepEqual(linter.push(entry), []);
  return linter;
}

const call = (id: number, token?: number): EventEntry =>
  message('client', {
    id,
    method: 'tools/call',
    params: {
      name: 'echo',
      arguments: {},
      ...(token === undefined ? {} : { _meta: { progressToken: token } }),
    },
  });
const result = (id: number): EventEntry => message('server', { id, result: { content: [] } });

test('a million calls (two million entries) with progress tokens and invalid lines keep the state within LINT_LIMITS', () => {
  const linter = connected();
  const findings: string[] = [];
  const CALLS = 1_000_000;
  for (let id = 1; id <= CALLS; id++) {
    findings.push(...rules(linter.push(call(id, id))));
    findings.push(...rules(linter.push(result(id))));
    // Now and then a line that is no message but has an id (an error response may answer it).
    if (id % 1000 === 0)
      linter.push({
        type: 'invalid',
        t: ++clock,
        from: 'client',
        text: `{"id":"x${id}"}`,
        reason: 'not JSON',
      });
  }
  const size = linter.size;
  // Before the limits, every one of the million requests (and its token) stayed here.
  assert.ok(size.requests <= 2 * (LINT_LIMITS.answered + LINT_LIMITS.pending), JSON.stringify(size));
  assert.ok(size.requests >= LINT_LIMITS.answered, `the window is kept: ${JSON.stringify(size)}`);
  assert.ok(size.progressTokens <= LINT_LIMITS.answered + LINT_LIMITS.pending, JSON.stringify(size));
  assert.ok(size.invalidIds <= 2 * LINT_LIMITS.invalidIds, JSON.stringify(size));
  assert.ok(size.invalidIds >= Math.min(LINT_LIMITS.invalidIds, CALLS / 1000), JSON.stringify(size));
  assert.deepEqual(
    findings.filter((rule) => rule !== 'stdin-not-json'),
    [],
  );
  // The last answers are still remembered: a recent id reused, a duplicate answer, late progress.
  assert.deepEqual(rules(linter.push(call(CALLS))), ['request-id-reused']);
  assert.deepEqual(rules(linter.push(result(CALLS - 1))), ['response-duplicate']);
  assert.deepEqual(
    rules(
      linter.push(
        message('server', {
          method: 'notifications/progress',
          params: { progressToken: CALLS - 2, progress: 1 },
        }),
      ),
    ),
    ['progress-after-response'],
  );
});

test('past the window: an old id reused is missed, a forgotten pending request is never reported unknown', () => {
  const linter = connected({ limits: { answered: 3, pending: 2, invalidIds: 2 } });
  for (const id of [1, 2, 3, 4]) {
    assert.deepEqual(linter.push(call(id)), []);
    assert.deepEqual(linter.push(result(id)), []);
  }
  // 2, 3 and 4 are the last three answered: a reuse of 2 is found, of 1 no longer.
  assert.deepEqual(rules(linter.push(call(2))), ['request-id-reused']);
  assert.deepEqual(linter.push(result(2)), []);
  assert.deepEqual(linter.push(call(1)), []);
  assert.deepEqual(linter.push(result(1)), []);

  // Three pending, two kept: the first is forgotten, and its late answer, progress and
  // cancellation are not reported as unknown (the linter cannot tell).
  for (const id of [10, 11, 12]) assert.deepEqual(linter.push(call(id, id)), []);
  assert.ok(linter.size.requests <= 3 + 2);
  const progress = message('server', {
    method: 'notifications/progress',
    params: { progressToken: 10, progress: 1 },
  });
  assert.deepEqual(linter.push(progress), []);
  assert.deepEqual(
    linter.push(message('client', { method: 'notifications/cancelled', params: { requestId: 10 } })),
    [],
  );
  assert.deepEqual(linter.push(result(10)), []);
  assert.deepEqual(linter.push(result(11)), []);
  assert.deepEqual(linter.push(result(12)), []);
  // The server's side forgot nothing: a response to a request it never got is still reported.
  assert.deepEqual(rules(linter.push(message('client', { id: 99, result: {} }))), ['response-unknown-id']);
});

test('messages waiting for a revision that never comes stay bounded, and are checked against the fallback', () => {
  const linter = new Linter();
  const findings: string[] = [];
  // No initialize: the revision is never known, so schema checks wait (until finish, or the bound).
  for (let index = 0; index < 5000; index++)
    findings.push(
      ...rules(
        linter.push(message('server', { method: 'notifications/message', params: { level: 'info' } })),
      ),
    );
  assert.ok(linter.size.waitingSchemaChecks <= 1024, JSON.stringify(linter.size));
  // Each lacks `data`: those pushed past the bound were checked already, the rest at the end.
  const waiting = linter.size.waitingSchemaChecks;
  assert.equal(findings.filter((rule) => rule === 'schema-violation').length, 5000 - waiting);
  const finished = rules(linter.finish());
  assert.equal(finished.length, waiting);
  assert.ok(finished.every((rule) => rule === 'schema-violation'));
  assert.equal(linter.size.waitingSchemaChecks, 0);
});

// What every complete result of the stateless era (2026-07-28) carries besides its payload: `resultType`
// (S26-BASE-3; official clients lift it off) and the server's identity in `_meta` (S26-META-5). Tests check
// both, then compare the payload with the same expectations as in the handshake era.

import assert from 'node:assert/strict';

import type { Exchange } from './conversation-log.ts';

/** The `_meta` key of the server's identity on every stateless-era result. */
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/**
 * Asserts that `result` is complete (no `resultType`, or `"complete"`) and names `serverName` in
 * `_meta`, and returns it without those two, so it compares equal to a handshake-era result.
 */
export function toPlainResult<T extends object>(result: T, serverName: string): T {
  const { resultType, _meta, ...rest } = result as T & {
    resultType?: unknown;
    _meta?: Record<string, unknown>;
  };
  assert.ok(resultType === undefined || resultType === 'complete', `resultType ${String(resultType)}`);
  const { [SERVER_INFO_KEY]: serverInfo, ...otherMeta } = _meta ?? {};
  assert.equal(
    (serverInfo as { name?: unknown } | undefined)?.name,
    serverName,
    `the result names its server in _meta (S26-META-5): ${JSON.stringify(_meta)}`,
  );
  return (Object.keys(otherMeta).length === 0 ? rest : { ...rest, _meta: otherMeta }) as T;
}

/**
 * Asserts the multi-round-trip exchanges of one request (S26-MRTR): each round but the last answered
 * `input_required` asking for exactly `keys[round]`; each retry re-sent the same method and params with a new
 * id, answered exactly those keys, and echoed the previous `requestState` byte for byte (or sent none when
 * there was none); the last round completed. `exchanges` are that request's rounds, in order.
 */
export function assertInputRounds(
  exchanges: readonly Exchange[],
  keys: ReadonlyArray<readonly string[]>,
): void {
  const rounds = exchanges.map((exchange) => exchange.request.method).join(', ');
  assert.equal(exchanges.length, keys.length + 1, `expected ${keys.length + 1} rounds, got: ${rounds}`);
  const ids = exchanges.map((exchange) => exchange.request.id);
  assert.equal(new Set(ids).size, ids.length, `each round has a new id (S26-MRTR-8): ${JSON.stringify(ids)}`);
  const [first] = exchanges;
  assert.ok(first);
  assert.equal(first.request.params?.inputResponses, undefined);
  assert.equal(first.request.params?.requestState, undefined);
  keys.forEach((expected, round) => {
    const answered = exchanges[round]?.response?.result ?? {};
    const retry = exchanges[round + 1]?.request.params ?? {};
    assert.equal(answered.resultType, 'input_required', `round ${round + 1}: ${JSON.stringify(answered)}`);
    const asked = Object.keys((answered.inputRequests ?? {}) as object);
    assert.deepEqual([...asked].sort(), [...expected].sort(), `round ${round + 1} asked for`);
    assert.deepEqual(Object.keys((retry.inputResponses ?? {}) as object).sort(), [...expected].sort());
    // S26-MRTR-7: the state exactly as received, and none when the server gave none.
    assert.equal(retry.requestState, answered.requestState, `round ${round + 2} echoes requestState`);
    assert.equal(retry.name, first.request.params?.name);
    assert.deepEqual(retry.arguments, first.request.params?.arguments);
  });
  const last = exchanges.at(-1)?.response;
  assert.ok(last?.result, `the last round completed: ${JSON.stringify(last)}`);
  assert.notEqual(last.result.resultType, 'input_required');
}

// fast-check arbitraries of JSON-RPC messages for the property suites: valid messages of each kind,
// and near-messages whose every member may be missing or of the wrong type.

import fc from 'fast-check';

import type { Message } from 'mcpwire';

/** A JSON value as JSON.parse makes it: fast-check's own may hold -0, which JSON text cannot carry. */
export function jsonValue(constraints: fc.JsonSharedConstraints = {}): fc.Arbitrary<unknown> {
  return fc.jsonValue(constraints).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
}

/** Member names that are ordinary data, never one the envelope or MCP gives a meaning to. */
const dataKey = fc.string({ unit: 'binary', maxLength: 8 }).filter((key) => !MEANINGFUL.has(key));
const MEANINGFUL = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error', '_meta', 'resultType']);

/** A JSON object of ordinary data (`params`, `result`, error `data`). */
export const jsonObject = fc.dictionary(dataKey, jsonValue({ maxDepth: 2 }), {
  maxKeys: 4,
  noNullPrototype: true,
});

/** A legal request id (BASE-3): a string or a safe integer. */
export const requestId = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.maxSafeInteger().map((n) => n || 0),
);

/** Any valid JSON-RPC message: request, notification, result or error response. */
export const validMessage: fc.Arbitrary<Message> = fc.oneof(
  fc.record(
    { jsonrpc: fc.constant('2.0' as const), id: requestId, method: fc.string(), params: jsonObject },
    { requiredKeys: ['jsonrpc', 'id', 'method'], noNullPrototype: true },
  ),
  fc.record(
    { jsonrpc: fc.constant('2.0' as const), method: fc.string(), params: jsonObject },
    { requiredKeys: ['jsonrpc', 'method'], noNullPrototype: true },
  ),
  fc.record(
    { jsonrpc: fc.constant('2.0' as const), id: requestId, result: jsonObject },
    { noNullPrototype: true },
  ),
  fc.record(
    {
      jsonrpc: fc.constant('2.0' as const),
      id: requestId,
      error: fc.record(
        { code: fc.integer(), message: fc.string(), data: jsonValue({ maxDepth: 2 }) },
        { requiredKeys: ['code', 'message'], noNullPrototype: true },
      ),
    },
    { requiredKeys: ['jsonrpc', 'error'], noNullPrototype: true },
  ),
);

/** Values that are almost ids: every JSON type, fractions, integers past 2^53, the empty string. */
const idLike = fc.oneof(
  requestId,
  fc.constantFrom(null, true, false, 1.5, -0.5, 2 ** 53, -(2 ** 53), 1e21, '', [], {}),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Values that are almost objects: objects, arrays, strings, numbers, null. */
const objectLike = fc.oneof(
  { weight: 3, arbitrary: jsonObject },
  { weight: 1, arbitrary: jsonValue({ maxDepth: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(null, [], '', 0) },
);

/** A `result` as MCP results come: ordinary data, sometimes with `_meta` and `resultType` (right or wrong). */
const resultLike = fc.oneof(
  objectLike,
  fc
    .tuple(
      jsonObject,
      fc.option(fc.oneof(fc.constant('complete'), jsonValue({ maxDepth: 0 })), { nil: undefined }),
      fc.option(fc.oneof(jsonObject, jsonValue({ maxDepth: 0 })), { nil: undefined }),
    )
    .map(([data, resultType, meta]) => ({
      ...data,
      ...(resultType === undefined ? {} : { resultType }),
      ...(meta === undefined ? {} : { _meta: meta }),
    })),
);

const errorLike = fc.oneof(
  fc.record(
    {
      code: fc.oneof(fc.integer(), fc.constantFrom(1.5, '1', null, 2 ** 60)),
      message: fc.oneof(fc.string(), fc.constantFrom(1, null)),
      data: jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: [], noNullPrototype: true },
  ),
  objectLike,
);

// Every record and dictionary has Object.prototype: what JSON.parse makes, and what deepEqual expects.

/**
 * A JSON value shaped like a message with every member independently present or absent, right or
 * wrong: what a confused or hostile peer sends. Most are invalid; the valid ones are spread over
 * every kind, so both sides of "accepts" and "rejects" get cases.
 */
export const nearMessage: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.constantFrom('1.0', 2, '2.0 ', null)),
        id: idLike,
        method: fc.oneof(fc.string(), fc.constantFrom(1, null, ['m'])),
        params: objectLike,
        result: resultLike,
        error: errorLike,
      },
      { requiredKeys: [], noNullPrototype: true },
    ),
  },
  { weight: 1, arbitrary: jsonValue({ maxDepth: 2 }) },
);

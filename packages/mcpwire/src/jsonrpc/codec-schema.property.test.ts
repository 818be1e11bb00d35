// Differential properties: the codec accepts exactly the messages the official JSON Schema of each
// revision accepts (spec/<revision>/schema.json, `JSONRPCMessage`), except for the differences listed
// here, each with its reason; and every error answer the codec makes is itself schema-valid.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import fc from 'fast-check';

import { nearMessage, validMessage } from '../../../../test/support/json-rpc-arbitraries.ts';
import { checkProperty } from '../../../../test/support/property.ts';
import { validateAgainstDefinition } from '../../../../test/support/wire-schema.ts';
import { parseMessage } from './codec.ts';

const REVISIONS = ['2025-11-25', '2026-07-28'] as const;
type Revision = (typeof REVISIONS)[number];

/** Where the codec and the schema part ways on purpose: which side accepts, when, and why. */
interface Difference {
  name: string;
  /** What the codec does with such a message; the schema does the opposite. */
  codec: 'accepts' | 'rejects';
  applies(value: Record<string, unknown>, revision: Revision): boolean;
  why: string;
  /** A message that shows the difference, checked to still show it. */
  example: Record<string, unknown>;
}

const ERROR = { code: -32601, message: 'Method not found' };

const DIFFERENCES: readonly Difference[] = [
  {
    name: 'a call with "result" or "error" members',
    codec: 'rejects',
    applies: (value) => 'method' in value && ('result' in value || 'error' in value),
    why:
      'an object with "method" is a request or notification (JSON-RPC 2.0 section 4) and is judged as one; ' +
      'the schema lets response definitions carry extra members, so a broken call that also has a result validates as a response',
    example: { jsonrpc: '2.0', id: 1, method: 'x', params: [1], result: {} },
  },
  {
    name: 'both "result" and "error"',
    codec: 'rejects',
    applies: (value) => 'result' in value && 'error' in value,
    why: 'JSON-RPC 2.0 section 5: "Either the result member or error member MUST be included, but both members MUST NOT be included"; the schema does not forbid extra members',
    example: { jsonrpc: '2.0', id: 1, result: {}, error: ERROR },
  },
  {
    name: 'a notification with an "id" that is no request id',
    codec: 'rejects',
    applies: (value) => 'method' in value && 'id' in value && readableId(value.id) === undefined,
    why: 'BASE-3 (an id is never null) and BASE-7 (a notification has no id); the schema reads such an object as a notification with an extra member',
    example: { jsonrpc: '2.0', id: null, method: 'notifications/initialized' },
  },
  {
    name: 'an integer id beyond 2^53',
    codec: 'rejects',
    applies: (value) => typeof value.id === 'number' && !Number.isSafeInteger(value.id),
    why: 'JavaScript numbers cannot hold it exactly, so the answer could not echo it (BASE-5, BASE-6); the schema allows any integer',
    example: { jsonrpc: '2.0', id: 2 ** 60, method: 'ping' },
  },
  {
    name: 'an error response with "id": null',
    codec: 'accepts',
    applies: (value) => 'error' in value && !('result' in value) && value.id === null,
    why: 'JSON-RPC 2.0 section 5 answers an unreadable request with id null; MCP omits the id instead (BASE-6), but a peer following JSON-RPC is understood',
    example: { jsonrpc: '2.0', id: null, error: ERROR },
  },
  {
    name: 'result members MCP constrains',
    codec: 'accepts',
    applies: (value, revision) => {
      const result = value.result;
      if (!isObject(result) || 'error' in value || 'method' in value) return false;
      const hasBadMeta = '_meta' in result && !isObject(result._meta);
      const lacksResultType = revision === '2026-07-28' && typeof result.resultType !== 'string';
      return hasBadMeta || lacksResultType;
    },
    why:
      'the codec is JSON-RPC only; `_meta` (both revisions) and `resultType` (2026-07-28, S26-BASE-3) belong to MCP ' +
      'and are checked per method by the era that reads the result (a missing resultType means "complete")',
    example: { jsonrpc: '2.0', id: 1, result: { _meta: 5 } },
  },
];

function readableId(id: unknown): string | number | undefined {
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function schemaAccepts(revision: Revision, value: unknown): boolean {
  return validateAgainstDefinition(revision, 'JSONRPCMessage', value).valid;
}

/** Why the codec and the schema disagree on `value`, or a failure message when no listed difference explains it. */
function explain(revision: Revision, value: unknown): string | undefined {
  const codecAccepts = parseMessage(value).type === 'message';
  if (codecAccepts === schemaAccepts(revision, value)) return undefined;
  const side = codecAccepts ? 'accepts' : 'rejects';
  const known = isObject(value)
    ? DIFFERENCES.find((d) => d.codec === side && d.applies(value, revision))
    : undefined;
  return known === undefined
    ? `the codec ${side} ${JSON.stringify(value)} but the ${revision} schema does not, and no listed difference explains it`
    : undefined;
}

describe('JSON-RPC codec against the official JSON Schemas', () => {
  for (const revision of REVISIONS) {
    test(`the codec accepts exactly the messages the ${revision} JSONRPCMessage schema accepts, but for the listed differences (BASE-2..BASE-7)`, async (t) => {
      await checkProperty(
        t,
        fc.property(fc.oneof(nearMessage, validMessage), (value) => {
          const failure = explain(revision, value);
          assert.equal(failure, undefined, failure);
        }),
        { runs: 300 },
      );
    });

    test(`every error answer the codec makes is a valid ${revision} JSONRPCErrorResponse (BASE-6)`, async (t) => {
      await checkProperty(
        t,
        fc.property(nearMessage, (value) => {
          const frame = parseMessage(value);
          if (frame.type !== 'invalid') return;
          const outcome = validateAgainstDefinition(revision, 'JSONRPCErrorResponse', frame.response);
          assert.ok(outcome.valid, outcome.errors.join('; '));
        }),
      );
    });
  }

  test('each listed difference still shows: codec and schema disagree on its example as it says', () => {
    for (const difference of DIFFERENCES) {
      const { example } = difference;
      const codecAccepts = parseMessage(example).type === 'message';
      assert.equal(codecAccepts, difference.codec === 'accepts', difference.name);
      const revision = REVISIONS.find((r) => difference.applies(example, r))!;
      assert.equal(schemaAccepts(revision, example), !codecAccepts, difference.name);
    }
  });
});

// Properties of the JSON-RPC codec (BASE-2..BASE-7): any text is answered, never thrown at; the error
// code and the echoed id follow from the input alone; valid messages survive encoding unchanged.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import fc from 'fast-check';

import { nearMessage, validMessage } from '../../../../test/support/json-rpc-arbitraries.ts';
import { checkProperty } from '../../../../test/support/property.ts';
import { decodeFrame, encodeMessage, fromJson, parseMessage } from './codec.ts';

/** The id an error answer must echo: the input's id when it is a string or a safe integer (BASE-3, BASE-6). */
function readableId(value: unknown): string | number | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const id = (value as Record<string, unknown>).id;
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as string | number) : undefined;
}

/** Text a peer might send: JSON of near-messages, cut or with a byte changed, and arbitrary text. */
const text = fc.oneof(
  nearMessage.map((value) => JSON.stringify(value)),
  fc
    .tuple(
      nearMessage.map((value) => JSON.stringify(value)),
      fc.nat(),
      fc.string({ unit: 'binary', maxLength: 2 }),
    )
    .map(([json, at, insert]) => json.slice(0, at % (json.length + 1)) + insert),
  fc.string({ unit: 'binary' }),
);

describe('JSON-RPC codec properties', () => {
  test('decodeFrame never throws: text that is not JSON is -32700 without an id, JSON is classified as parsed (BASE-2)', async (t) => {
    await checkProperty(
      t,
      fc.property(text, (input) => {
        const frame = decodeFrame(input);
        let value: unknown;
        try {
          value = JSON.parse(input);
        } catch {
          assert.equal(frame.type, 'invalid');
          if (frame.type !== 'invalid') return;
          assert.equal(frame.response.error.code, -32700);
          assert.equal('id' in frame.response, false, 'nothing was read, so no id (BASE-6)');
          return;
        }
        assert.deepEqual(frame, fromJson(value));
      }),
    );
  });

  test('an invalid message is answered -32600, echoing its id exactly when the id is a string or a safe integer (BASE-3, BASE-6)', async (t) => {
    await checkProperty(
      t,
      fc.property(nearMessage, (value) => {
        const frame = parseMessage(value);
        if (frame.type === 'message') {
          assert.equal(frame.message, value, 'a valid message is passed through as it is');
          return;
        }
        const { response } = frame;
        assert.equal(response.jsonrpc, '2.0');
        assert.equal(response.error.code, -32600);
        assert.equal(typeof response.error.message, 'string');
        const id = readableId(value);
        if (id === undefined) assert.equal('id' in response, false);
        else assert.equal(response.id, id);
      }),
    );
  });

  test('valid messages round trip: encodeMessage gives one line that decodes to the same message (BASE-2, STDIO-2)', async (t) => {
    await checkProperty(
      t,
      fc.property(validMessage, (message) => {
        const line = encodeMessage(message);
        assert.equal(/[\r\n]/.test(line), false, 'no raw line break in the encoding');
        assert.deepEqual(decodeFrame(line), { type: 'message', message });
      }),
    );
  });

  test('a batch decodes member by member, in order; an empty batch is -32600', async (t) => {
    await checkProperty(
      t,
      fc.property(fc.array(fc.oneof(nearMessage, validMessage), { maxLength: 6 }), (items) => {
        const json = JSON.stringify(items);
        const frame = decodeFrame(json);
        if (items.length === 0) {
          assert.equal(frame.type === 'invalid' && frame.response.error.code, -32600);
          return;
        }
        const parsed = JSON.parse(json) as unknown[];
        assert.deepEqual(frame, { type: 'batch', items: parsed.map((item) => parseMessage(item)) });
      }),
    );
  });
});

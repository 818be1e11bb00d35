// peekEnvelope on the heads of real message shapes, cut at every offset: it never throws, never
// reports an id it has not read whole, and never takes a nested "id" for the message's own.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { peekEnvelope } from './peek-envelope.ts';

describe('peekEnvelope', () => {
  it('reads the id and kind of whole heads, ours and the official SDK key order', () => {
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"x":'), {
      id: 7,
      kind: 'request',
    });
    assert.deepEqual(peekEnvelope('{"jsonrpc":"2.0","id":"a\\"b","result":{"content":[{"type":"text"'), {
      id: 'a"b',
      kind: 'response',
    });
    // The official SDK writes the id last: behind a large result it is never in the head.
    assert.deepEqual(peekEnvelope('{"result":{"content":[{"type":"text","text":"xxxx'), { kind: 'response' });
    assert.deepEqual(peekEnvelope('{"method":"tools/call","params":{"id":3,"x":"'), { kind: 'request' });
  });

  it('skips nested values and strings holding brackets or "id"', () => {
    const head = '{"params":{"a":[1,{"id":9}],"s":"}\\"id\\":5"},"id":4,"method":"m"}';
    assert.deepEqual(peekEnvelope(head), { id: 4, kind: 'request' });
  });

  it('ignores what is not an object or not a valid id', () => {
    for (const head of ['', '[{"id":1}]', 'nonsense', '{"id":1.5,"method":"m"}', '{"id":null,"result":1}'])
      assert.equal(peekEnvelope(head).id, undefined, head);
  });

  it('cut at every offset: never throws, and an id it reports is the whole one', () => {
    const whole = '{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"echo"}}';
    for (let end = 0; end <= whole.length; end++) {
      const { id } = peekEnvelope(whole.slice(0, end));
      assert.ok(id === undefined || id === 12345, `cut at ${end}: ${String(id)}`);
    }
    assert.equal(
      peekEnvelope(whole.slice(0, whole.indexOf(',"method"'))).id,
      undefined,
      'a number may be cut',
    );
    assert.equal(peekEnvelope(whole.slice(0, whole.indexOf(',"method"') + 1)).id, 12345);
  });
});

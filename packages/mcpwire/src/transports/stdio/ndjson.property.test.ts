// Properties of NDJSON framing (STDIO-2): the splitter against a one-line model of the framing rules,
// for any bytes cut into any chunks, and the decoding of every line it delivers.

import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, test } from 'node:test';

import fc from 'fast-check';

import { checkProperty } from '../../../../../test/support/property.ts';
import { decodeFrame, encodeMessage } from '../../jsonrpc/codec.ts';
import type { Message } from '../../jsonrpc/message.ts';
import { decodeLine } from './decode-line.ts';
import { NdjsonSplitter, type NdjsonLine } from './ndjson.ts';

/** What the model says one line becomes: its text, or an oversize line with its raw byte length. */
type Expected = { type: 'line'; text: string } | { type: 'oversize'; limit: number; raw: number };

/**
 * The framing rules in their plainest form: split at every LF, strip one trailing CR, a line longer
 * than the limit is oversize, a line of JSON whitespace only is skipped, a last line without LF counts.
 */
function model(input: Buffer, limit: number): Expected[] {
  const out: Expected[] = [];
  let start = 0;
  while (start < input.length) {
    const newline = input.indexOf(0x0a, start);
    const end = newline === -1 ? input.length : newline;
    const raw = input.subarray(start, end);
    const line = raw.at(-1) === 0x0d ? raw.subarray(0, -1) : raw;
    if (line.length > limit) out.push({ type: 'oversize', limit, raw: raw.length });
    else if (!line.every((byte) => byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a))
      out.push({ type: 'line', text: line.toString('utf8') });
    start = end + 1;
  }
  return out;
}

/** Feeds `input` cut at `cuts` (any order, duplicates allowed); returns what was delivered before and after `end`. */
function feed(
  input: Buffer,
  cuts: readonly number[],
  limit: number | undefined,
  isTextHandled = false,
  isByteTaken = false,
): { lines: NdjsonLine[]; hadPartialLine: boolean } {
  const lines: NdjsonLine[] = [];
  // With `handleText` the lines come as bare text, wrapped here so both ways meet the same model,
  // and only oversize markers may come to `handleLine`.
  const handleText = isTextHandled
    ? (text: string) => {
        // A line the byte listener took must go no further.
        assert.equal(isByteTaken, false, `a line taken as bytes went on as text: ${text}`);
        lines.push({ type: 'line', text });
      }
    : undefined;
  const handleLine = (line: NdjsonLine): void => {
    if (isTextHandled) assert.equal(line.type, 'oversize', 'a complete line given to handleLine');
    lines.push(line);
  };
  const splitter = new NdjsonSplitter(handleLine, { maxMessageBytes: limit, handleText });
  if (isByteTaken)
    splitter.takeLineBytes((chunk, start, end) => {
      lines.push({ type: 'line', text: chunk.toString('utf8', start, end) });
      return true;
    });
  let start = 0;
  for (const cut of [...cuts.map((c) => c % (input.length + 1)).sort((a, b) => a - b), input.length]) {
    splitter.push(input.subarray(start, cut));
    start = cut;
  }
  const hadPartialLine = splitter.hasPartialLine;
  splitter.end();
  return { lines, hadPartialLine };
}

/** Asserts that the delivered lines are the model's: oversize `bytes` lies between the limit and the raw length. */
function assertLikeModel(lines: readonly NdjsonLine[], expected: readonly Expected[]): void {
  assert.equal(lines.length, expected.length, 'as many lines as the model');
  lines.forEach((line, i) => {
    const want = expected[i]!;
    if (want.type === 'line') return assert.deepEqual(line, want);
    assert.equal(line.type, 'oversize');
    if (line.type !== 'oversize') return;
    assert.equal(line.limit, want.limit);
    assert.ok(line.bytes > want.limit && line.bytes <= want.raw, `bytes ${line.bytes} of ${want.raw}`);
  });
}

/** Bytes that make framing interesting: LF, CR, blanks, braces, multi-byte UTF-8, and any byte at all. */
const chunkOfBytes = fc.oneof(
  fc.constantFrom(...['\n', '\r', '\r\n', ' ', '\t', '{}', '{"a":1}'].map((s) => Buffer.from(s))),
  fc.string({ unit: 'binary', maxLength: 6 }).map((s) => Buffer.from(s, 'utf8')),
  fc.uint8Array({ maxLength: 6 }).map((bytes) => Buffer.from(bytes)),
);
const input = fc.array(chunkOfBytes, { maxLength: 40 }).map((parts) => Buffer.concat(parts));
const cuts = fc.array(fc.nat(), { maxLength: 12 });
const limit = fc.oneof(fc.integer({ min: 1, max: 24 }), fc.constant(undefined));

describe('NDJSON framing properties', () => {
  test('splitting the input anywhere gives the model lines, oversize ones included (STDIO-2)', async (t) => {
    await checkProperty(
      t,
      fc.property(input, cuts, limit, (bytes, at, max) => {
        assertLikeModel(feed(bytes, at, max).lines, model(bytes, max ?? Number.MAX_SAFE_INTEGER));
      }),
      {
        examples: [
          // A CR that arrives alone right after the limit was reached: the line is exactly the limit.
          [Buffer.from('abcd\r\n'), [4, 5], 4],
          // A line one byte over the limit whose LF arrives in the next chunk.
          [Buffer.from('abcde\nx\n'), [5], 4],
          // A multi-byte character cut between its bytes.
          [Buffer.from('{"k":"é😀"}\n'), [7, 9, 11], undefined],
        ],
      },
    );
  });

  test('with handleText, complete lines come to it as text, in the same order with oversize ones (STDIO-2)', async (t) => {
    await checkProperty(
      t,
      fc.property(input, cuts, limit, (bytes, at, max) => {
        assertLikeModel(feed(bytes, at, max, true).lines, model(bytes, max ?? Number.MAX_SAFE_INTEGER));
      }),
    );
  });

  test('with takeLineBytes, every complete line comes to it as bytes, in the same order with oversize ones (STDIO-2)', async (t) => {
    await checkProperty(
      t,
      fc.property(input, cuts, limit, (bytes, at, max) => {
        assertLikeModel(feed(bytes, at, max, true, true).lines, model(bytes, max ?? Number.MAX_SAFE_INTEGER));
      }),
    );
  });

  test('hasPartialLine is true exactly while bytes after the last newline are pending', async (t) => {
    await checkProperty(
      t,
      fc.property(input, cuts, limit, (bytes, at, max) => {
        const tail = bytes.length - (bytes.lastIndexOf(0x0a) + 1);
        assert.equal(feed(bytes, at, max).hadPartialLine, tail > 0);
      }),
    );
  });

  test('every delivered line decodes without throwing: its text by the codec, an oversize line to -32600 without id', async (t) => {
    await checkProperty(
      t,
      fc.property(input, cuts, limit, (bytes, at, max) => {
        for (const line of feed(bytes, at, max).lines) {
          const frame = decodeLine(line);
          if (line.type === 'line') {
            assert.deepEqual(frame, decodeFrame(line.text));
            continue;
          }
          assert.equal(frame.type, 'invalid');
          if (frame.type !== 'invalid') continue;
          assert.equal(frame.response.error.code, -32600);
          assert.equal('id' in frame.response, false);
          assert.match(frame.response.error.message, new RegExp(`at most ${line.limit} bytes`));
        }
      }),
    );
  });

  test('a stream of encoded messages split anywhere decodes to the same messages (STDIO-2)', async (t) => {
    const message: fc.Arbitrary<Message> = fc.record({
      jsonrpc: fc.constant('2.0' as const),
      id: fc.oneof(fc.string(), fc.integer()),
      method: fc.string({ unit: 'binary' }),
      params: fc.dictionary(fc.string({ unit: 'binary' }), fc.jsonValue()),
    });
    await checkProperty(
      t,
      fc.property(fc.array(message, { maxLength: 8 }), cuts, (messages, at) => {
        const text = messages.map((m) => `${encodeMessage(m)}\n`).join('');
        const { lines } = feed(Buffer.from(text, 'utf8'), at, undefined);
        const expected = messages.map((m) => ({ type: 'message', message: JSON.parse(encodeMessage(m)) }));
        assert.deepEqual(lines.map(decodeLine), expected);
      }),
    );
  });
});

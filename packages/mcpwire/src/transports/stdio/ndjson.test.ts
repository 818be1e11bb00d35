// Byte-boundary tests for the NDJSON splitter: every split offset, one byte at a time, limits.

import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, it } from 'node:test';
import { NdjsonSplitter, type NdjsonLine } from './ndjson.ts';

/** Feeds `input` cut at `cuts` (sorted byte offsets), then ends it; returns everything delivered. */
function split(input: Buffer, cuts: readonly number[], maxMessageBytes?: number): NdjsonLine[] {
  const lines: NdjsonLine[] = [];
  const splitter = new NdjsonSplitter((line) => lines.push(line), { maxMessageBytes });
  let start = 0;
  for (const cut of [...cuts, input.length]) {
    splitter.push(input.subarray(start, cut));
    start = cut;
  }
  splitter.end();
  return lines;
}

function texts(...values: string[]): NdjsonLine[] {
  return values.map((text) => ({ type: 'line', text }));
}

const RICH = [
  '{"emoji":"😀🎉"}\r\n',
  '\n',
  '   \t \r\n',
  '{"cjk":"中文字符","accent":"é"}\n',
  '\r\n',
  '{"last":true}\n',
].join('');
const RICH_LINES = texts('{"emoji":"😀🎉"}', '{"cjk":"中文字符","accent":"é"}', '{"last":true}');

describe('NdjsonSplitter', () => {
  it('splits lines, strips \\r, skips empty and whitespace-only lines', () => {
    assert.deepEqual(split(Buffer.from(RICH), []), RICH_LINES);
  });

  it('gives the same lines for a split at every offset', () => {
    const input = Buffer.from(RICH);
    for (let cut = 0; cut <= input.length; cut++) {
      assert.deepEqual(split(input, [cut]), RICH_LINES, `split at ${cut}`);
    }
  });

  it('gives the same lines for every pair of split offsets', () => {
    const input = Buffer.from(RICH);
    for (let a = 0; a <= input.length; a++) {
      for (let b = a; b <= input.length; b++) {
        assert.deepEqual(split(input, [a, b]), RICH_LINES, `split at ${a} and ${b}`);
      }
    }
  });

  it('gives the same lines when fed one byte at a time', () => {
    const input = Buffer.from(RICH);
    const cuts = Array.from({ length: input.length }, (_, i) => i);
    assert.deepEqual(split(input, cuts), RICH_LINES);
  });

  it('decodes a multi-byte character split across chunks without replacement characters', () => {
    const input = Buffer.from('"😀"\n');
    // The emoji is 4 bytes at offsets 1..4; cut inside it at each position.
    for (const cut of [2, 3, 4]) {
      const lines = split(input, [cut]);
      assert.deepEqual(lines, texts('"😀"'));
      assert.ok(!JSON.stringify(lines).includes('\uFFFD'));
    }
  });

  it('accepts Uint8Array and string chunks', () => {
    const lines: NdjsonLine[] = [];
    const splitter = new NdjsonSplitter((line) => lines.push(line));
    splitter.push(new Uint8Array(Buffer.from('{"a":')));
    splitter.push('"中"}\n');
    assert.deepEqual(lines, texts('{"a":"中"}'));
  });

  it('holds a final line without newline until more data comes', () => {
    const lines: NdjsonLine[] = [];
    const splitter = new NdjsonSplitter((line) => lines.push(line));
    splitter.push('{"a":1}\n{"b":');
    assert.deepEqual(lines, texts('{"a":1}'));
    assert.equal(splitter.hasPartialLine, true);
    splitter.push('2}\n');
    assert.deepEqual(lines, texts('{"a":1}', '{"b":2}'));
    assert.equal(splitter.hasPartialLine, false);
  });

  it('delivers an unterminated final line on end, and nothing for trailing whitespace', () => {
    const lines: NdjsonLine[] = [];
    const splitter = new NdjsonSplitter((line) => lines.push(line));
    splitter.push('{"a":1}\n{"b":2}\r');
    splitter.end();
    assert.deepEqual(lines, texts('{"a":1}', '{"b":2}'));
    splitter.push('  \t');
    splitter.end();
    splitter.end();
    assert.deepEqual(lines, texts('{"a":1}', '{"b":2}'));
  });

  it('delivers a line of exactly the limit, with LF or CRLF, at every offset', () => {
    const body = 'x'.repeat(10);
    for (const ending of ['\n', '\r\n']) {
      const input = Buffer.from(body + ending + '{}\n');
      for (let cut = 0; cut <= input.length; cut++) {
        assert.deepEqual(
          split(input, [cut], 10),
          texts(body, '{}'),
          `ending ${JSON.stringify(ending)} cut ${cut}`,
        );
      }
    }
  });

  it('reports a line one byte over the limit as oversize, with LF or CRLF, at every offset', () => {
    for (const ending of ['\n', '\r\n']) {
      const input = Buffer.from('y'.repeat(11) + ending + '{}\n');
      for (let cut = 0; cut <= input.length; cut++) {
        const [first, ...rest] = split(input, [cut], 10);
        assert.equal(first?.type, 'oversize', `cut ${cut}`);
        assert.deepEqual(rest, texts('{}'));
      }
    }
  });

  it('reports an oversize line once, then delivers the next line, at every offset and byte by byte', () => {
    const input = Buffer.from('{"big":"' + 'z'.repeat(40) + '"}\n{"ok":1}\n');
    const cutsList = [
      ...Array.from({ length: input.length + 1 }, (_, i) => [i]),
      Array.from({ length: input.length }, (_, i) => i),
    ];
    for (const cuts of cutsList) {
      const lines = split(input, cuts, 16);
      assert.equal(lines.length, 2, `cuts ${cuts.length === 1 ? String(cuts[0]) : 'every byte'}`);
      const [oversize, next] = lines;
      assert.ok(oversize?.type === 'oversize');
      assert.equal(oversize.limit, 16);
      assert.ok(oversize.bytes > 16 && oversize.bytes <= 50, `bytes ${oversize.bytes}`);
      assert.deepEqual(next, { type: 'line', text: '{"ok":1}' });
    }
  });

  it('reports the whole length when the oversize line arrives in one chunk', () => {
    assert.deepEqual(split(Buffer.from('a'.repeat(30) + '\n'), [], 8), [
      { type: 'oversize', bytes: 30, limit: 8, head: 'a'.repeat(30) },
    ]);
  });

  it('reports an endless oversize line once, holding none of it', () => {
    const lines: NdjsonLine[] = [];
    const splitter = new NdjsonSplitter((line) => lines.push(line), { maxMessageBytes: 1024 });
    const chunk = Buffer.alloc(4096, 0x61);
    for (let i = 0; i < 1000; i++) splitter.push(chunk);
    // Only its head is kept (1 KiB, for the id): the rest streams past.
    assert.deepEqual(lines, [{ type: 'oversize', bytes: 4096, limit: 1024, head: 'a'.repeat(1024) }]);
    splitter.end();
    splitter.push('{}\n');
    assert.deepEqual(lines.at(-1), { type: 'line', text: '{}' });
    assert.equal(lines.length, 2);
  });

  it('rejects a limit that is not a positive integer', () => {
    assert.throws(() => new NdjsonSplitter(() => {}, { maxMessageBytes: 0 }), RangeError);
    assert.throws(() => new NdjsonSplitter(() => {}, { maxMessageBytes: 1.5 }), RangeError);
  });
});

// Byte-boundary tests for the SSE parser: every split offset, one byte at a time, every line ending.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeSse, SseEventTooLargeError, SseParserStream, type ServerSentEvent } from './sse-parser.ts';

interface Parsed {
  events: ServerSentEvent[];
  lastEventId: string;
  retry: number | undefined;
}

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/** Feeds `input` as bytes cut at `cuts` (sorted offsets) through UTF-8 decoding and the parser. */
async function parseBytes(input: Uint8Array, cuts: readonly number[] = []): Promise<Parsed> {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, input.length]) {
    chunks.push(input.subarray(start, cut));
    start = cut;
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const parser = new SseParserStream();
  const events = await collect(decodeSse(body, parser));
  return { events, lastEventId: parser.lastEventId, retry: parser.retry };
}

/** Feeds text chunks straight into the parser. */
async function parseText(chunks: readonly string[], options = {}): Promise<Parsed> {
  const parser = new SseParserStream(options);
  const source = new ReadableStream<string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const events = await collect(source.pipeThrough(parser));
  return { events, lastEventId: parser.lastEventId, retry: parser.retry };
}

/** A stream exercising every rule; `eol` is the line ending used where the test does not pin one. */
function richStream(eol: string): string {
  return [
    '\uFEFF: a comment, ignored',
    'id: prime-1',
    'retry: 2500',
    'data: ',
    '', // the priming event: dispatched with empty data
    'event: message',
    'id: 2',
    'data: {"jsonrpc":"2.0",',
    'data:"method":"notifications/message"}',
    '',
    'data', // a field with no colon: an empty data line
    'data: x',
    'unknown: ignored',
    '',
    'id: bad\0id', // NUL: the id field is ignored
    'retry: 12a', // not all digits: ignored
    'event: custom',
    'data: café 中文 😀',
    '',
    'id: 3',
    '', // no data field: not dispatched, but the id still becomes the last event id
    'data:  two spaces keep one',
    '',
    'data: never dispatched (no blank line before the end)',
  ].join(eol);
}

const RICH_EVENTS: ServerSentEvent[] = [
  { type: 'message', data: '', lastEventId: 'prime-1', id: 'prime-1' },
  {
    type: 'message',
    data: '{"jsonrpc":"2.0",\n"method":"notifications/message"}',
    lastEventId: '2',
    id: '2',
  },
  { type: 'message', data: '\nx', lastEventId: '2' },
  { type: 'custom', data: 'café 中文 😀', lastEventId: '2' },
  { type: 'message', data: ' two spaces keep one', lastEventId: '3' },
];

const RICH_RESULT: Parsed = { events: RICH_EVENTS, lastEventId: '3', retry: 2500 };

describe('SseParserStream', () => {
  for (const [name, eol] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as const) {
    it(`parses a stream with ${name} line endings`, async () => {
      const input = new TextEncoder().encode(richStream(eol));
      assert.deepEqual(await parseBytes(input), RICH_RESULT);
    });

    it(`gives the same events for a split at every offset (${name})`, async () => {
      const input = new TextEncoder().encode(richStream(eol));
      for (let cut = 0; cut <= input.length; cut++) {
        assert.deepEqual(await parseBytes(input, [cut]), RICH_RESULT, `split at ${cut}`);
      }
    });

    it(`gives the same events one byte at a time (${name})`, async () => {
      const input = new TextEncoder().encode(richStream(eol));
      const cuts = Array.from({ length: input.length }, (_, i) => i);
      assert.deepEqual(await parseBytes(input, cuts), RICH_RESULT);
    });
  }

  it('parses mixed line endings, a CRLF split between chunks counting once', async () => {
    const text = 'data: a\r\ndata: b\rdata: c\n\r\nid: 9\r\rdata: d\r\n\n';
    const expected: Parsed = {
      events: [
        { type: 'message', data: 'a\nb\nc', lastEventId: '' },
        { type: 'message', data: 'd', lastEventId: '9' },
      ],
      lastEventId: '9',
      retry: undefined,
    };
    for (let cut = 0; cut <= text.length; cut++) {
      assert.deepEqual(await parseText([text.slice(0, cut), text.slice(cut)]), expected, `split at ${cut}`);
    }
    assert.deepEqual(await parseText([...text]), expected);
  });

  it('keeps the last valid retry and ignores malformed ones', async () => {
    const parsed = await parseText([
      'retry: 100\n',
      'retry: -5\nretry:\nretry: 1.5\nretry: 7 \n',
      'data: x\n\n',
    ]);
    assert.equal(parsed.retry, 100);
    assert.equal((await parseText(['retry:300\n\n'])).retry, 300);
  });

  it('resets the last event id with an empty id field', async () => {
    const parsed = await parseText(['id: 1\ndata: a\n\nid\ndata: b\n\n']);
    assert.deepEqual(parsed.events, [
      { type: 'message', data: 'a', lastEventId: '1', id: '1' },
      { type: 'message', data: 'b', lastEventId: '', id: '' },
    ]);
    assert.equal(parsed.lastEventId, '');
  });

  it('updates the last event id only when the event is complete', async () => {
    const parsed = await parseText(['id: 1\ndata: a\n\nid: 2\ndata: cut off']);
    assert.equal(parsed.lastEventId, '1');
    assert.equal(parsed.events.length, 1);
  });

  it('drops only a leading BOM', async () => {
    const parsed = await parseText(['', '\uFEFFdata: \uFEFFkept\n\n']);
    assert.deepEqual(
      parsed.events.map((e) => e.data),
      ['\uFEFFkept'],
    );
  });

  it('errors the stream when a line or an event grows past the limit', async () => {
    await assert.rejects(
      parseText(['data: ' + 'x'.repeat(50)], { maxEventLength: 20 }),
      SseEventTooLargeError,
    );
    const lines = Array.from({ length: 10 }, () => 'data: xxxxx\n').join('');
    await assert.rejects(parseText([lines], { maxEventLength: 20 }), SseEventTooLargeError);
  });
});

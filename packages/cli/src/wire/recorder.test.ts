// The recording path tap runs for every line: LineSplitter at every byte boundary, and the file
// sink, which writes a message's JSON as it crossed when redaction left it alone (and serializes it
// when not), gathering lines into few writes, all on disk once close resolves.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LineSplitter, openFileSink, WireRecorder, type WireSink } from './recorder.ts';
import { Redactor } from './redact.ts';
import { parseTranscript, type MessageEntry } from './transcript.ts';

const STREAM = Buffer.from(
  '{"a":"caf\u00e9 \u2615 \ud83d\ude00"}\n\n{"b":1}\r\nlast line without newline',
  'utf8',
);
const LINES = ['{"a":"caf\u00e9 \u2615 \ud83d\ude00"}', '', '{"b":1}\r', 'last line without newline'];

function split(chunks: readonly Buffer[], maxLine?: number): Array<[string, boolean]> {
  const lines: Array<[string, boolean]> = [];
  const splitter = new LineSplitter((line, isCut) => lines.push([line, isCut]), maxLine);
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

test('LineSplitter gives the same lines whatever the chunks: split at every offset, and one byte at a time', () => {
  const expected = LINES.map((line) => [line, false]);
  assert.deepEqual(split([STREAM]), expected);
  for (let at = 0; at <= STREAM.length; at++)
    assert.deepEqual(split([STREAM.subarray(0, at), STREAM.subarray(at)]), expected, `split at ${at}`);
  const bytes = [...STREAM].map((byte) => Buffer.from([byte]));
  assert.deepEqual(split(bytes), expected);
  // Whole lines in one chunk (how tap's observe queue cuts them), after a part line and alone.
  const whole = STREAM.subarray(0, STREAM.lastIndexOf(10) + 1);
  assert.deepEqual(split([whole]), expected.slice(0, 3));
  for (let at = 0; at < whole.length; at++)
    assert.deepEqual(split([whole.subarray(0, at), whole.subarray(at)]), expected.slice(0, 3), `at ${at}`);
  // A line over the limit is reported cut at the limit, whole lines and chunking alike.
  const long = Buffer.from('0123456789\nok\n');
  const cut = [
    ['0123', true],
    ['ok', false],
  ];
  assert.deepEqual(split([long], 4), cut);
  assert.deepEqual(
    split(
      [...long].map((byte) => Buffer.from([byte])),
      4,
    ),
    cut,
  );
});

test('the file sink keeps the JSON that crossed, serializes what redaction changed, and has it all on disk at close', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-recorder-'));
  try {
    const file = join(dir, 'wire.jsonl');
    const recorder = new WireRecorder(
      { recorder: 'test', transport: 'stdio', target: 'server --token abc' },
      { sinks: [await openFileSink(file)], redactor: new Redactor(['$.params.ssn']) },
    );
    const odd =
      '{ "jsonrpc" : "2.0" ,\t"id" : 1, "method":"tools/call", "params":{"n":1e2,"s":"caf\\u00e9"} }\r';
    const innerCr = '{"jsonrpc":"2.0",\r"id":2,"result":{}}';
    const secret = '{"jsonrpc":"2.0","id":3,"method":"x","params":{"apiKey":"k","ssn":"123"}}';
    const batch = '[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]';
    for (const line of [odd, innerCr, secret, batch]) recorder.line('client', line);
    const many = 5000;
    for (let id = 10; id < 10 + many; id++)
      recorder.line('server', `{"jsonrpc":"2.0","id":${id},"result":{}}`);
    await recorder.close();

    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    assert.equal(lines.pop(), '');
    const { header, entries } = parseTranscript(text);
    assert.equal(header.target, 'server --token [redacted]');
    const messages = entries as MessageEntry[];
    assert.equal(messages.length, 5 + many);
    // Unchanged by redaction: the bytes as they crossed (less the line's CR), and it reads back the same.
    assert.equal(
      lines[1],
      `{"type":"message","t":${messages[0]!.t},"from":"client","message":${odd.slice(0, -1)}}`,
    );
    assert.deepEqual(messages[0]!.message, JSON.parse(odd));
    // A CR inside the line, a redacted message and batch members are serialized.
    assert.equal(lines[2], JSON.stringify(messages[1]));
    assert.ok(!lines[2]!.includes('\r'));
    assert.deepEqual(messages[2]!.message, {
      jsonrpc: '2.0',
      id: 3,
      method: 'x',
      params: { apiKey: '[redacted]', ssn: '[redacted]' },
    });
    assert.ok(!text.includes('"k"') && !text.includes('"123"'));
    assert.deepEqual(
      messages.slice(3, 5).map((entry) => [entry.batch, (entry.message as { method?: string }).method]),
      [
        [0, 'a'],
        [0, 'b'],
      ],
    );
    // Every line in order, the key order of a serialized entry, all on disk when close resolved.
    assert.deepEqual(
      messages.slice(5).map((entry) => (entry.message as { id?: number }).id),
      Array.from({ length: many }, (_, index) => 10 + index),
    );
    assert.deepEqual(Object.keys(JSON.parse(lines.at(-1)!) as object), ['type', 't', 'from', 'message']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('only a sink that writes JSON is handed the JSON text of a message; every sink gets the entry', () => {
  const handed: Array<[string, string | undefined]> = [];
  const sink = (name: string, isJsonWriter?: boolean): WireSink => ({
    ...(isJsonWriter === undefined ? {} : { isJsonWriter }),
    entry: (entry, messageJson) => handed.push([`${name} ${entry.type}`, messageJson]),
  });
  const line = '{"jsonrpc":"2.0","id":1,"result":{}}';
  const plain = new WireRecorder(
    { recorder: 'test', transport: 'stdio', target: 'server' },
    { sinks: [sink('lint'), sink('off', false)] },
  );
  plain.line('server', line);
  assert.deepEqual(handed, [
    ['lint message', undefined],
    ['off message', undefined],
  ]);
  handed.length = 0;
  const withFile = new WireRecorder(
    { recorder: 'test', transport: 'stdio', target: 'server' },
    { sinks: [sink('lint'), sink('file', true)] },
  );
  withFile.line('server', line);
  assert.deepEqual(handed, [
    ['lint message', line],
    ['file message', line],
  ]);
});

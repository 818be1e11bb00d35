// Properties of the transcript reader (parseTranscript): entries written one per line read back as
// written, any text either reads or fails with a TranscriptError naming a line that exists, and a
// broken line of a real recording (made here by `mcpwire list --record`) is reported at that line.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import fc from 'fast-check';

import { jsonObject, validMessage } from '../../../test/support/json-rpc-arbitraries.ts';
import { checkProperty } from '../../../test/support/property.ts';
import {
  parseTranscript,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  TranscriptError,
  type EventEntry,
  type HeaderEntry,
} from '../src/wire/transcript.ts';
import { OUR_EVERYTHING, runCli } from './support/cli-process.ts';

const t = fc.double({ min: 0, max: 1e7, noNaN: true }).map((ms) => Math.abs(ms));
const side = fc.constantFrom('client' as const, 'server' as const);
const text = fc.string({ unit: 'binary', maxLength: 16 });
const headers = fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), {
  maxKeys: 3,
  noNullPrototype: true,
});
const exchange = fc.nat({ max: 50 });
const optional = { requiredKeys: [] as never[], noNullPrototype: true };

/** Every entry kind of the format, each member present or left out as the format allows. */
const entry: fc.Arbitrary<EventEntry> = fc.oneof(
  fc
    .tuple(
      fc.record({ t, from: side, message: validMessage }, { noNullPrototype: true }),
      fc.record({ exchange, eventId: text, batch: fc.nat() }, optional),
    )
    .map(([required, extra]) => ({ type: 'message' as const, ...required, ...extra })),
  fc.record(
    { type: fc.constant('invalid' as const), t, from: side, text, reason: text },
    { noNullPrototype: true },
  ),
  fc
    .tuple(
      fc.record({ t, command: text, args: fc.array(text, { maxLength: 3 }) }, { noNullPrototype: true }),
      fc.record({ pid: fc.nat() }, optional),
    )
    .map(([required, extra]) => ({ type: 'spawn' as const, ...required, ...extra })),
  fc.record(
    {
      type: fc.constant('exit' as const),
      t,
      code: fc.option(fc.integer({ min: 0, max: 255 }), { nil: null }),
      signal: fc.option(fc.constantFrom('SIGTERM', 'SIGKILL'), { nil: null }),
    },
    { noNullPrototype: true },
  ),
  fc.record({ type: fc.constant('stderr' as const), t, text }, { noNullPrototype: true }),
  fc.record(
    {
      type: fc.constant('http-request' as const),
      t,
      exchange,
      method: fc.constantFrom('GET', 'POST', 'DELETE'),
      url: fc.webUrl(),
      headers,
    },
    { noNullPrototype: true },
  ),
  fc
    .tuple(
      fc.record(
        { t, exchange, status: fc.integer({ min: 100, max: 599 }), headers },
        { noNullPrototype: true },
      ),
      fc.record({ body: text }, optional),
    )
    .map(([required, extra]) => ({ type: 'http-response' as const, ...required, ...extra })),
  fc
    .tuple(fc.record({ t, exchange }, { noNullPrototype: true }), fc.record({ error: text }, optional))
    .map(([required, extra]) => ({ type: 'http-end' as const, ...required, ...extra })),
  fc.record({ type: fc.constant('note' as const), t, text }, { noNullPrototype: true }),
);

const header: fc.Arbitrary<HeaderEntry> = fc.record(
  {
    type: fc.constant('header' as const),
    format: fc.constant(TRANSCRIPT_FORMAT),
    version: fc.constant(TRANSCRIPT_VERSION),
    recorder: text,
    transport: fc.constantFrom('stdio' as const, 'http' as const),
    target: text,
    startedAt: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  },
  { noNullPrototype: true },
);

/** Lines that are not entries, each of a different kind of wrong. */
const brokenLine = fc.oneof(
  fc.constantFrom('{', '{"type":"note","t":1', 'null', '[]', '42', '"note"', '{}', '{"t":1}'),
  fc.constantFrom(
    '{"type":"header","t":1}',
    '{"type":"nope","t":1}',
    '{"type":"note","t":"1"}',
    '{"type":"note"}',
  ),
  fc.constantFrom(
    '{"type":"message","t":1,"from":"client"}',
    '{"type":"message","t":1,"message":null}',
    '{"type":"note","t":1e999}',
  ),
  jsonObject.map((value) => JSON.stringify({ ...value, type: `x-${Object.keys(value).length}`, t: 0 })),
);

/** `entries` as a file: one JSON line each, LF or CRLF endings, blank lines between and after. */
function write(lines: readonly string[], layout: { isCrlf: boolean; blanks: readonly number[] }): string {
  const eol = layout.isCrlf ? '\r\n' : '\n';
  const blank = (count: number) => (count === 0 ? '' : `${' '.repeat(count - 1)}${eol}`);
  return lines.map((line, i) => `${line}${eol}${blank(layout.blanks[i] ?? 0)}`).join('');
}

const layout = fc.record({ isCrlf: fc.boolean(), blanks: fc.array(fc.nat({ max: 2 }), { maxLength: 12 }) });

/** What a JSON round trip keeps (no -0, no undefined members): the reader can give back only that. */
const viaJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('transcript reader properties', () => {
  let recorded = '';
  let dir = '';

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpwire-transcript-property-'));
    const file = join(dir, 'list.jsonl');
    const run = await runCli(['list', '--record', file, '--', ...OUR_EVERYTHING], { timeoutMs: 120_000 });
    assert.equal(run.code, 0, run.stderr);
    recorded = await readFile(file, 'utf8');
  });

  after(() => rm(dir, { recursive: true, force: true }));

  test('entries written one per line read back as written, whatever the line endings and blank lines (round trip)', async (t) => {
    await checkProperty(
      t,
      fc.property(header, fc.array(entry, { maxLength: 10 }), layout, (first, entries, shape) => {
        const lines = [first, ...entries].map((value) => JSON.stringify(value));
        assert.deepEqual(parseTranscript(write(lines, shape)), {
          header: viaJson(first),
          entries: viaJson(entries),
        });
      }),
    );
  });

  test('a real recording reads back entry for entry, with any of its lines broken reported at that very line', async (t) => {
    const lines = recorded.trimEnd().split('\n');
    assert.ok(lines.length > 3, 'the recording has a header and entries');
    assert.equal(parseTranscript(recorded).entries.length, lines.length - 1);
    await checkProperty(
      t,
      fc.property(
        fc.integer({ min: 1, max: lines.length - 1 }),
        brokenLine,
        layout,
        (index, broken, shape) => {
          const changed = lines.map((line, i) => (i === index ? broken : line));
          // Blank lines are not kept in the layout here: they would move the line numbers.
          const file = write(changed, { ...shape, blanks: [] });
          // A line that is no entry fails the file at that line; an entry of a known type but the
          // wrong shape is left out and named with its line (issue 21).
          let read: ReturnType<typeof parseTranscript> | undefined;
          const error = (() => {
            try {
              read = parseTranscript(file, 'recorded.jsonl');
            } catch (caught) {
              return caught;
            }
            return undefined;
          })();
          if (read !== undefined) {
            assert.deepEqual(
              read.malformed?.map((entry) => entry.line),
              [index + 1],
              `line ${index + 1} (${broken}) was not reported`,
            );
            assert.equal(read.entries.length, lines.length - 2);
            return;
          }
          assert.ok(
            error instanceof TranscriptError,
            `line ${index + 1} (${broken}) failed otherwise: ${String(error)}`,
          );
          assert.equal(error.line, index + 1);
          assert.equal(error.file, 'recorded.jsonl');
        },
      ),
    );
  });

  test('any text reads as a transcript or fails with a TranscriptError naming a line it has, never otherwise', async (t) => {
    const pieces = recorded.split(/(?<=\n)/);
    const mangled = fc
      .tuple(
        fc.array(fc.constantFrom(...pieces), { maxLength: 8 }),
        fc.nat(),
        fc.string({ unit: 'binary', maxLength: 4 }),
      )
      .map(([chosen, at, insert]) => {
        const joined = chosen.join('');
        const cut = at % (joined.length + 1);
        return joined.slice(0, cut) + insert + joined.slice(cut);
      });
    await checkProperty(
      t,
      fc.property(fc.oneof(mangled, fc.string({ unit: 'binary' })), (input) => {
        try {
          parseTranscript(input);
        } catch (error) {
          assert.ok(error instanceof TranscriptError, String(error));
          assert.ok(
            error.line >= 1 && error.line <= Math.max(1, input.split('\n').length),
            `line ${error.line}`,
          );
        }
      }),
    );
  });
});

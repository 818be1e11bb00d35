// A server that answers tools/list with values nested 3,000 and 100,000 levels deep (issue 21):
// `mcpwire list --record` and `list --json` finish normally, and the stdio tap passes the hostile
// line on byte for byte, records it (cut at the documented depth) and the lines after it.

import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { readEntries, runCli } from '../support/cli-child.ts';
import { TapProcess } from '../../support/tap-process.ts';

const SERVER = [process.execPath, join(import.meta.dirname, 'fixtures', 'deep-json-server.mjs')];

/** The same bytes as the fixture's deepJson: `depth` levels, an object and an array per pair. */
const deepJson = (depth: number, leaf: string): string =>
  '{"a":['.repeat(depth / 2) + leaf + ']}'.repeat(depth / 2);

/** The fixture's tools/list response line for request `id`. */
const toolsListLine = (id: number): string =>
  `{"jsonrpc":"2.0","id":${id},"result":{"tools":[` +
  `{"name":"deep3k","description":"three thousand deep","inputSchema":{"type":"object"},"_meta":${deepJson(3_000, '1')}},` +
  `{"name":"deep100k","description":"a hundred thousand deep","inputSchema":{"type":"object"},"_meta":${deepJson(100_000, '2')}}` +
  `]}}`;

function scratch(name: string): string {
  return join(mkdtempSync(join(tmpdir(), 'mcpwire-deep-json-')), name);
}

type Entry = ReturnType<typeof readEntries>[number];

/** The recorded tools/list response (a result with `tools`). */
function recordedToolsList(entries: readonly Entry[]): Entry {
  const found = entries.find(
    (entry) =>
      entry.type === 'message' &&
      entry.from === 'server' &&
      JSON.stringify(entry.message).includes('"deep3k"'),
  );
  assert.ok(found, `no tools/list response recorded in ${entries.length} entries`);
  return found;
}

describe('a server sending deeply nested JSON', { concurrency: 2 }, () => {
  test('mcpwire list --record lists both tools and records the response, cut at depth 1,000 with a note', async () => {
    const record = scratch('list.jsonl');
    const result = await runCli(['list', '--record', record, '--', ...SERVER]);
    assert.doesNotMatch(result.stderr, /RangeError|call stack/);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^deep3k {2,}three thousand deep$/m);
    assert.match(result.stdout, /^deep100k {2,}a hundred thousand deep$/m);
    const entries = readEntries(record);
    const text = JSON.stringify(recordedToolsList(entries).message);
    assert.match(text, /\[mcpwire: cut, nested deeper than 1000 levels\]/);
    assert.ok(
      entries.some((entry) => entry.type === 'note' && /deeper than 1000 levels/.test(String(entry.text))),
      'a note says the message was cut',
    );
    assert.ok(
      entries.some((entry) => entry.type === 'exit'),
      'the recording goes on to the exit',
    );
  });

  test('mcpwire list --json prints JSON (the deep values cut) and exits 0', async () => {
    const result = await runCli(['list', '--json', '--', ...SERVER]);
    assert.doesNotMatch(result.stderr, /RangeError|call stack/);
    assert.equal(result.code, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as unknown;
    assert.match(JSON.stringify(printed), /"deep100k"/);
    assert.match(JSON.stringify(printed), /\[mcpwire: cut, nested deeper than 1000 levels\]/);
  });

  test('the stdio tap forwards the hostile line byte for byte, records it and the next request is answered', async () => {
    const record = scratch('tap.jsonl');
    await using tap = new TapProcess(['--record', record, '--', ...SERVER]);
    tap.child.stdin.write(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}\n' +
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n' +
        '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n',
    );
    await tap.waitForLines(2);
    tap.child.stdin.write('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await tap.waitForLines(3);
    const lines = tap.stdout.toString('utf8').split('\n');
    assert.equal(lines[1], toolsListLine(2), 'the host gets the hostile line exactly');
    assert.equal(lines[2], '{"jsonrpc":"2.0","id":3,"result":{}}');
    tap.child.stdin.end();
    const exited = await tap.exited;
    assert.doesNotMatch(tap.stderr, /RangeError|call stack/);
    assert.equal(exited.code, 0, tap.stderr);
    const entries = readEntries(record);
    assert.match(JSON.stringify(recordedToolsList(entries).message), /nested deeper than 1000 levels/);
    const ping = entries.findIndex(
      (entry) =>
        entry.type === 'message' && entry.from === 'server' && (entry.message as { id?: unknown }).id === 3,
    );
    assert.ok(
      ping > entries.indexOf(recordedToolsList(entries)),
      'the answer after the hostile line is recorded',
    );
  });
});

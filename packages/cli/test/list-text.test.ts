// `mcpwire list` as a person reads it against a server with real servers' long descriptions and
// nested input schemas: on a terminal (a pty 60 columns wide) wrapped and cut so that the arguments
// stay in view, whole with --long; piped, whole and unwrapped, each item's lines together.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { McpwirePty, ROOT_DIR } from '../../../test/support/cli-child.ts';
import { MCPWIRE, runCli } from './support/cli-process.ts';
import { MARKERS } from './fixtures/long-lists-server.ts';

const SERVER = ['--', ...MCPWIRE, 'serve', join(import.meta.dirname, 'fixtures', 'long-lists-server.ts')];
const COLUMNS = 60;

/** Columns a terminal gives `line`: two for East Asian wide characters and emoji, one otherwise. */
function columnsOf(line: string): number {
  let width = 0;
  for (const char of line)
    width +=
      /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|\p{Extended_Pictographic}/u.test(
        char,
      )
        ? 2
        : 1;
  return width;
}

/** `list tools` on a pty `COLUMNS` wide: its text, escape sequences removed, once it exited 0. */
async function listOnTerminal(extra: string[] = []): Promise<string> {
  await using pty = new McpwirePty(['list', 'tools', ...extra, ...SERVER], { cwd: ROOT_DIR, cols: COLUMNS });
  const { exitCode } = await pty.exited;
  assert.equal(exitCode, 0, pty.text);
  return pty.text;
}

/** The lines of the item named `name`: its first line and every indented line after it. */
function itemLines(text: string, name: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${name} `));
  assert.notEqual(start, -1, `no item ${name} in:\n${text}`);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => !line.startsWith(' '));
  return [lines[start]!, ...rest.slice(0, end === -1 ? rest.length : end)];
}

function assertFits(text: string): void {
  for (const line of text.split('\n'))
    assert.ok(columnsOf(line) <= COLUMNS, `wider than ${COLUMNS} columns: ${JSON.stringify(line)}`);
}

describe('list text output', { concurrency: 4 }, () => {
  test('on a terminal: descriptions wrapped with a hanging indent, cut after 4 lines with "…", arguments in view', async () => {
    const text = await listOnTerminal();
    assertFits(text);
    const item = itemLines(text, 'search_code');
    const joined = item.join('\n');
    assert.match(joined, /…/, joined);
    for (const marker of MARKERS) assert.equal(joined.includes(marker), false, `${marker} shown: ${joined}`);
    assert.match(joined, /query: string/);
    const indent = item[0]!.indexOf('Searches');
    assert.ok(indent > 'search_code'.length, item[0]);
    for (const line of item.slice(1)) assert.match(line, new RegExp(`^ {${indent}}\\S`), joined);
    const description = item.slice(0, item.findIndex((line) => line.includes('…')) + 1);
    assert.ok(description.length >= 1 && description.length <= 4, joined);
  });

  test('--long on a terminal: whole descriptions, wrapped; wide characters take two columns; escapes and surrogate pairs stay whole', async () => {
    const text = await listOnTerminal(['--long']);
    assertFits(text);
    for (const marker of [...MARKERS, 'END-OF-WIDE']) assert.ok(text.includes(marker), `${marker} missing`);
    assert.equal(text.includes('\uFFFD'), false, 'a surrogate pair was split');
    const wide = itemLines(text, 'wide_text').join('');
    assert.equal(wide.split('\\x1b').length - 1, 12, wide);
    assert.equal(wide.split('\\u202e').length - 1, 12, wide);
    assert.equal(wide.split('😀').length - 1, 30, wide);
    assert.equal(wide.split('字').length - 1, 48, wide);
  });

  test('piped: whole descriptions, unwrapped and uncut, continuation lines indented under their item', async () => {
    const result = await runCli(['list', 'tools', ...SERVER]);
    assert.equal(result.code, 0, result.stderr);
    const item = itemLines(result.stdout, 'search_code');
    const joined = item.join('\n');
    for (const marker of MARKERS) assert.ok(joined.includes(marker), `${marker} missing: ${joined}`);
    assert.equal(joined.includes('…'), false, joined);
    // The description's own lines, paragraph breaks included, stay inside the item.
    assert.ok(item.length >= 5, joined);
    assert.match(item[0]!, /^search_code +Searches the code .* END-OF-FIRST$/);
    assert.match(item.at(-1)!, /Results are paged, thirty to a page END-OF-THIRD \(query: string, /);
    const lines = result.stdout.trimEnd().split('\n');
    assert.deepEqual(
      lines.filter((line) => !line.startsWith(' ')).map((line) => line.split(' ')[0]),
      ['search_code', 'edit_file', 'deep_shape', 'wide_text'],
    );
  });

  test('nested argument shapes: objects, arrays, unions, defaults, $ref by name, depth and width capped', async () => {
    const result = await runCli(['list', 'tools', ...SERVER]);
    assert.equal(result.code, 0, result.stderr);
    const out = result.stdout;
    for (const shape of [
      'query: string',
      'filter?: { owner: string, state?: "open"|"closed" }',
      'limit?: integer = 30',
      'path: string',
      'edits: { oldText: string, newText: string }[]',
      'tags?: string[]',
      'dryRun?: boolean = false',
      'outer: { middle?: { inner?: { core?: object } } }',
      'where?: Filter',
      'id?: string|integer',
      'options?: { o1?: boolean, o2?: boolean, o3?: boolean, o4?: boolean, o5?: boolean, ... }',
      'level?: "l1"|"l2"|"l3"|"l4"|"l5"|"l6"|...',
    ])
      assert.ok(out.includes(shape), `${shape} missing from:\n${out}`);
    const json = await runCli(['list', 'tools', '--json', ...SERVER]);
    assert.equal(json.code, 0, json.stderr);
    assert.equal((JSON.parse(json.stdout) as { tools: unknown[] }).tools.length, 4);
  });
});

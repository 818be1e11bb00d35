// `mcpwire report` as a script runs it: where the HTML goes (beside the transcript, a chosen file,
// stdout with `-o -`), and the usage errors (exit 2) that say what to do instead.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runCli } from './support/cli-process.ts';

const TRANSCRIPT = [
  {
    type: 'header',
    format: 'mcpwire-transcript',
    version: 1,
    recorder: 'mcpwire list',
    transport: 'stdio',
    target: 'mcpwire serve everything',
    startedAt: '2026-07-28T10:00:00.000Z',
  },
  { type: 'message', t: 1, from: 'client', message: { jsonrpc: '2.0', id: 1, method: 'ping' } },
  {
    type: 'message',
    t: 2,
    from: 'server',
    message: { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } },
  },
]
  .map((entry) => JSON.stringify(entry))
  .join('\n');

describe('mcpwire report: output and usage errors', { concurrency: 4, timeout: 300_000 }, () => {
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcpwire-report-cli-'));
    await writeFile(join(dir, 'session.jsonl'), TRANSCRIPT);
    await writeFile(join(dir, 'notes.txt'), 'hello\n');
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('by default session.jsonl becomes session.html beside it; stdout says so', async () => {
    const run = await runCli(['report', 'session.jsonl'], { cwd: dir });
    assert.deepEqual(
      [run.code, run.stdout, run.stderr],
      [0, 'wrote session.html (2 messages, 1 failure)\n', ''],
    );
    const page = await readFile(join(dir, 'session.html'), 'utf8');
    assert.match(page, /^<!doctype html>/);
    assert.match(page, /<span class="label">#1 error -32601<\/span>/);
  });

  test('-o - writes the document alone to stdout; -o <file> writes there', async () => {
    const piped = await runCli(['report', join(dir, 'session.jsonl'), '-o', '-']);
    assert.equal(piped.code, 0, piped.stderr);
    assert.match(piped.stdout, /^<!doctype html>[\s\S]*<\/html>\n$/);
    const chosen = join(dir, 'chosen.html');
    const written = await runCli(['report', join(dir, 'session.jsonl'), '--output', chosen]);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(await readFile(chosen, 'utf8'), piped.stdout);
  });

  test('exit 2 with what to do: a missing file, a file that is no transcript, an unwritable output', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['report', join(dir, 'nope.jsonl')],
        /^mcpwire: cannot read the transcript .*nope\.jsonl: no such file \(record one with --record <file\.jsonl> on list, call, read, get, complete or connect\)\n$/,
      ],
      [['report', join(dir, 'notes.txt')], /^mcpwire: .*notes\.txt:1: not JSON /],
      [
        ['report', join(dir, 'session.jsonl'), '-o', join(dir, 'no-such-dir', 'out.html')],
        /^mcpwire: cannot write .*out\.html: .*ENOENT.* \(choose another file with -o <file>, or -o - for stdout\)\n$/,
      ],
      [['report'], /^mcpwire: missing required argument 'transcript' \(see "mcpwire report --help"\)\n$/],
    ];
    await Promise.all(
      cases.map(async ([args, message]) => {
        const run = await runCli(args);
        assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
        assert.equal(run.stdout, '');
        assert.match(run.stderr, message);
      }),
    );
    assert.equal(existsSync(join(dir, 'notes.html')), false);
  });

  test('--help describes every option and shows examples', async () => {
    const run = await runCli(['report', '--help']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Usage: mcpwire report \[options\] <transcript>/);
    assert.match(run.stdout, /-o, --output <file> +where to write it/);
    assert.match(run.stdout, /--har +write the HTTP exchanges as HAR 1\.2/);
    assert.match(run.stdout, /Examples:/);
  });
});

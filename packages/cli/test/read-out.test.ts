// `mcpwire read <target> <uri> --out <file>` (issue 22 item 12): a blob saved as its bytes, text as
// UTF-8, never over an existing file without --force; several contents refused unless one is picked;
// a blob on a terminal without --out described with a pointer to --out, never dumped.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FIXTURES, MCPWIRE, OUR_EVERYTHING, runCli } from './support/cli-process.ts';
import { PtyProcess } from './support/pty-process.ts';
import { PAIR_BLOB } from './fixtures/contents-server.ts';

const OURS = ['--', ...OUR_EVERYTHING];
const CONTENTS = ['--', ...MCPWIRE, 'serve', join(FIXTURES, 'contents-server.ts')];
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const dir = mkdtempSync(join(tmpdir(), 'mcpwire-read-out-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('mcpwire read --out', { concurrency: 4 }, () => {
  test('a blob is written as its decoded bytes, mode 0644, and what was written is said on stderr', async () => {
    const file = join(dir, 'static.png');
    const read = await runCli(['read', 'test://static-binary', '--out', file, ...OURS]);
    assert.equal(read.code, 0, read.stderr);
    assert.equal(read.stdout, '');
    const json = await runCli(['read', 'test://static-binary', '--json', ...OURS]);
    const { blob } = (JSON.parse(json.stdout) as { contents: [{ blob: string }] }).contents[0];
    const bytes = readFileSync(file);
    assert.deepEqual(bytes, Buffer.from(blob, 'base64'));
    assert.deepEqual(bytes.subarray(0, 8), PNG_MAGIC);
    assert.equal(statSync(file).mode & 0o777, 0o644 & ~process.umask());
    assert.equal(read.stderr, `mcpwire: wrote ${bytes.length} bytes (image/png) to ${file}\n`);
  });

  test('an existing file is refused (exit 2, left as it was) unless --force', async () => {
    const file = join(dir, 'existing.png');
    writeFileSync(file, 'mine');
    const refused = await runCli(['read', 'test://static-binary', '--out', file, ...OURS]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(refused.stderr, `mcpwire: ${file} exists: add --force to overwrite it\n`);
    assert.equal(readFileSync(file, 'utf8'), 'mine');
    const forced = await runCli(['read', 'test://static-binary', '--out', file, '--force', ...OURS]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.deepEqual(readFileSync(file).subarray(0, 8), PNG_MAGIC);
  });

  test('text is written as UTF-8', async () => {
    const file = join(dir, 'note.md');
    const read = await runCli(['read', 'test://utf8', '--out', file, ...CONTENTS]);
    assert.equal(read.code, 0, read.stderr);
    assert.deepEqual(readFileSync(file), Buffer.from('# Größe ✓\n', 'utf8'));
    assert.match(read.stderr, /^mcpwire: wrote 14 bytes \(text\/markdown\) to .*note\.md\n$/);
  });

  test('several contents: exit 2 naming --content; --content <n> picks one', async () => {
    const file = join(dir, 'pair.bin');
    const refused = await runCli(['read', 'test://pair', '--out', file, ...CONTENTS]);
    assert.equal(refused.code, 2, refused.stderr);
    assert.equal(
      refused.stderr,
      'mcpwire: test://pair has 2 contents and --out writes one: pick it with --content <1-2> (--json shows them all)\n',
    );
    assert.throws(() => statSync(file), { code: 'ENOENT' });
    const second = await runCli(['read', 'test://pair', '--out', file, '--content', '2', ...CONTENTS]);
    assert.equal(second.code, 0, second.stderr);
    assert.deepEqual(readFileSync(file), PAIR_BLOB);
    const beyond = await runCli([
      'read',
      'test://pair',
      '--out',
      file,
      '--content',
      '3',
      '--force',
      ...CONTENTS,
    ]);
    assert.equal(beyond.code, 2, beyond.stderr);
    assert.match(beyond.stderr, /^mcpwire: --content 3: test:\/\/pair has 2 contents\n$/);
  });

  test('a blob without --out: described on a terminal with a pointer to --out, the bytes never shown', async () => {
    await using pty = new PtyProcess([...MCPWIRE, 'read', 'test://static-binary', ...OURS]);
    const { exitCode } = await pty.exited;
    assert.equal(exitCode, 0, pty.text);
    assert.match(pty.text, /^\[blob image\/png, \d+ bytes: save it with --out <file>\]\n$/);
  });
});

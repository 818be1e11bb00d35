// The frontmatter reader: the YAML that SKILL.md files hold, read the same on both sides.

import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseFrontmatter, splitFrontmatter } from './frontmatter.ts';
import { readSkillsDirectory } from './skills-directory.ts';

test('splits the leading --- block (BOM and CRLF tolerated) from the body', () => {
  assert.deepEqual(splitFrontmatter('\ufeff---\r\nname: a\r\n---\r\nBody\r\n'), {
    yaml: 'name: a',
    body: 'Body\r\n',
  });
  assert.equal(splitFrontmatter('no block\n---\nname: a\n---\n'), undefined);
});

test('reads maps, lists, quoted and block strings and core-schema scalars', () => {
  const yaml = [
    'name: pdf-processing',
    'description: "Fill forms: quickly"',
    "quote: 'it''s'",
    'count: 3',
    'ratio: 0.5',
    'flag: true',
    'none: ~',
    'version: "1.0"',
    'tags: [a, b]',
    'allowed-tools:',
    '  - Read',
    '  - Write',
    'metadata:',
    '  author: someone # a comment',
    '  nested:',
    '    deep: yes',
    'long: >-',
    '  folded',
    '  text',
    'literal: |',
    '  line 1',
    '  line 2',
  ].join('\n');
  assert.deepEqual(parseFrontmatter(yaml), {
    name: 'pdf-processing',
    description: 'Fill forms: quickly',
    quote: "it's",
    count: 3,
    ratio: 0.5,
    flag: true,
    none: null,
    version: '1.0',
    tags: ['a', 'b'],
    'allowed-tools': ['Read', 'Write'],
    metadata: { author: 'someone', nested: { deep: 'yes' } },
    long: 'folded text',
    literal: 'line 1\nline 2\n',
  });
});

test('a line it cannot read is a SyntaxError naming the line', () => {
  assert.throws(() => parseFrontmatter('name: a\njust words'), /line 2: expected "key: value"/);
});

test('readSkillsDirectory reads a folder of skills: text as text, other bytes as bytes, dot-files skipped', async () => {
  const root = mkdtempSync(join(tmpdir(), 'mcpwire-skills-'));
  try {
    mkdirSync(join(root, 'demo', 'assets'), { recursive: true });
    writeFileSync(join(root, 'demo', 'SKILL.md'), '---\nname: demo\ndescription: d\n---\n');
    writeFileSync(join(root, 'demo', 'assets', 'blob.bin'), Buffer.from([0xff, 0xfe, 0x00]));
    writeFileSync(join(root, 'demo', '.hidden'), 'x');
    const files = await readSkillsDirectory(root);
    assert.deepEqual(Object.keys(files).sort(), ['demo/SKILL.md', 'demo/assets/blob.bin']);
    assert.equal(files['demo/SKILL.md'], '---\nname: demo\ndescription: d\n---\n');
    assert.deepEqual(files['demo/assets/blob.bin'], new Uint8Array([0xff, 0xfe, 0x00]));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

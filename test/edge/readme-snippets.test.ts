// The README's "Everywhere JavaScript runs" snippets are the files the runtime tests bundle and run
// (test/edge/fixtures), less the `declare const Deno|Bun` lines our Node-typed typecheck needs.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const FILES = ['server.ts', 'worker.ts', 'worker-isolates.ts', 'deno.ts', 'bun.ts', 'node.ts'];

/** A fixture as the README shows it: without its `declare const X: { ... };` block. */
function shown(text: string): string {
  return text.replace(/\ndeclare const \w+: \{\n(?:.*\n)*?\};\n\n?/, '\n').trimEnd();
}

test('each runtime snippet in the README is the fixture the runtime tests run', async () => {
  const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('## Everywhere JavaScript runs');
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]!.trimEnd());
  assert.equal(blocks.length, FILES.length);
  for (const [index, file] of FILES.entries()) {
    const fixture = await readFile(join(import.meta.dirname, 'fixtures', file), 'utf8');
    assert.equal(blocks[index], shown(fixture), `README block ${index + 1} is fixtures/${file}`);
  }
});

// docs/design.md's "How a message travels" walks a tools/call through the library, file by file, for
// stdio, an HTTP session and a 2026-07-28 HTTP request (issue 23). This keeps the walks true to the
// code: every source file they name exists (a rename or a removal fails here until the walk is
// updated), each walk is a numbered list of at most about ten steps, and the one serve path the
// section describes is the file that calls the handler table.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'packages/mcpwire/src');

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts')) out.push(relative(SRC, path).split('\\').join('/'));
  }
  return out;
}

/** The section's text, from its heading to the next `## `. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  assert.notEqual(start, -1, `docs/design.md has no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 4);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** The walks: each bold "**Over ...**" heading and the numbered steps under it. */
function walks(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    const heading = /^\*\*(Over [^*]+)\*\*/.exec(line);
    if (heading !== null) {
      current = [];
      found.set(heading[1]!, current);
    } else if (current !== undefined && /^\d+\. /.test(line)) current.push(line);
    else if (current !== undefined && /^ {3}\S/.test(line) && current.length > 0)
      current[current.length - 1] += ` ${line.trim()}`;
  }
  return found;
}

const markdown = readFileSync(join(ROOT, 'docs/design.md'), 'utf8');
const travels = section(markdown, 'How a message travels');
const files = sourceFiles(SRC);

test('every source file the walks name exists in the library', () => {
  const named = [...travels.matchAll(/`([\w./-]+\.ts)`/g)].map((match) => match[1]!);
  assert.ok(named.length >= 20, `only ${named.length} files named`);
  const missing = named.filter((name) => !files.some((file) => file === name || file.endsWith(`/${name}`)));
  assert.deepEqual(missing, [], 'files named in "How a message travels" that do not exist');
});

test('stdio, an HTTP session and a 2026-07-28 HTTP request each have a walk of at most about ten steps', () => {
  const found = walks(travels);
  const titles = [...found.keys()];
  for (const expected of [/stdio/, /handshake-era session/, /2026-07-28/])
    assert.ok(
      titles.some((title) => expected.test(title)),
      `no walk matching ${expected}: ${titles.join('; ')}`,
    );
  for (const [title, steps] of found) {
    assert.ok(steps.length >= 3 && steps.length <= 11, `${title}: ${steps.length} steps`);
    steps.forEach((step, index) =>
      assert.ok(step.startsWith(`${index + 1}. `), `${title}: step ${index + 1}`),
    );
  }
});

test('the serve path the section names is the file that calls the handler table', () => {
  assert.match(travels, /`serve\(host, request, scope\)` in `server\/serve\.ts`/);
  const serve = readFileSync(join(SRC, 'server/serve.ts'), 'utf8');
  assert.match(serve, /export function serve\(/);
  assert.match(serve, /host\.dispatch\(/);
});

// docs/requirements.md defines every requirement id the repository cites (issue 23): a citation of an id
// the document does not define fails here, naming the id and the first file:line citing it.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  ID_PATTERN,
  REQUIREMENTS_FILE,
  findCitedIds,
  parseDefinitions,
} from '../scripts/requirement-ids.mjs';

const ROOT = join(import.meta.dirname, '..');
const definitions = parseDefinitions(readFileSync(join(ROOT, REQUIREMENTS_FILE), 'utf8'));
/** `[`page#heading`]` closing a definition line: the spec section the requirement comes from. */
const SECTION = /\[`[a-z0-9][^`\s]*#[^`\s]+`\]$/;
/** The strength, right after the id: `(client, MUST)`, `(server, SHOULD NOT; MAY)`, ... */
const STRENGTH = /^\([^)]*\b(?:MUST|SHOULD|MAY)\b[^)]*\) /;

test('every requirement id cited in the repository is defined in docs/requirements.md', () => {
  const defined = new Set(definitions.map((d) => d.id));
  const cited = findCitedIds(ROOT);
  assert.ok(cited.size > 0, 'the scan found no cited id at all: the pattern or the folders are wrong');
  const missing = [...cited].filter(([id]) => !defined.has(id)).map(([id, where]) => `${id} (${where})`);
  assert.deepEqual(
    missing,
    [],
    `${missing.length} of ${cited.size} cited ids are not defined in ${REQUIREMENTS_FILE}`,
  );
});

test('no requirement id is defined twice', () => {
  const firstLine = new Map<string, number>();
  const twice: string[] = [];
  for (const { id, line } of definitions) {
    const first = firstLine.get(id);
    if (first === undefined) firstLine.set(id, line);
    else twice.push(`${id} (lines ${first} and ${line})`);
  }
  assert.deepEqual(twice, []);
});

test('every definition names its strength and the spec section it comes from', () => {
  assert.ok(definitions.length > 0, `${REQUIREMENTS_FILE} defines no id`);
  const bad = definitions
    .filter(({ text }) => !STRENGTH.test(text) || !SECTION.test(text))
    .map(({ id, line }) => `${id} (line ${line})`);
  assert.deepEqual(bad, [], 'each line: - **ID** (who, MUST|SHOULD|MAY ...) text [`page#heading`]');
});

test('every defined id is one the citation scan recognises', () => {
  const unrecognised = definitions
    .filter(({ id }) => [...id.matchAll(ID_PATTERN)].map(([m]) => m).join() !== id)
    .map(({ id }) => id);
  assert.deepEqual(unrecognised, [], 'a new area prefix goes into scripts/requirement-ids.mjs');
});

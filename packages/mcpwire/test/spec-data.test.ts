// The official spec data is part of the repository (spec/ at its root): every revision mcpwire knows, and every
// revision its method table names, has its schema; the stateless revision has its examples.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HANDSHAKE_VERSIONS, STATELESS_VERSIONS } from '../src/protocol/revisions.ts';
import { METHODS } from '../src/protocol/methods.ts';

const SPEC = join(import.meta.dirname, '../../../spec');
const KNOWN: readonly string[] = [...HANDSHAKE_VERSIONS, ...STATELESS_VERSIONS];

function revisionsOfMethodTable(): Set<string> {
  const revisions = new Set<string>();
  for (const spec of Object.values(METHODS)) {
    revisions.add(spec.since);
    if ('until' in spec && spec.until !== undefined) revisions.add(spec.until);
  }
  return revisions;
}

test('every known revision and every revision of the method table has its official schema', () => {
  const wanted = new Set([...KNOWN, ...revisionsOfMethodTable()]);
  for (const revision of wanted) {
    const file = join(SPEC, revision, 'schema.json');
    assert.ok(existsSync(file), `spec/${revision}/schema.json is missing (see spec/README.md)`);
    const schema = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const definitions = (schema.definitions ?? schema.$defs) as Record<string, unknown> | undefined;
    assert.ok(
      definitions && 'JSONRPCRequest' in definitions,
      `spec/${revision}/schema.json has no definitions`,
    );
  }
});

test('spec/ holds only known revisions, each named in its README', () => {
  const readme = readFileSync(join(SPEC, 'README.md'), 'utf8');
  const folders = readdirSync(SPEC, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  assert.deepEqual(folders.map((entry) => entry.name).sort(), [...KNOWN].sort());
  for (const { name } of folders)
    assert.ok(readme.includes(`\`${name}/schema.json\``), `README lacks ${name}`);
});

test('the stateless revision has its official example messages', () => {
  const examples = join(SPEC, '2026-07-28', 'examples');
  const files = readdirSync(examples).flatMap((type) => readdirSync(join(examples, type)));
  assert.ok(files.filter((name) => name.endsWith('.json')).length > 100, `only ${files.length} examples`);
});

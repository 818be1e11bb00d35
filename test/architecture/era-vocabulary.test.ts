// Issue 23: one vocabulary for the eras. Sources, tests, scripts and docs say "handshake era" and
// "stateless era"; "modern" is never said, and "legacy" only names the deprecated 2024-11-05 HTTP+SSE
// transport. History (CHANGELOG.md), copies of the official schemas and recorded data are left as written.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..', '..');
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'dist-typecheck', '.git', 'tmp', '.bench', 'packed']);
const TEXT_FILE = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|json|jsonc|ya?ml|transcript|txt|sh|html)$/;

/** Files that keep the old words: history, official schema copies, recorded data, and the two that name them. */
const LEFT_AS_WRITTEN = [
  /^CHANGELOG\.md$/,
  /(^|\/)package-lock\.json$/,
  /(^|\/)spec\/\d{4}-\d\d-\d\d\//,
  /^bench\/results\//,
  /\.jsonl$/,
  /(^|\/)fixtures\/.*\.json$/,
  /^test\/architecture\/era-vocabulary\.test\.ts$/,
  /^packages\/cli\/src\/arguments\/era-parser(\.test)?\.ts$/, // `--era legacy|modern` accepted as hidden aliases
];

/**
 * Where "legacy" keeps its meaning: the HTTP+SSE transport (`legacy HTTP+SSE`, `legacy SSE`,
 * `legacy-sse-client.ts`, `LegacySseChannel`), the 2025-11-25 schema's `LegacyTitledEnumSchema`, the
 * official everything server's `legacyEnum` argument, and the official SDK v2's own API
 * (`versionNegotiation: { mode: 'legacy' }`, `getProtocolEra()` returning 'legacy' or 'modern',
 * `createMcpHandler(..., { legacy: 'reject' })`).
 */
const ALLOWED = [
  /legacy[-_ ]?(?:http ?\+ ?)?sse|\bsse[-_ ]legacy/gi,
  /legacy_?titled_?enum\w*/gi,
  /\blegacyEnum\b/g,
  /\bmode: ?'legacy'/g,
  /\blegacy: ?'reject'/g,
  /getProtocolEra\(\),\s*'(?:legacy|modern)'/g,
];

/** The lines of `text` that say "modern", or "legacy" outside the allowed meanings, as `path:line: text`. */
export function findEraWords(path: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const rest = ALLOWED.reduce((left, re) => left.replace(re, ''), line);
    if (/legacy|modern/i.test(rest)) found.push(`${path}:${i + 1}: ${line.trim().slice(0, 100)}`);
  });
  return found;
}

function listFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listFiles(path, out);
    else out.push(relative(ROOT, path).split('\\').join('/'));
  }
  return out;
}

test('the era words are found in code, names and prose, and the HTTP+SSE transport keeps "legacy"', () => {
  const said = [
    "const era: 'legacy' | 'modern' = 'modern';",
    'if (isModernVersion(v)) return MODERN_VERSIONS;',
    'import { serve } from "./legacy-broker.ts";',
    'A legacy client sends initialize first.',
  ];
  for (const line of said) assert.equal(findEraWords('x.ts', line).length, 1, line);
  const kept = [
    'The legacy HTTP+SSE transport (2024-11-05) is deprecated.',
    "import { createLegacySseHandler } from './legacy-sse-server.ts';",
    'a LegacyTitledEnumSchema, as `legacyEnum` shows',
    'The handshake era and the stateless era; a sessionless server.',
    "new Client(info, { versionNegotiation: { mode: 'legacy' } }); // the official SDK v2",
    "assert.equal(client.getProtocolEra(), 'modern');",
  ];
  for (const line of kept) assert.deepEqual(findEraWords('x.ts', line), [], line);
});

test('no source, test, script or doc says "modern", or "legacy" outside the HTTP+SSE transport', () => {
  const found = listFiles(ROOT)
    .filter((path) => TEXT_FILE.test(path) && !LEFT_AS_WRITTEN.some((re) => re.test(path)))
    .flatMap((path) => [
      ...(findEraWords(path, path).length > 0 ? [`${path} (its name)`] : []),
      ...findEraWords(path, readFileSync(join(ROOT, path), 'utf8')),
    ]);
  assert.deepEqual(found.slice(0, 40), [], `${found.length} lines (the first 40 shown)`);
});

// Lists the requirement ids (`LIFE-6`, `S26-MRTR-4`, ...) that the repository's code, tests and docs cite,
// and the ids docs/requirements.md defines. `node scripts/requirement-ids.mjs` prints every cited id with
// the first file:line citing it, then the cited ids that docs/requirements.md does not define.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(import.meta.dirname, '..');

/** The areas of the 2025-11-25 list, as the checklist's section headings name them. */
export const PREFIXES_2025 = [
  'BASE',
  'SCHEMA',
  'META',
  'ICON',
  'IMPL',
  'LIFE',
  'STDIO',
  'HTTP',
  'COMPAT',
  'AUTH',
  'SEC',
  'PING',
  'CANCEL',
  'PROG',
  'TASK',
  'PAGE',
  'LOG',
  'COMP',
  'TOOL',
  'RES',
  'PROMPT',
  'ROOT',
  'SAMP',
  'ELIC',
];

/** The areas of the 2026-07-28 list; each id there is `S26-<area>-<n>`. */
export const PREFIXES_2026 = [
  'BASE',
  'META',
  'STATE',
  'VER',
  'DISC',
  'EXT',
  'HTTP',
  'HDR',
  'STDIO',
  'CANCEL',
  'PROG',
  'SUB',
  'MRTR',
  'CACHE',
  'LOG',
  'TOOL',
  'RES',
  'PROMPT',
  'COMP',
  'PAGE',
  'ELIC',
  'SAMP',
  'ROOT',
  'SCHEMA',
  'TASK',
  'SKILL',
  'AUTH',
  'XAUTH',
  'DEPR',
].map((area) => `S26-${area}`);

/**
 * Matches one id: a known prefix, a number, an optional letter for a sub-item (`AUTH-6a`). Neither a
 * letter, digit, `-` nor `_` may touch it on the left (so `XAUTH-1` and the `TASK-3` inside
 * `S26-TASK-3` are not ids of their own) and no letter, digit or `.digit` on the right, so words that
 * merely look alike (`UTF-8`, `SHA-256`, `SEP-1699`, `HTTP-1.1`) are never ids.
 */
export const ID_PATTERN = new RegExp(
  `(?<![A-Za-z0-9_-])(?:${[...PREFIXES_2026, ...PREFIXES_2025].join('|')})-[0-9]+[a-z]?(?![A-Za-z0-9_]|\\.[0-9])`,
  'g',
);

/** Where ids are cited; docs/requirements.md itself defines them and is not a citation. */
const SCANNED = ['packages', 'test', 'bench', 'scripts', 'docs', 'README.md', 'CHANGELOG.md'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'dist-typecheck', 'coverage', 'spec', 'results']);
export const REQUIREMENTS_FILE = 'docs/requirements.md';

function listFiles(path, out) {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (statSync(path).isDirectory()) {
    if (SKIPPED_FOLDERS.has(name) || name.startsWith('.')) return out;
    for (const entry of readdirSync(path).sort()) listFiles(join(path, entry), out);
  } else {
    out.push(path);
  }
  return out;
}

/**
 * Every id cited under `root` (default: this repository), mapped to the first `file:line` citing it, in
 * file order (folders and names sorted). Reads the files synchronously; idempotent.
 */
export function findCitedIds(root = ROOT) {
  const cited = new Map();
  const files = SCANNED.flatMap((entry) => {
    try {
      return listFiles(join(root, entry), []);
    } catch {
      return [];
    }
  });
  for (const file of files) {
    const path = relative(root, file);
    const bytes = readFileSync(file);
    // A binary file (an image, a database) holds no citation.
    if (path === REQUIREMENTS_FILE || bytes.includes(0)) continue;
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((line, index) => {
        for (const [id] of line.matchAll(ID_PATTERN)) {
          if (!cited.has(id)) cited.set(id, `${path}:${index + 1}`);
        }
      });
  }
  return cited;
}

/** One definition line of docs/requirements.md: `- **ID** (who, STRENGTH) text [`page#heading`]`. */
const DEFINITION = /^- \*\*([A-Z0-9]+(?:-[A-Z0-9]+)*-[0-9]+[a-z]?)\*\* (.*)$/;

/**
 * The definitions in a requirements document's text, in order: the id, its line number and the rest of
 * the line. Duplicates are kept, so a caller can report them.
 */
export function parseDefinitions(markdown) {
  const definitions = [];
  markdown.split('\n').forEach((line, index) => {
    const match = DEFINITION.exec(line);
    if (match) definitions.push({ id: match[1], line: index + 1, text: match[2] });
  });
  return definitions;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cited = findCitedIds();
  let text = '';
  try {
    text = readFileSync(join(ROOT, REQUIREMENTS_FILE), 'utf8');
  } catch {
    // No document yet: every cited id is undefined.
  }
  const defined = new Set(parseDefinitions(text).map((d) => d.id));
  const undefinedIds = [...cited].filter(([id]) => !defined.has(id));
  for (const [id, where] of cited) process.stdout.write(`${id}\t${where}\n`);
  process.stdout.write(
    `\n${cited.size} ids cited, ${defined.size} defined, ${undefinedIds.length} cited but undefined\n`,
  );
  for (const [id, where] of undefinedIds) process.stdout.write(`undefined: ${id} (${where})\n`);
  process.exitCode = undefinedIds.length > 0 ? 1 : 0;
}

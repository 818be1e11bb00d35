// Every regular expression in packages/*/src runs in time linear in its input, by construction: each
// literal (and each `RegExp(...)` call) is read with the TypeScript compiler API, parsed, and checked
// against the super-linear shapes of test/regex/regex-shapes.ts. A pattern the rules flag is fixed, or
// reviewed into EXCEPTIONS with the reason it is linear all the same (or PENDING, owned elsewhere).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';

import ts from 'typescript';

import { findSuperLinearShapes, type Finding } from './regex/regex-shapes.ts';
import { parseRegex } from './regex/regex-syntax.ts';

const ROOT = join(import.meta.dirname, '..');

/** One expression in the source: where it is and its text (`/.../flags`, or the call for a dynamic one). */
interface Expression {
  file: string;
  line: number;
  text: string;
  pattern: string | undefined;
  flags: string;
}

/** A flagged expression that was reviewed: linear all the same, for the reason given. */
interface Reviewed {
  file: string;
  text: string;
  reason: string;
}

/** Reviewed false alarms: the shape is there, but the input cannot drive it past linear time. */
const EXCEPTIONS: readonly Reviewed[] = [
  {
    file: 'packages/server-github/src/search/query-tokens.ts',
    text: String.raw`/(-?)([A-Za-z][A-Za-z-]*):(?:"([^"]*)"|(\S*))|"([^"]*)"|(\S+)/g`,
    reason:
      'a tokenizer run with matchAll: wherever its first alternative can start, its last, (\\S+), matches and ' +
      'consumes at least as far as the qualifier loop scanned; a quoted scan that fails runs to the end once, ' +
      'since any later quote would have ended it (bench/redos.ts measures it)',
  },
  {
    file: 'packages/mcpwire/src/auth/pkce.ts',
    text: '/=+$/',
    reason:
      'quadratic on many "=" before another character, but it only ever sees btoa() of a 32-byte SHA-256 ' +
      'digest that the client computed itself (44 characters), never peer input',
  },
];

/**
 * Findings in files this change may not edit (the CLI's sources belong to the wire-tools work):
 * reported to their owners with the fix, and listed so the check stays green meanwhile. Each one
 * is super-linear on input the command reads; the test fails as soon as one is fixed, so the entry
 * is removed with the fix.
 */
const PENDING: readonly Reviewed[] = [
  {
    file: 'packages/cli/src/wire/lint/finding.ts',
    text: String.raw`/\s*\n\s*/g`,
    reason: 'quadratic on a message of many spaces without a newline; fix: split on "\\n" and trim',
  },
];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !/\.test\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** Every regex literal and `RegExp(...)` / `new RegExp(...)` call of one file. */
export function expressionsOf(file: string, text: string): Expression[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Expression[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(source);
      const slash = literal.lastIndexOf('/');
      found.push({
        file,
        line: at(node),
        text: literal,
        pattern: literal.slice(1, slash),
        flags: literal.slice(slash + 1),
      });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'RegExp'
    ) {
      const [pattern, flags] = node.arguments ?? [];
      const isStatic = pattern !== undefined && ts.isStringLiteralLike(pattern);
      const isStaticFlags = flags === undefined || ts.isStringLiteralLike(flags);
      found.push({
        file,
        line: at(node),
        text: node.getText(source),
        pattern: isStatic && isStaticFlags ? pattern.text : undefined,
        flags: flags !== undefined && ts.isStringLiteralLike(flags) ? flags.text : '',
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Why an expression is not linear by construction, or undefined when it is. */
function problemsOf(expression: Expression): string | undefined {
  if (expression.pattern === undefined)
    return 'built from a value at run time: its pattern cannot be checked';
  let tree;
  try {
    tree = parseRegex(expression.pattern, expression.flags);
  } catch (error) {
    return `not readable by the check (${(error as Error).message})`;
  }
  const findings = findSuperLinearShapes(tree, expression.flags);
  return findings.length === 0 ? undefined : findings.map((f) => `${f.rule}: ${f.detail}`).join('; ');
}

function repositoryExpressions(): Expression[] {
  const packages = join(ROOT, 'packages');
  return readdirSync(packages)
    .map((name) => join(packages, name, 'src'))
    .filter((dir) => statSync(dir, { throwIfNoEntry: false })?.isDirectory())
    .flatMap((dir) => sourceFiles(dir))
    .flatMap((path) => expressionsOf(relative(ROOT, path).split('\\').join('/'), readFileSync(path, 'utf8')));
}

const isListed = (list: readonly Reviewed[], e: Expression) =>
  list.some((r) => r.file === e.file && r.text === e.text);

describe('regular expressions are linear by construction', () => {
  const expressions = repositoryExpressions();
  const flagged = expressions.flatMap((expression) => {
    const problem = problemsOf(expression);
    return problem === undefined ? [] : [{ expression, problem }];
  });

  test('the check sees the expressions of every package', () => {
    const files = new Set(expressions.map((e) => e.file.split('/')[1]));
    assert.ok(expressions.length >= 50, `only ${expressions.length} expressions found`);
    for (const name of ['mcpwire', 'cli', 'server-github']) assert.ok(files.has(name), name);
  });

  test('every expression in packages/*/src is linear by construction, or reviewed', (t) => {
    const unexplained = flagged.filter(
      ({ expression }) => !isListed([...EXCEPTIONS, ...PENDING], expression),
    );
    for (const { expression, problem } of flagged.filter(({ expression }) => isListed(PENDING, expression)))
      t.diagnostic(
        `pending (owned elsewhere): ${expression.file}:${expression.line} ${expression.text}: ${problem}`,
      );
    assert.deepEqual(
      unexplained.map(
        ({ expression, problem }) => `${expression.file}:${expression.line} ${expression.text}: ${problem}`,
      ),
      [],
    );
  });

  test('every exception and pending entry still names a flagged expression (none is stale)', () => {
    for (const entry of [...EXCEPTIONS, ...PENDING]) {
      const isFlagged = flagged.some(
        ({ expression }) => expression.file === entry.file && expression.text === entry.text,
      );
      assert.ok(isFlagged, `${entry.file}: ${entry.text} is no longer flagged: remove its entry`);
      assert.ok(entry.reason.length > 20, `${entry.text} needs its reason`);
    }
  });
});

describe('the linear-time check itself', () => {
  const flags = (pattern: string, flagText = '') =>
    findSuperLinearShapes(parseRegex(pattern, flagText), flagText).map((f) => f.rule);

  test('it rejects the classic super-linear shapes, each by its rule', () => {
    const bad: ReadonlyArray<readonly [string, string, Finding['rule']]> = [
      ['^(a+)+$', '', 'nested repeat'],
      ['^(\\w+\\s?)*$', '', 'nested repeat'],
      ['^(\\d{1,3})+$', '', 'nested repeat'],
      ['^(?:a|a)*$', '', 'ambiguous alternation'],
      ['^(?:\\r\\n|\\r|\\n)+x', '', 'ambiguous alternation'],
      ['^\\d+\\d+$', '', 'overlapping loops'],
      ['^([^/,]+)([^/,]+)$', '', 'overlapping loops'], // what a regex URI-template matcher builds for {a}{b}
      ['^(.+)(.+)(.+)$', '', 'overlapping loops'], // ... and for {+a}{+b}{+c}
      ['^\\w*_\\w*!', '', 'overlapping loops'],
      ['\\s*\\n\\s*', 'g', 'unanchored loop'],
      ['\\$\\{([^}]*)\\}', 'g', 'unanchored loop'],
      ['^\\/+|\\/+$', 'g', 'unanchored loop'],
      ['^a+x', 'm', 'unanchored loop'],
      ['(a)\\1', '', 'backreference'],
      ['^(?=.*x)', '', 'loop in lookaround'],
    ];
    for (const [pattern, flagText, rule] of bad)
      assert.ok(flags(pattern, flagText).includes(rule), `/${pattern}/${flagText}: ${rule}`);
  });

  test('it accepts linear shapes: delimited repeats, disjoint neighbours, loops that nothing can fail after', () => {
    const good: ReadonlyArray<readonly [string, string]> = [
      ['^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$', ''],
      ['^(?:,\\s*\\w+)*$', ''],
      ['^-?\\d+(\\.\\d+)?$', ''],
      ['\\{[^{}]+\\}', ''],
      ['\\s+', 'g'],
      ['[\\r\\n]+', 'g'],
      ['\\r\\n|\\r|\\n', 'g'],
      ['^\\S+\\s+\\S', ''],
      ['^[A-Za-z][A-Za-z0-9+.-]*:[^\\s\\u0000-\\u001f\\u007f]*$', ''],
      ["must have required property '([^']+)'$", ''],
      ['^(?=.)', 'gm'],
      ['^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$', ''],
    ];
    for (const [pattern, flagText] of good)
      assert.deepEqual(flags(pattern, flagText), [], `/${pattern}/${flagText}`);
  });

  test('it collects literals and RegExp calls, static or not, with their flags', () => {
    const code =
      'const a = /x+y/gi; const b = new RegExp("a|b", "m"); const c = RegExp(`${name}`); const d = "/not/";';
    assert.deepEqual(
      expressionsOf('f.ts', code).map((e) => [e.pattern, e.flags]),
      [
        ['x+y', 'gi'],
        ['a|b', 'm'],
        [undefined, ''],
      ],
    );
  });
});

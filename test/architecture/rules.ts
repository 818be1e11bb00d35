// The layering and package rules of STYLE.md as a pure function over a tree of files (path -> text),
// so the architecture test can run it on the repository and on small in-memory trees that break a rule.
// Imports are read with the TypeScript compiler API; the pure layers are type-checked without Node types.

import { join, posix } from 'node:path';
import ts from 'typescript';
import { CONTRACT, contractWords, HTTP_PLACES, httpWordsInCode } from './http-words.ts';

/** A workspace package as the rules see it: its folder, name, declared dependencies and exports. */
export interface PackageInfo {
  /** Repository-relative folder, e.g. `packages/mcpwire`. */
  dir: string;
  name: string;
  /** Names from `dependencies`, `devDependencies` and `peerDependencies`. */
  dependencies: ReadonlySet<string>;
  /** The `exports` subpaths, e.g. `.`, `./server`. */
  exports: ReadonlySet<string>;
}

/** A tree to check: repository-relative paths (forward slashes) and their text. */
export interface Tree {
  files: ReadonlyMap<string, string>;
  packages: readonly PackageInfo[];
}

/** The library's package folder; its `src/` holds the layers. */
export const LIBRARY_DIR = 'packages/mcpwire';
const LIBRARY_SRC = `${LIBRARY_DIR}/src/`;

/** Which top-level folders (or exact files) of the library's src/ each layer may import. */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  jsonrpc: ['jsonrpc'],
  protocol: ['jsonrpc', 'protocol'],
  validation: ['jsonrpc', 'validation'],
  transports: ['jsonrpc', 'protocol', 'transports'],
  server: ['jsonrpc', 'protocol', 'validation', 'server', 'transports/channel.ts'],
  client: ['jsonrpc', 'protocol', 'validation', 'client', 'transports/channel.ts'],
  auth: ['protocol', 'auth'],
  // An extension folder holds both sides of one extension (a server part and a client part).
  extensions: [
    'jsonrpc',
    'protocol',
    'validation',
    'server',
    'client',
    'extensions',
    'transports/channel.ts',
  ],
  'index.ts': ['jsonrpc', 'protocol', 'transports', 'validation'],
};

/**
 * What a layer's tests may import beyond the layer's own table: the in-memory channel pair and the tap
 * (the test seams shipped in src/, STYLE.md), and each side's real peer: a client test talks to a Server,
 * a transport test carries messages between a Client and a Server (their public entries).
 */
export const TEST_EXTRA: Readonly<Record<string, readonly string[]>> = {
  protocol: ['transports/memory.ts'],
  server: ['transports/memory.ts', 'transports/tap.ts'],
  client: ['transports/memory.ts', 'transports/tap.ts', 'server'],
  transports: ['server/index.ts', 'client/index.ts'],
  extensions: ['transports/memory.ts'],
};

/** Where in the library `node:*` may be imported (tests may always). */
export const NODE_ALLOWED = [
  'transports/stdio/',
  'transports/http/node',
  'auth/file-token-store',
  'auth/file-lock',
  'auth/address-checked-fetch',
  'auth/node.ts',
  'extensions/skills/skills-directory.ts',
];

/** The pure layers: compiled without Node types, so a Node global there is a type error. */
export const PURE_LAYERS = ['jsonrpc', 'protocol'];

/** Declarations of the web-standard globals the pure layers may use (see the file). */
export const WEB_GLOBALS = `${LIBRARY_DIR}/types/web-globals.d.ts`;

const BANNED_NAMES = /(^|\/)(shared|common|utils|helpers)(\/|\.ts$)/;

/**
 * Data outside any package that a package may import: the official schemas (spec/README.md), which
 * `mcpwire lint` inlines into the CLI's bundle so an installed CLI reads no file of the repository.
 */
const BUNDLED_DATA: Readonly<Record<string, RegExp>> = {
  '@mcpwire/cli': /^spec\/\d{4}-\d{2}-\d{2}\/schema\.json$/,
};

/** One import as written: its specifier and the kind of statement that made it. */
export interface ImportRef {
  specifier: string;
  kind: 'import' | 'export' | 'side-effect' | 'dynamic' | 'type';
}

/** Every module reference in `text`: imports, re-exports, side-effect imports, `import()` and `import('x')` types. */
export function importsOf(path: string, text: string): ImportRef[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const refs: ImportRef[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      refs.push({ specifier: node.moduleSpecifier.text, kind: node.importClause ? 'import' : 'side-effect' });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      refs.push({ specifier: node.moduleSpecifier.text, kind: 'export' });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      refs.push({ specifier: node.moduleReference.expression.text, kind: 'import' });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      refs.push({ specifier: node.arguments[0].text, kind: 'dynamic' });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      refs.push({ specifier: node.argument.literal.text, kind: 'type' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

/** True for test files and test support: `*.test.ts`, and anything in a `test/`, `bench/` or `scripts/` folder. */
export function isTestFile(path: string): boolean {
  return path.endsWith('.test.ts') || /(^|\/)(test|bench|scripts)\//.test(path);
}

/** Test support any test may import: the repository's `test/support/`, and a package's own `test/support|fixtures/`. */
function isTestSupportFor(target: string, owner: PackageInfo | undefined): boolean {
  if (target.startsWith('test/support/')) return true;
  return owner !== undefined && /^test\/(support|fixtures)\//.test(target.slice(owner.dir.length + 1));
}

function packageOf(tree: Tree, path: string): PackageInfo | undefined {
  return tree.packages.find((info) => path.startsWith(`${info.dir}/`));
}

/** The library layer of a file in packages/mcpwire/src (`index.ts` for the root entry), else undefined. */
export function layerOf(path: string): string | undefined {
  if (!path.startsWith(LIBRARY_SRC)) return undefined;
  const rel = path.slice(LIBRARY_SRC.length);
  return rel.includes('/') ? rel.split('/')[0]! : rel;
}

function matchesRule(target: string, rule: string): boolean {
  return rule.endsWith('.ts') ? target === rule : target === rule || target.startsWith(`${rule}/`);
}

/** True if a file of `layer` (a test file when `isTest`) may import `target` (relative to the library's src/). */
export function isAllowed(layer: string, target: string, isTest = false): boolean {
  const rules = [...(ALLOWED[layer] ?? []), ...(isTest ? (TEST_EXTRA[layer] ?? []) : [])];
  return rules.some((rule) => matchesRule(target, rule));
}

/** Splits a bare specifier into its package name and its `exports` subpath (`mcpwire/server` -> `./server`). */
function splitBare(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const length = specifier.startsWith('@') ? 2 : 1;
  const rest = parts.slice(length).join('/');
  return { name: parts.slice(0, length).join('/'), subpath: rest ? `./${rest}` : '.' };
}

/**
 * Checks every file of `tree` against the rules; returns one line per violation, `<file>: <rule>: <what>`.
 * Rules: `layer` (the layering table), `node` (node:* outside its places), `package` (another package
 * reached other than through its exports, or one the package does not declare), `pure` (a pure layer that
 * does not compile without Node types), `name` (a banned file name), `cycle` (an import cycle),
 * `contract` (an HTTP word in the transport contract), `http` (SSE or an HTTP status code named by
 * library code outside the HTTP places; see ./http-words.ts) and `dispatch` (the handler table or the
 * middleware chain reached other than through the one serve path).
 */
export function checkTree(tree: Tree): string[] {
  const violations: string[] = [];
  const graph = new Map<string, string[]>();
  for (const [path, text] of tree.files) {
    if (!path.endsWith('.ts')) continue;
    const owner = packageOf(tree, path);
    const isTest = isTestFile(path);
    const layer = layerOf(path);
    if (layer !== undefined && !isTest && BANNED_NAMES.test(path.slice(LIBRARY_SRC.length)))
      violations.push(`${path}: name: no file or folder may be named shared, common, utils or helpers`);
    if (layer !== undefined && !isTest) violations.push(...checkHttpWords(path, text));
    if (layer !== undefined && !isTest) violations.push(...checkDispatchEntry(path, text));
    const edges: string[] = [];
    for (const { specifier, kind } of importsOf(path, text)) {
      const how = kind === 'import' ? 'imports' : `${kind} import of`;
      if (specifier.startsWith('node:')) {
        const rel = layer === undefined ? '' : path.slice(LIBRARY_SRC.length);
        if (layer !== undefined && !isTest && !NODE_ALLOWED.some((prefix) => rel.startsWith(prefix)))
          violations.push(
            `${path}: node: layer "${layer}" ${how} ${specifier} (allowed only in ${NODE_ALLOWED.join(', ')})`,
          );
        continue;
      }
      if (!specifier.startsWith('.')) {
        violations.push(...checkBare(tree, path, owner, specifier, how));
        continue;
      }
      const target = posix.normalize(posix.join(posix.dirname(path), specifier));
      edges.push(target);
      violations.push(...checkCommandFolders(path, target, how));
      const targetOwner = packageOf(tree, target);
      if (isTest && isTestSupportFor(target, owner)) continue;
      if (owner !== undefined && BUNDLED_DATA[owner.name]?.test(target) === true) continue;
      if (targetOwner !== owner) {
        const where = targetOwner ? `package ${targetOwner.name}` : 'outside any package';
        violations.push(
          `${path}: package: ${how} ${specifier}, a file of ${where}; import another package by a name in its exports`,
        );
        continue;
      }
      if (layer === undefined || !target.startsWith(LIBRARY_SRC)) continue;
      const targetRel = target.slice(LIBRARY_SRC.length);
      if (!isAllowed(layer, targetRel, isTest))
        violations.push(`${path}: layer: "${layer}"${isTest ? ' test' : ''} ${how} ${targetRel}`);
    }
    if (!isTest) graph.set(path, edges);
  }
  violations.push(...findCycles(graph), ...checkPureLayers(tree));
  return violations;
}

/** The CLI's command folders: `commands/<name>/` holds what only that command uses (docs/design.md, "The command line"). */
const CLI_COMMANDS = 'packages/cli/src/commands/';

/** The `command` rule: a file in one command's folder imports nothing from another command's folder. */
function checkCommandFolders(path: string, target: string, how: string): string[] {
  const commandOf = (file: string) =>
    file.startsWith(CLI_COMMANDS) ? file.slice(CLI_COMMANDS.length).split('/')[0] : undefined;
  const from = commandOf(path);
  const to = commandOf(target);
  if (from === undefined || to === undefined || from === to) return [];
  return [
    `${path}: command: command "${from}" ${how} ${target.slice(CLI_COMMANDS.length - 'commands/'.length)}; ` +
      'what two commands use goes to a topic folder outside commands/',
  ];
}

/** The `contract` and `http` rules for one library source file. */
function checkHttpWords(path: string, text: string): string[] {
  const rel = path.slice(LIBRARY_SRC.length);
  const found: string[] = [];
  if (rel === CONTRACT)
    for (const word of contractWords(text))
      found.push(`${path}: contract: the transport contract names HTTP (${word})`);
  if (!HTTP_PLACES.some((place) => rel.startsWith(place)))
    for (const hit of httpWordsInCode(path, text))
      found.push(`${path}: http: ${hit}; SSE and HTTP status codes belong in ${HTTP_PLACES.join(' or ')}`);
  return found;
}

/**
 * Which library files may call each step of a request's way to its handler (issue 23: one serve path).
 * `serve()` (server/serve.ts, with stateless.ts, its stateless branch that runs MRTR rounds) is the only
 * caller of the server's `dispatch`; only `dispatch` (server-core.ts) runs the middleware chain.
 */
export const DISPATCH_CALLERS: Readonly<Record<string, readonly string[]>> = {
  dispatch: ['server/serve.ts', 'server/stateless.ts'],
  runMiddleware: ['server/server-core.ts'],
};

/** Calls of `dispatch(...)` / `x.dispatch(...)` and `runMiddleware(...)` outside their allowed files. */
function checkDispatchEntry(path: string, text: string): string[] {
  const rel = path.slice(LIBRARY_SRC.length);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const stack: ts.Node[] = [source];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : undefined;
      const allowed =
        name !== undefined && Object.hasOwn(DISPATCH_CALLERS, name) ? DISPATCH_CALLERS[name] : undefined;
      if (allowed !== undefined && !allowed.includes(rel)) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push(
          `${path}: dispatch: line ${line + 1} calls ${name}(), which only ${allowed.join(', ')} may call (every request goes through serve() of server/serve.ts)`,
        );
      }
    }
    stack.push(...node.getChildren(source));
  }
  return found;
}

function checkBare(
  tree: Tree,
  path: string,
  owner: PackageInfo | undefined,
  specifier: string,
  how: string,
): string[] {
  const { name, subpath } = splitBare(specifier);
  const target = tree.packages.find((info) => info.name === name);
  if (target === undefined) return []; // a third-party package: justified in docs/design.md
  if (owner !== undefined && target !== owner && !owner.dependencies.has(name))
    return [`${path}: package: ${how} ${specifier}, but ${owner.name} does not declare ${name}`];
  if (!target.exports.has(subpath))
    return [
      `${path}: package: ${how} ${specifier}, which is not in ${name}'s exports (${[...target.exports].join(', ')})`,
    ];
  return [];
}

function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const state = new Map<string, 'visiting' | 'done'>();
  const cycles: string[] = [];
  const visit = (node: string, stack: string[]): void => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'visiting') {
      cycles.push(`${node}: cycle: ${[...stack.slice(stack.indexOf(node)), node].join(' -> ')}`);
      return;
    }
    state.set(node, 'visiting');
    for (const next of graph.get(node) ?? []) if (graph.has(next)) visit(next, [...stack, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  return cycles;
}

/**
 * Type-checks the pure layers' non-test files with only the ES library and the web globals: a Node global
 * (`process`, `Buffer`, ...) there has no declaration and is reported with the compiler's message.
 */
function checkPureLayers(tree: Tree): string[] {
  const roots = [...tree.files.keys()].filter(
    (path) => PURE_LAYERS.includes(layerOf(path) ?? '') && path.endsWith('.ts') && !isTestFile(path),
  );
  if (roots.length === 0) return [];
  const base = '/mcpwire-tree/';
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: [],
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
  };
  const host = ts.createCompilerHost(options);
  const toTree = (fileName: string): string | undefined =>
    fileName.startsWith(base) ? fileName.slice(base.length) : undefined;
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (fileName) => {
    const rel = toTree(fileName);
    return rel === undefined ? ts.sys.fileExists(fileName) : tree.files.has(rel) || rel === WEB_GLOBALS;
  };
  host.readFile = (fileName) => {
    const rel = toTree(fileName);
    if (rel === undefined) return readFile(fileName);
    return tree.files.get(rel) ?? (rel === WEB_GLOBALS ? ts.sys.readFile(webGlobalsOnDisk()) : undefined);
  };
  host.getSourceFile = (fileName, languageVersion) => {
    const text = toTree(fileName) === undefined ? undefined : host.readFile(fileName);
    if (text === undefined) return getSourceFile(fileName, languageVersion);
    return ts.createSourceFile(fileName, text, languageVersion, true);
  };
  host.getCurrentDirectory = () => base;
  host.directoryExists = (dir) => (dir.startsWith(base) ? true : ts.sys.directoryExists(dir));
  const program = ts.createProgram(
    [...roots, WEB_GLOBALS].map((path) => base + path),
    options,
    host,
  );
  return (
    ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file && toTree(diagnostic.file.fileName) !== undefined)
      // A module that does not resolve is the import rules' business; this rule is about globals.
      .filter((diagnostic) => !/^['"]/.test(diagnostic.file!.text.slice(diagnostic.start ?? 0)))
      .map((diagnostic) => {
        const file = toTree(diagnostic.file!.fileName)!;
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
        return `${file}:${line + 1}: pure: ${message} (jsonrpc/ and protocol/ see only ES and web-standard globals)`;
      })
  );
}

function webGlobalsOnDisk(): string {
  return join(import.meta.dirname, '../..', WEB_GLOBALS);
}

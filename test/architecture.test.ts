// The layering table and package rules of STYLE.md, enforced over the repository's files (sources and
// tests of every package, the repository's tests, bench and scripts), and shown to fail, rule by rule,
// on small in-memory trees that break them.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { checkTree, LIBRARY_DIR, type PackageInfo, type Tree } from './architecture/rules.ts';

const ROOT = join(import.meta.dirname, '..');
const SKIPPED = new Set(['node_modules', 'dist', 'dist-typecheck', '.git', 'spec']);

function listFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIPPED.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) listFiles(path, out);
    else if (name.endsWith('.ts')) out.push(relative(ROOT, path).split('\\').join('/'));
  }
  return out;
}

function readPackages(): PackageInfo[] {
  return readdirSync(join(ROOT, 'packages')).map((folder) => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'packages', folder, 'package.json'), 'utf8')) as {
      name: string;
      exports?: Record<string, unknown>;
      dependencies?: Record<string, string>;
      devDependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
    };
    const dependencies = new Set(
      [manifest.dependencies, manifest.devDependencies, manifest.peerDependencies].flatMap((deps) =>
        Object.keys(deps ?? {}),
      ),
    );
    return {
      dir: `packages/${folder}`,
      name: manifest.name,
      dependencies,
      exports: new Set(Object.keys(manifest.exports ?? {})),
    };
  });
}

const PACKAGES = readPackages();

function repositoryTree(): Tree {
  const paths = [
    ...listFiles(join(ROOT, 'packages')),
    ...['test', 'bench', 'scripts'].flatMap((top) => listFiles(join(ROOT, top))),
  ];
  return {
    files: new Map(paths.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')])),
    packages: PACKAGES,
  };
}

/** A tree of the given files (beside the real packages' manifests) for proving a rule can fail. */
function treeOf(files: Record<string, string>): Tree {
  return { files: new Map(Object.entries(files)), packages: PACKAGES };
}

const SRC = `${LIBRARY_DIR}/src`;

test('the repository follows every rule (layers, node:*, packages, pure layers, names, cycles, one serve path)', () => {
  assert.deepEqual(checkTree(repositoryTree()), []);
});

test('the packages the rules know are the workspaces', () => {
  assert.deepEqual(PACKAGES.map((info) => info.name).sort(), [
    '@mcpwire/auth-server',
    '@mcpwire/cli',
    '@mcpwire/redis',
    '@mcpwire/server-everything',
    '@mcpwire/server-github',
    'mcpwire',
  ]);
});

/** Asserts that checking `files` reports exactly one violation, which names `file` and `rule`. */
function assertViolation(files: Record<string, string>, file: string, rule: string, detail: RegExp): void {
  const found = checkTree(treeOf(files));
  assert.equal(found.length, 1, `expected one violation, got:\n${found.join('\n')}`);
  assert.ok(found[0]!.startsWith(`${file}:`), `names the file: ${found[0]}`);
  assert.ok(found[0]!.includes(` ${rule}: `), `names the rule "${rule}": ${found[0]}`);
  assert.match(found[0]!, detail);
}

test('fails: a side-effect import of server/ from protocol/', () => {
  assertViolation(
    {
      [`${SRC}/protocol/x.ts`]: "import '../server/server.ts';\n",
      [`${SRC}/server/server.ts`]: 'export {};\n',
    },
    `${SRC}/protocol/x.ts`,
    'layer',
    /"protocol" side-effect import of server\/server\.ts/,
  );
});

test('fails: a re-export and a dynamic import across layers', () => {
  assertViolation(
    {
      [`${SRC}/jsonrpc/x.ts`]: "export { Server } from '../server/server.ts';\n",
      [`${SRC}/server/server.ts`]: 'export class Server {}\n',
    },
    `${SRC}/jsonrpc/x.ts`,
    'layer',
    /export import of server\/server\.ts/,
  );
  assertViolation(
    { [`${SRC}/server/x.ts`]: "export const load = () => import('../client/client.ts');\n" },
    `${SRC}/server/x.ts`,
    'layer',
    /dynamic import of client\/client\.ts/,
  );
});

test('fails: a Node global in jsonrpc/', () => {
  assertViolation(
    { [`${SRC}/jsonrpc/x.ts`]: 'export const debug = process.env.DEBUG;\n' },
    `${SRC}/jsonrpc/x.ts`,
    'pure',
    /process/,
  );
  assertViolation(
    { [`${SRC}/protocol/x.ts`]: "export const bytes = (s: string) => Buffer.from(s, 'utf8');\n" },
    `${SRC}/protocol/x.ts`,
    'pure',
    /Buffer/,
  );
});

test('passes: web-standard globals in the pure layers', () => {
  const files = {
    [`${SRC}/protocol/x.ts`]:
      'export function wait(signal: AbortSignal): void { const t = setTimeout(() => {}, 1); clearTimeout(t); void signal.aborted; }\n',
  };
  assert.deepEqual(checkTree(treeOf(files)), []);
});

test('fails: node:* in protocol/', () => {
  assertViolation(
    { [`${SRC}/protocol/x.ts`]: "import type { Readable } from 'node:stream';\nexport type R = Readable;\n" },
    `${SRC}/protocol/x.ts`,
    'node',
    /node:stream/,
  );
});

test('fails: a test file under transports/ importing the CLI', () => {
  assertViolation(
    { [`${SRC}/transports/x.test.ts`]: "import '../../../cli/src/main.ts';\n" },
    `${SRC}/transports/x.test.ts`,
    'package',
    /a file of package @mcpwire\/cli/,
  );
  assertViolation(
    { [`${SRC}/transports/x.test.ts`]: "import { run } from '@mcpwire/cli';\nvoid run;\n" },
    `${SRC}/transports/x.test.ts`,
    'package',
    /mcpwire does not declare @mcpwire\/cli/,
  );
});

test('fails: a test importing an upper layer it has no peer rule for', () => {
  assertViolation(
    { [`${SRC}/protocol/x.test.ts`]: "import { Server } from '../server/server.ts';\nvoid Server;\n" },
    `${SRC}/protocol/x.test.ts`,
    'layer',
    /"protocol" test imports server\/server\.ts/,
  );
});

test('fails: the CLI importing a library file that is not an export', () => {
  assertViolation(
    { 'packages/cli/src/x.ts': "import { Peer } from '../../mcpwire/src/jsonrpc/peer.ts';\nvoid Peer;\n" },
    'packages/cli/src/x.ts',
    'package',
    /a file of package mcpwire/,
  );
  assertViolation(
    { 'packages/cli/src/x.ts': "import { Peer } from 'mcpwire/dist/jsonrpc/peer.js';\nvoid Peer;\n" },
    'packages/cli/src/x.ts',
    'package',
    /not in mcpwire's exports/,
  );
});

test("fails: one CLI command's folder importing another's (issue 23: shared code goes to a topic folder)", () => {
  assertViolation(
    {
      'packages/cli/src/commands/tap/x.ts':
        "import { runCheck } from '../check/run-check.ts';\nvoid runCheck;\n",
      'packages/cli/src/commands/check/run-check.ts': 'export const runCheck = 1;\n',
    },
    'packages/cli/src/commands/tap/x.ts',
    'command',
    /command "tap" imports commands\/check\/run-check\.ts/,
  );
});

test('fails: a repository test reaching into a package', () => {
  assertViolation(
    {
      'test/x.test.ts':
        "import { METHODS } from '../packages/mcpwire/src/protocol/methods.ts';\nvoid METHODS;\n",
    },
    'test/x.test.ts',
    'package',
    /a file of package mcpwire/,
  );
});

test('fails: a banned name and an import cycle', () => {
  assertViolation(
    { [`${SRC}/server/utils.ts`]: 'export {};\n' },
    `${SRC}/server/utils.ts`,
    'name',
    /shared, common/,
  );
  const cycle = checkTree(
    treeOf({
      [`${SRC}/server/a.ts`]: "import './b.ts';\n",
      [`${SRC}/server/b.ts`]: "import './a.ts';\n",
    }),
  );
  assert.deepEqual(cycle, [
    `${SRC}/server/a.ts: cycle: ${SRC}/server/a.ts -> ${SRC}/server/b.ts -> ${SRC}/server/a.ts`,
  ]);
});

test('fails: the library importing the development authorization server, or it reaching into the library', () => {
  assertViolation(
    {
      [`${SRC}/auth/x.ts`]:
        "import { createAuthorizationServer } from '@mcpwire/auth-server';\nvoid createAuthorizationServer;\n",
    },
    `${SRC}/auth/x.ts`,
    'package',
    /mcpwire does not declare @mcpwire\/auth-server/,
  );
  assertViolation(
    {
      'packages/auth-server/src/x.ts':
        "import { OAuthError } from '../../mcpwire/src/auth/errors.ts';\nvoid OAuthError;\n",
    },
    'packages/auth-server/src/x.ts',
    'package',
    /a file of package mcpwire/,
  );
});

test('fails: an HTTP word in the transport contract, camelCase or in a comment (issue 23)', () => {
  const contract = `${SRC}/transports/channel.ts`;
  assertViolation(
    { [contract]: 'export interface Channel {\n  closeStream?(id: number): boolean;\n}\n' },
    contract,
    'contract',
    /line 2: "Stream"/,
  );
  assertViolation(
    { [contract]: '/** Facts, e.g. a session id over HTTP. */\nexport interface ChannelInfo {}\n' },
    contract,
    'contract',
    /line 1: "HTTP"/,
  );
  assertViolation(
    { [contract]: '// The Mcp-Session-Id of a session\nexport {};\n' },
    contract,
    'contract',
    /line 1: "Mcp-S"/,
  );
  // JSON-RPC's own words are the contract's: requests, responses, messages, a session.
  assert.deepEqual(
    checkTree(
      treeOf({ [contract]: '/** Sends a request; resolves with its response (a session). */\nexport {};\n' }),
    ),
    [],
  );
});

test('fails: SSE or an HTTP status code in library code outside transports/http/ and auth/ (issue 23)', () => {
  assertViolation(
    { [`${SRC}/server/x.ts`]: 'export const ctx = { closeSseStream: () => false };\n' },
    `${SRC}/server/x.ts`,
    'http',
    /names SSE \("closeSseStream"\)/,
  );
  assertViolation(
    { [`${SRC}/client/x.ts`]: "export const accept = 'application/json, text/event-stream';\n" },
    `${SRC}/client/x.ts`,
    'http',
    /names SSE in/,
  );
  assertViolation(
    {
      [`${SRC}/client/x.ts`]:
        'export const isEra = (error: { status: number }): boolean => [400].includes(error.status);\n',
    },
    `${SRC}/client/x.ts`,
    'http',
    /line 1: HTTP status 400/,
  );
  assertViolation(
    {
      [`${SRC}/server/x.ts`]:
        'export const isGone = (response: { status: number }) => response.status === 404;\n',
    },
    `${SRC}/server/x.ts`,
    'http',
    /HTTP status 404/,
  );
  assertViolation(
    { [`${SRC}/protocol/x.ts`]: 'export const reply = { status: 503 as const };\n' },
    `${SRC}/protocol/x.ts`,
    'http',
    /HTTP status 503/,
  );
  assertViolation(
    { [`${SRC}/client/x.ts`]: 'export const detail = (s: string) => `HTTP 405 ${s}`;\n' },
    `${SRC}/client/x.ts`,
    'http',
    /an HTTP status in "HTTP 405 "/,
  );
});

test('passes: unrelated numbers, comments citing HTTP, and HTTP code in its places (issue 23)', () => {
  const found = checkTree(
    treeOf({
      // Comments may say what a transport does; numbers that are not statuses are numbers.
      [`${SRC}/validation/x.ts`]:
        '// the spec answers these with HTTP 400 over SSE\nexport const size = (cacheSize?: number) => cacheSize ?? 500;\nexport const limits = { maxResources: 512, code: -32602 };\n',
      [`${SRC}/transports/http/x.ts`]:
        "export const sse = (status: number) => status === 404 ? 'text/event-stream' : 'HTTP 405';\n",
      [`${SRC}/auth/x.ts`]:
        'export const refused = (response: { status: number }) => response.status === 401;\n',
    }),
  );
  assert.deepEqual(found, []);
});

test('fails: a request dispatched to the handler table or the middleware chain outside the serve path', () => {
  assertViolation(
    {
      [`${SRC}/server/server-session.ts`]:
        'export function handle(server: { dispatch(m: string): Promise<object> }): Promise<object> {\n  return server.dispatch("ping");\n}\n',
    },
    `${SRC}/server/server-session.ts`,
    'dispatch',
    /line 2 calls dispatch\(\), which only server\/serve\.ts, server\/stateless\.ts may call/,
  );
  assertViolation(
    {
      [`${SRC}/transports/http/x.ts`]:
        'declare function runMiddleware(): void;\nexport function run(): void {\n  runMiddleware();\n}\n',
    },
    `${SRC}/transports/http/x.ts`,
    'dispatch',
    /line 3 calls runMiddleware\(\), which only server\/server-core\.ts may call/,
  );
});

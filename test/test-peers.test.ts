// Issue 22, item 13: the root install holds what the demo and the command need; the runtimes only tests
// and benchmarks run (Bun, Deno, workerd through miniflare, node-pty, @wong2/mcp-cli, and the official
// filesystem server that check's run against real servers uses) live in test/peers,
// an install folder with its own package.json and lockfile, and code loads them through
// test/support/peers.ts, which resolves from that folder.

import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { loadPeer, peerBin } from './support/peers.ts';

const ROOT = join(import.meta.dirname, '..');
/** The packages only tests and benchmarks need, and the native runtime miniflare brings. */
const TEST_ONLY = [
  '@modelcontextprotocol/server-filesystem',
  '@wong2/mcp-cli',
  'bun',
  'deno',
  'miniflare',
  'node-pty',
];
const BROUGHT = ['workerd'];

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}

interface Lockfile {
  packages: Record<string, Manifest & { version?: string }>;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as T;
}

test('the root package.json and lockfile hold none of the test-only peers', () => {
  const manifest = readJson<Manifest>('package.json');
  const lock = readJson<Lockfile>('package-lock.json');
  for (const name of [...TEST_ONLY, ...BROUGHT]) {
    assert.equal(manifest.devDependencies?.[name], undefined, `root devDependency ${name}`);
    assert.equal(manifest.allowScripts?.[name], undefined, `root allowScripts ${name}`);
    assert.equal(lock.packages[`node_modules/${name}`], undefined, `root lockfile installs ${name}`);
  }
});

test('test/peers declares each of them, and its lockfile installs what its package.json says', () => {
  const manifest = readJson<Manifest>('test/peers/package.json');
  const lock = readJson<Lockfile>('test/peers/package-lock.json');
  assert.deepEqual(Object.keys(manifest.dependencies ?? {}).sort(), TEST_ONLY);
  assert.deepEqual(
    lock.packages['']?.dependencies,
    manifest.dependencies,
    'lockfile in step with package.json',
  );
  for (const name of [...TEST_ONLY, ...BROUGHT])
    assert.ok(lock.packages[`node_modules/${name}`]?.version, `test/peers lockfile installs ${name}`);
  // Their install scripts fetch or check the native binaries.
  assert.deepEqual(Object.keys(manifest.allowScripts ?? {}).sort(), ['bun', 'deno', 'node-pty', 'workerd']);
});

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (/\.(ts|mts|mjs|js)$/.test(name)) out.push(relative(ROOT, path));
  }
  return out;
}

const PEER = String.raw`(?:@wong2/mcp-cli|bun|deno|miniflare|node-pty)(?:/[^'"]*)?`;
/** A value import, re-export, dynamic import or require of a peer by bare name, or a path into the root install. */
const ROOT_RESOLVED = [
  new RegExp(String.raw`^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+['"]${PEER}['"]`, 'm'),
  new RegExp(String.raw`\b(?:import|require)\(\s*['"]${PEER}['"]\s*\)`),
  /node_modules\/(?:\.bin\/(?:bun|deno)\b|@wong2\/|miniflare\b|node-pty\b|workerd\b)/,
];
/** The one module that resolves from test/peers, and this test (its patterns name the peers). */
const ALLOWED = new Set([join('test', 'support', 'peers.ts'), join('test', 'test-peers.test.ts')]);

test('tests and benchmarks load the peers only through test/support/peers.ts (type imports aside)', () => {
  const files = [
    ...sourceFiles(join(ROOT, 'packages')),
    ...['test', 'bench', 'scripts'].flatMap((top) => sourceFiles(join(ROOT, top))),
  ].filter((path) => !ALLOWED.has(path));
  assert.ok(files.length > 100, `found ${files.length} files`);
  const offenders = files.filter((path) => {
    const text = readFileSync(join(ROOT, path), 'utf8');
    return ROOT_RESOLVED.some((pattern) => pattern.test(text));
  });
  assert.deepEqual(offenders, []);
});

test('loadPeer gives the packages themselves under the test runner (tsx applies tsconfig paths to bare names)', () => {
  assert.equal(typeof loadPeer('node-pty').spawn, 'function');
  assert.equal(typeof loadPeer('miniflare').Miniflare, 'function');
  assert.ok(existsSync(peerBin('bun')) && existsSync(peerBin('deno')));
});

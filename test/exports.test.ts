// Every published package as a user gets it: `npm pack` each workspace (its exports targets, its bin,
// a LICENSE and a README packed, no tests, no sources), install the tarballs into an empty folder,
// import every entry point by its public name, and run the bin; the CLI also alone, which proves its
// bundle needs nothing but its own `dependencies`.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from './support/free-port.ts';

const ROOT = join(import.meta.dirname, '..');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
}

interface Packed {
  folder: string;
  manifest: Manifest;
  tarball: string;
  files: Set<string>;
}

const FOLDERS = ['mcpwire', 'auth-server', 'server-everything', 'server-github', 'redis', 'cli'];
/** npm without the test runner's preloads (tsx, the wire check, the source condition). */
const ENV = { ...process.env, NODE_OPTIONS: '' };
const work = mkdtempSync(join(tmpdir(), 'mcpwire-pack-'));
const packed = new Map<string, Packed>();

function npm(args: readonly string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', env: ENV, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The files an entry maps to for users: every condition but the repository's own source one. */
function publishedTargets(manifest: Manifest): string[] {
  const targets = Object.values(manifest.exports ?? {}).flatMap((target) =>
    typeof target === 'string'
      ? [target]
      : Object.entries(target)
          .filter(([condition]) => condition !== '@mcpwire/source')
          .map(([, file]) => file),
  );
  return [...targets, ...Object.values(manifest.bin ?? {})].map((file) => file.replace(/^\.\//, ''));
}

/**
 * Installs `dependencies` into `folder` without install scripts, then gives better-sqlite3 (a
 * dependency of the github server and the CLI) the native binding the repository's install built
 * for this Node: building it again takes a minute per folder and proves nothing about our packages.
 */
function install(folder: string, dependencies: Record<string, string>): void {
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'user', private: true, dependencies }));
  npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], folder);
  const sqlite = join(folder, 'node_modules', 'better-sqlite3');
  if (existsSync(sqlite))
    cpSync(join(ROOT, 'node_modules', 'better-sqlite3', 'build'), join(sqlite, 'build'), { recursive: true });
}

const users = { all: join(work, 'all'), cliOnly: join(work, 'cli-only') };

before(() => {
  for (const folder of FOLDERS) {
    const dir = join(ROOT, 'packages', folder);
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const [result] = JSON.parse(
      npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], dir),
    ) as [{ filename: string; files: Array<{ path: string }> }];
    packed.set(folder, {
      folder,
      manifest,
      tarball: join(work, result.filename),
      files: new Set(result.files.map((file) => file.path)),
    });
  }
  execFileSync('mkdir', ['-p', users.all, users.cliOnly]);
  install(
    users.all,
    Object.fromEntries([...packed.values()].map((p) => [p.manifest.name, `file:${p.tarball}`])),
  );
  const cli = packed.get('cli')!;
  // The CLI and the workspace packages it depends on at run time: the development authorization
  // server, and the library that server uses for its address checks (the CLI bundles its own copy).
  const authServer = packed.get('auth-server')!;
  const library = packed.get('mcpwire')!;
  install(users.cliOnly, {
    [cli.manifest.name]: `file:${cli.tarball}`,
    [authServer.manifest.name]: `file:${authServer.tarball}`,
    [library.manifest.name]: `file:${library.tarball}`,
  });
});

after(() => rmSync(work, { recursive: true, force: true }));

for (const folder of FOLDERS) {
  test(`packages/${folder}: the tarball holds its exports, bin, LICENSE and README, and no tests or sources`, () => {
    const { manifest, files } = packed.get(folder)!;
    assert.notEqual(manifest.private, true, `${manifest.name} is published`);
    for (const target of publishedTargets(manifest)) assert.ok(files.has(target), `${target} is not packed`);
    for (const required of ['LICENSE', 'README.md', 'package.json'])
      assert.ok(files.has(required), `${manifest.name} packs no ${required}`);
    const stray = [...files].filter(
      (file) => file.includes('.test.') || file.startsWith('src/') || file.endsWith('.map'),
    );
    assert.deepEqual(stray, []);
  });
}

/** Imports `specifier` in a fresh node inside `folder` (no preloads) and prints the type of `exported`. */
function typeOfExport(folder: string, specifier: string, exported: string): string {
  const script = `const m = await import(${JSON.stringify(specifier)}); process.stdout.write(typeof m[${JSON.stringify(exported)}]);`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: folder,
    encoding: 'utf8',
    env: ENV,
  });
}

test('every entry point of the library and the servers imports by its public name', () => {
  const expected: Array<[string, string]> = [
    ['mcpwire', 'createMemoryPair'],
    ['mcpwire/server', 'Server'],
    ['mcpwire/client', 'Client'],
    ['mcpwire/stdio', 'serveStdio'],
    ['mcpwire/http', 'createHttpHandler'],
    ['mcpwire/node', 'serveHttp'],
    ['mcpwire/auth', 'createOAuthFetch'],
    ['mcpwire/auth/node', 'createFileTokenStore'],
    ['mcpwire/validators/ajv', 'createAjvValidator'],
    ['mcpwire/validators/cfworker', 'createCfWorkerValidator'],
    ['mcpwire/extensions/skills', 'skills'],
    ['mcpwire/extensions/tasks', 'tasks'],
    ['mcpwire/extensions/apps', 'apps'],
    ['@mcpwire/auth-server', 'createAuthorizationServer'],
    ['@mcpwire/server-everything', 'createEverythingServer'],
    ['@mcpwire/server-github', 'createGithubServer'],
    ['@mcpwire/redis', 'createRedisStores'],
  ];
  const declared = [...packed.values()].flatMap(({ manifest }) =>
    Object.keys(manifest.exports ?? {})
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => manifest.name + subpath.slice(1)),
  );
  assert.deepEqual(expected.map(([specifier]) => specifier).sort(), declared.sort(), 'every export is tried');
  for (const [specifier, exported] of expected)
    assert.equal(
      typeOfExport(users.all, specifier, exported),
      'function',
      `${specifier} exports ${exported}`,
    );
});

/** Runs the installed `mcpwire` bin of `folder` with `args` and `input` on stdin. */
function runBin(folder: string, args: readonly string[], input = ''): string {
  return execFileSync(join(folder, 'node_modules', '.bin', 'mcpwire'), args, {
    encoding: 'utf8',
    env: ENV,
    input,
  });
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'smoke', version: '1' } },
})}\n`;

for (const user of ['all', 'cliOnly'] as const) {
  test(`the installed bin (${user === 'all' ? 'beside every package' : 'the CLI alone'}) prints its version and serves`, () => {
    assert.equal(runBin(users[user], ['--version']).trim(), packed.get('cli')!.manifest.version);
    for (const name of ['everything', 'github']) {
      const [line] = runBin(users[user], ['serve', name], INITIALIZE).split('\n');
      const response = JSON.parse(line!) as { id: number; result: { serverInfo: { name: string } } };
      assert.equal(response.id, 1);
      assert.equal(response.result.serverInfo.name, `mcpwire-${name}`);
    }
  });
}

test('serve --redis: the CLI alone says to install its optional peer @mcpwire/redis (exit 2); beside it, it loads it and its client (a Redis that refuses: exit 3)', async () => {
  const url = `redis://127.0.0.1:${await freePort()}`;
  const serve = (folder: string) =>
    spawnSync(
      join(folder, 'node_modules', '.bin', 'mcpwire'),
      ['serve', 'everything', '--http', '0', '--redis', url],
      { encoding: 'utf8', env: ENV, timeout: 60_000 },
    );
  const alone = serve(users.cliOnly);
  assert.equal(alone.status, 2, alone.stderr);
  assert.match(alone.stderr, /--redis needs the @mcpwire\/redis package installed beside mcpwire/);
  const beside = serve(users.all);
  assert.equal(beside.status, 3, beside.stderr);
  assert.match(
    beside.stderr,
    /^mcpwire: cannot connect to Redis at redis:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
  );
});

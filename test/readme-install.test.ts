// The README's "Install" section run as a new user runs it, from empty folders (issue 22, item 1):
// `npm link` puts the command on a PATH, `npm run pack` makes the tarballs, the library tarball installed
// into an empty project runs the Quick start's server and client exactly as printed, and every host
// config that names `/path/to/mcpwire` works with that path replaced by this clone.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'mcpwire-readme-install-'));
const home = join(work, 'home');
const prefix = join(work, 'global');
/** npm's own cache stays the user's: a fresh one would fetch every package again. */
const cache = execFileSync('npm', ['config', 'get', 'cache'], {
  encoding: 'utf8',
  env: { ...process.env, NODE_OPTIONS: '' },
}).trim();
/** What a user's shell has: no test-runner preloads, a HOME and data folder of its own, a global npm prefix. */
const ENV = {
  ...process.env,
  NODE_OPTIONS: '',
  HOME: home,
  XDG_DATA_HOME: join(home, '.local', 'share'),
  XDG_CONFIG_HOME: join(home, '.config'),
  NPM_CONFIG_PREFIX: prefix,
  npm_config_prefix: prefix,
  npm_config_cache: cache,
};

/** The body of the README section titled `title` (up to the next heading of the same level). */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README.md has a "## ${title}" section`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end === -1 ? undefined : end);
}

/** The fenced blocks of `lang` in `text`, in order. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]!);
}

/** The commands of the Install section's shell block, comments dropped. */
function installCommands(): string[][] {
  const [block] = blocks(section('Install'), 'sh');
  assert.ok(block, 'the Install section shows its commands');
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '')
    .map((line) => line.split(/\s+/));
}

function run(command: string, args: readonly string[], cwd: string, input = ''): string {
  return execFileSync(command, args, { cwd, env: ENV, encoding: 'utf8', input, stdio: 'pipe' });
}

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'readme', version: '1' } },
})}\n`;

const packed = join(work, 'packed');

before(() => {
  mkdirSync(home, { recursive: true });
  // Each README command as written, from the clone, with the user's global prefix in a temporary
  // folder; `npm run pack` told where to write so the clone keeps no tarballs.
  for (const [command, ...args] of installCommands()) {
    const extra = command === 'npm' && args.join(' ') === 'run pack' ? ['--', '--out', packed] : [];
    run(command!, [...args, ...extra], ROOT);
  }
});

after(() => rmSync(work, { recursive: true, force: true }));

test('README Install: `npm link` puts a working `mcpwire` on the PATH', () => {
  const empty = mkdtempSync(join(work, 'empty-'));
  const bin = join(prefix, 'bin', 'mcpwire');
  const version = JSON.parse(readFileSync(join(ROOT, 'packages', 'cli', 'package.json'), 'utf8')) as {
    version: string;
  };
  assert.equal(run(bin, ['--version'], empty).trim(), version.version);
  const [line] = run(bin, ['serve', 'github', '--db', ':memory:'], empty, INITIALIZE).split('\n');
  const answer = JSON.parse(line!) as { id: number; result: { serverInfo: { name: string } } };
  assert.equal(answer.result.serverInfo.name, 'mcpwire-github');
});

test('README Install: `npm run pack` writes every package, and the library tarball runs the Quick start', () => {
  const tarballs = readdirSync(packed).sort();
  assert.deepEqual(tarballs, [
    'mcpwire-0.1.0.tgz',
    'mcpwire-auth-server-0.1.0.tgz',
    'mcpwire-cli-0.1.0.tgz',
    'mcpwire-redis-0.1.0.tgz',
    'mcpwire-server-everything-0.1.0.tgz',
    'mcpwire-server-github-0.1.0.tgz',
  ]);
  assert.match(section('Install'), /npm install \/path\/to\/mcpwire\/packed\/mcpwire-0\.1\.0\.tgz/);
  const project = mkdtempSync(join(work, 'project-'));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'mine', private: true, type: 'module' }),
  );
  run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(packed, 'mcpwire-0.1.0.tgz')],
    project,
  );
  // The Quick start's server and client as printed (they are plain JavaScript), the client's results
  // printed at its end.
  const [server, client] = blocks(section('Quick start'), 'ts');
  assert.ok(server?.includes("from 'mcpwire/server'") && client?.includes("args: ['server.js']"));
  writeFileSync(join(project, 'server.js'), server!);
  writeFileSync(
    join(project, 'client.js'),
    `${client}console.log(JSON.stringify({ tools: tools.map((tool) => tool.name), result }));\n`,
  );
  const printed = JSON.parse(run(process.execPath, ['client.js'], project)) as {
    tools: string[];
    result: { content: Array<{ type: string; text: string }> };
  };
  assert.deepEqual(printed.tools, ['create_issue']);
  assert.deepEqual(printed.result.content, [{ type: 'text', text: 'Created "Bug"' }]);
});

test('README host configs: each one naming /path/to/mcpwire starts the server as written', () => {
  const configs = blocks(README, 'json').filter((text) => text.includes('/path/to/mcpwire'));
  assert.ok(configs.length >= 3, 'the tap config, the Claude Desktop/Cursor one and the VS Code one');
  const empty = mkdtempSync(join(work, 'host-'));
  for (const [index, text] of configs.entries()) {
    const config = JSON.parse(text.replaceAll('/tmp/', `${empty}/`).replaceAll('/path/to/mcpwire', ROOT)) as {
      mcpServers?: Record<string, unknown>;
      servers?: Record<string, unknown>;
    };
    const file = join(empty, `config-${index}.json`);
    writeFileSync(file, JSON.stringify(config));
    const name = Object.keys(config.mcpServers ?? config.servers ?? {})[0]!;
    const out = run(join(prefix, 'bin', 'mcpwire'), ['list', name, 'tools', '--config', file], empty);
    assert.match(out, /^create_issue /m, `config ${index + 1} (${name})`);
  }
});

test('README Install: the command installs globally from its tarballs, with what it loads', () => {
  const line = section('Install')
    .split('`')
    .find((text) => text.startsWith('npm install -g '));
  assert.ok(line, 'the Install section shows the global install');
  const global = join(work, 'global-tarballs');
  // As written, but the native SQLite module's build copied from this clone's install instead of
  // compiled again (minutes, and it proves nothing about our packages).
  const args = line
    .split(' ')
    .slice(1)
    .map((word) => (word.endsWith('.tgz') ? join(packed, word) : word));
  const empty = mkdtempSync(join(work, 'global-user-'));
  run(
    'npm',
    [...args, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--prefix', global],
    empty,
  );
  const cli = join(global, 'lib', 'node_modules', '@mcpwire', 'cli');
  const sqlite = join(cli, 'node_modules', 'better-sqlite3');
  cpSync(join(ROOT, 'node_modules', 'better-sqlite3', 'build'), join(sqlite, 'build'), { recursive: true });
  const bin = join(global, 'bin', 'mcpwire');
  const out = run(bin, ['list', 'tools', '--', bin, 'serve', 'github', '--db', ':memory:'], empty);
  assert.match(out, /^create_issue /m);
  // The development authorization server, which the CLI loads from beside itself, finds the library.
  const script =
    "const m = await import('@mcpwire/auth-server'); process.stdout.write(typeof m.createAuthorizationServer);";
  assert.equal(run(process.execPath, ['--input-type=module', '-e', script], cli), 'function');
});

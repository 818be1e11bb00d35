// Targets named in host config files, through the real command: each host's format in its usual
// place (a temporary home and project folder), the search order, --config, and ${VAR} expansion.
// Project files run here with --trust-project-config (approval: test/security/hostile-folder/).

import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { MAIN, MCPWIRE, officialEverythingEntry, runCli, type RunOptions } from './support/cli-process.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mcpwire-config-')));
const home = join(root, 'home');
const project = join(root, 'project');

/** Every entry spells the server with variables, so each file also tests expansion. */
const OURS = {
  command: '${MCPWIRE_TEST_NODE}',
  args: [...MCPWIRE.slice(1, -1), '${MCPWIRE_TEST_MAIN}', 'serve', 'everything'],
  env: { NODE_OPTIONS: '${NODE_OPTIONS:-}' },
};
const OFFICIAL = {
  command: '${MCPWIRE_TEST_NODE}',
  args: ['${MCPWIRE_TEST_OFFICIAL}', 'stdio'],
  env: { GREETING: 'hello from ${MCPWIRE_TEST_WHO}' },
};

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** `mcpwire <args> --trust-project-config` run in the project folder with the temporary home. */
function run(args: string[], env: RunOptions['env'] = {}): ReturnType<typeof runCli> {
  return runCli([...args, '--trust-project-config'], {
    cwd: project,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: undefined,
      MCPWIRE_TEST_NODE: process.execPath,
      MCPWIRE_TEST_MAIN: MAIN,
      MCPWIRE_TEST_OFFICIAL: officialEverythingEntry(),
      MCPWIRE_TEST_WHO: 'the config',
      ...env,
    },
  });
}

describe('host config files', { concurrency: 4 }, () => {
  let http: HttpServer;

  before(async () => {
    http = await startOurHttpServer();
    // Claude Desktop, in its Linux place.
    write(
      join(home, '.config', 'Claude', 'claude_desktop_config.json'),
      JSON.stringify({ mcpServers: { desktop: OFFICIAL } }),
    );
    // Cursor: the user's file and the project's; "shared" is in both, the user's wins.
    write(
      join(home, '.cursor', 'mcp.json'),
      JSON.stringify({ mcpServers: { 'cursor-user': OURS, shared: OURS } }),
    );
    write(join(project, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { shared: OFFICIAL } }));
    // VS Code: "servers" with "type", comments and trailing commas, ${env:...} and an HTTP entry.
    write(
      join(project, '.vscode', 'mcp.json'),
      `{
  // the workspace's servers
  "servers": {
    "vscode": { "type": "stdio", "command": "\${env:MCPWIRE_TEST_NODE}", "args": ${JSON.stringify(OFFICIAL.args).replace(/\$\{/g, '${env:')}, "env": { "GREETING": "\${env:MCPWIRE_TEST_WHO} in \${workspaceFolder}" }, },
    /* over HTTP */
    "vscode-http": { "type": "http", "url": "\${env:MCPWIRE_TEST_URL}", "headers": { "Authorization": "Bearer \${env:MCPWIRE_TEST_TOKEN}" } },
  },
}`,
    );
    // Claude Code: the project's .mcp.json, and ~/.claude.json with a local (per-project) and a user server.
    write(
      join(project, '.mcp.json'),
      JSON.stringify({ mcpServers: { code: OURS, unset: { command: '${MCPWIRE_TEST_UNSET}' } } }),
    );
    write(
      join(home, '.claude.json'),
      JSON.stringify({
        projects: { [project]: { mcpServers: { 'code-local': OFFICIAL } } },
        mcpServers: { 'code-user': OURS },
      }),
    );
    write(join(root, 'elsewhere.json'), JSON.stringify({ mcpServers: { only: OURS } }));
  });

  after(async () => {
    await http[Symbol.asyncDispose]();
    rmSync(root, { recursive: true, force: true });
  });

  test('each format in its place starts the server it names, variables expanded in command, args and env', async () => {
    const runs = await Promise.all(
      ['desktop', 'cursor-user', 'vscode', 'code', 'code-local', 'code-user'].map(
        async (name) => [name, await run(['call', name, 'echo', 'message=hi'])] as const,
      ),
    );
    for (const [name, result] of runs) {
      assert.equal(result.code, 0, `${name}: ${result.stderr}`);
      // Ours echoes the message; the official server prefixes "Echo: ".
      const isOfficial = ['desktop', 'vscode', 'code-local'].includes(name);
      assert.equal(result.stdout, isOfficial ? 'Echo: hi\n' : 'hi\n', name);
    }
  });

  test('env values reach the server expanded (${VAR}, ${env:VAR}, ${workspaceFolder})', async () => {
    const desktop = await run(['call', 'desktop', 'get-env']);
    assert.equal(desktop.code, 0, desktop.stderr);
    assert.match(desktop.stdout, /"GREETING": "hello from the config"/);
    const vscode = await run(['call', 'vscode', 'get-env']);
    assert.match(
      vscode.stdout,
      new RegExp(`"GREETING": "the config in ${project.replace(/[/.]/g, '\\$&')}"`),
    );
  });

  test('user files come before project files; a VS Code http entry with headers; --config reads only that file', async () => {
    const shared = await run(['call', 'shared', 'echo', 'message=x']);
    assert.deepEqual([shared.code, shared.stdout], [0, 'x\n']);
    const viaHttp = await run(['list', 'vscode-http', 'tools'], {
      MCPWIRE_TEST_URL: http.url,
      MCPWIRE_TEST_TOKEN: 't0ken',
    });
    assert.equal(viaHttp.code, 0, viaHttp.stderr);
    assert.match(viaHttp.stdout, /^echo /);
    const only = await run(['list', 'only', 'prompts', '--config', join(root, 'elsewhere.json')]);
    assert.equal(only.code, 0, only.stderr);
    const notThere = await run(['list', '--config', join(root, 'elsewhere.json'), 'code']);
    assert.equal(notThere.code, 2);
    assert.match(notThere.stderr, /^mcpwire: unknown target "code": .*servers in .*elsewhere\.json: only\)/);
  });

  test('usage errors exit 2: an unset variable, an unknown name, a missing --config file', async () => {
    const unset = await run(['list', 'unset']);
    assert.equal(unset.code, 2);
    assert.match(
      unset.stderr,
      /^mcpwire: using server "unset" from the project config .*\.mcp\.json\nmcpwire: server "unset" in .*\.mcp\.json uses \$\{MCPWIRE_TEST_UNSET\}, but MCPWIRE_TEST_UNSET is not set: set it in the environment/,
    );
    const unknown = await run(['list', 'nowhere']);
    assert.equal(unknown.code, 2);
    // The files in search order, then their names in that order.
    const files = [
      'home/.claude.json',
      'home/.cursor/mcp.json',
      'home/.config/Claude/claude_desktop_config.json',
    ];
    files.push('project/.mcp.json', 'project/.cursor/mcp.json', 'project/.vscode/mcp.json');
    const names = 'code-local, code-user, cursor-user, shared, desktop, code, unset, vscode, vscode-http';
    assert.ok(
      unknown.stderr.includes(`(servers in ${files.map((file) => join(root, file)).join(', ')}: ${names})`),
      unknown.stderr,
    );
    assert.match(unknown.stderr, /To run a command, put it after "--": mcpwire <command> -- nowhere\n$/);
    const missing = await run(['list', '--config', join(root, 'missing.json'), 'x']);
    assert.deepEqual(
      [missing.code, missing.stderr],
      [2, `mcpwire: --config ${join(root, 'missing.json')}: no such file\n`],
    );
  });
});

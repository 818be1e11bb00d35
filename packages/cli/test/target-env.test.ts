// The environment of a server started from a target: only a short allow-list of ours passes by
// default; -e KEY=VALUE and --pass-env KEY add to it, on the real command against a real child.

import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { POSIX_INHERITED_ENV } from 'mcpwire/stdio';
import { FIXTURES, runCli } from './support/cli-process.ts';

const SERVER = ['--', process.execPath, join(FIXTURES, 'first-hour-server.mjs'), 'env'];
/** Our environment: B and C are set, and neither passes unless asked for. */
const OURS = { A: 'from our environment', B: 'b from our environment', C: 'c, a secret', D: undefined };

/** `mcpwire call [target] env --json <args>`: the variables the server reported. */
async function envOf(
  args: readonly string[],
  target: string[] = [],
): Promise<Record<string, string | undefined>> {
  const run = await runCli(['call', ...target, 'env', '--json', ...args], { env: OURS });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as { content: Array<{ text: string }> };
  return JSON.parse(result.content[0]!.text) as Record<string, string | undefined>;
}

describe('the environment a server started from a target gets', { concurrency: 3 }, () => {
  test('by default none of A, B, C passes', async () => {
    assert.deepEqual(await envOf(SERVER), {});
  });

  test('-e A=1 --pass-env B: A is 1, B is ours, C does not pass', async () => {
    assert.deepEqual(await envOf(['-e', 'A=1', '--pass-env', 'B', ...SERVER]), {
      A: '1',
      B: 'b from our environment',
    });
    // Repeatable, and --pass-env takes a comma-separated list; a value may hold "=".
    assert.deepEqual(await envOf(['--env', 'A=x=y', '-e', 'D=4', '--pass-env', 'B,C', ...SERVER]), {
      A: 'x=y',
      B: 'b from our environment',
      C: 'c, a secret',
      D: '4',
    });
  });

  test("a host config's env entries still pass, and -e wins over them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpwire-env-'));
    const config = join(dir, 'mcp.json');
    const entry = { command: process.execPath, args: [join(FIXTURES, 'first-hour-server.mjs'), 'env'] };
    writeFileSync(config, JSON.stringify({ mcpServers: { envy: { ...entry, env: { A: 'a', D: 'd' } } } }));
    assert.deepEqual(await envOf(['--config', config, '-e', 'D=4'], ['envy']), { A: 'a', D: '4' });
  });

  test('--help says what passes by default and why; a bad -e is a usage error', async () => {
    const help = await runCli(['call', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /-e, --env <KEY=VALUE>/);
    assert.match(help.stdout, /--pass-env <KEY\[,KEY\]>/);
    assert.ok(help.stdout.replace(/\s+/g, ' ').includes(POSIX_INHERITED_ENV.join(', ')), help.stdout);
    assert.match(help.stdout, /secrets/);
    const bad = await runCli(['call', 'env', '-e', 'novalue', ...SERVER]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /-e expects KEY=VALUE/);
  });
});

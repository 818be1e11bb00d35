// Before `npm test` and `npm run bench`: installs test/peers (Bun, Deno, workerd through miniflare,
// node-pty, @wong2/mcp-cli; what only tests and benchmarks run) from its own lockfile when it is
// missing or its lockfile changed since the last install, so the root install stays what the demo needs.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PEERS = join(import.meta.dirname, '..', 'test', 'peers');
// Inside node_modules, so removing the install removes the stamp with it.
const STAMP = join(PEERS, 'node_modules', '.mcpwire-lock-sha256');
const lockHash = createHash('sha256')
  .update(readFileSync(join(PEERS, 'package-lock.json')))
  .digest('hex');
const installed = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : undefined;
if (installed !== lockHash) {
  const why = installed === undefined ? 'not installed' : 'its package-lock.json changed';
  process.stderr.write(
    `Installing the test-only peers (Bun, Deno, miniflare/workerd, node-pty, @wong2/mcp-cli) into test/peers (${why}) ...\n`,
  );
  const env = { ...process.env };
  // The test runner's preloads (tsx, the wire check) are not for npm's install scripts.
  delete env.NODE_OPTIONS;
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: PEERS,
    env,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    process.stderr.write(`npm ci in test/peers failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
  writeFileSync(STAMP, `${lockHash}\n`);
}

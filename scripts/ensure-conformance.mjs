// Before `npm test`: installs the official conformance suite and its Node 22 into test/conformance
// (its own lockfile, never the root's) when they are missing, so `npm install && npm test` works on
// a fresh machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const suite = 'test/conformance/node_modules/@modelcontextprotocol/conformance/package.json';
const node22 = 'test/conformance/node_modules/.bin/node';
if (!existsSync(suite) || !existsSync(node22)) {
  process.stderr.write('Installing the conformance suite and Node 22 into test/conformance ...\n');
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const result = spawnSync('npm', ['ci', '--prefix', 'test/conformance', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    env,
  });
  process.exit(result.status ?? 1);
}

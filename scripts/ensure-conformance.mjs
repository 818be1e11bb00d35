// Before `npm test`: installs the Node 22 peers (the official conformance suite, Inspector v2) and
// their Node 22 into test/conformance (its own lockfile, never the root's) when any is missing, so
// `npm install && npm test` works on a fresh machine.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const suite = 'test/conformance/node_modules/@modelcontextprotocol/conformance/package.json';
const inspector = 'test/conformance/node_modules/@modelcontextprotocol/inspector/package.json';
const node22 = 'test/conformance/node_modules/.bin/node';
if (![suite, inspector, node22].every((path) => existsSync(path))) {
  process.stderr.write(
    'Installing the conformance suite, Inspector v2 and Node 22 into test/conformance ...\n',
  );
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const result = spawnSync('npm', ['ci', '--prefix', 'test/conformance', '--no-audit', '--no-fund'], {
    stdio: 'inherit',
    env,
  });
  process.exit(result.status ?? 1);
}

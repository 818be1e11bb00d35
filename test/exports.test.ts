// The published package: every `exports` target and the `bin` are in the packed file list, and
// every entry point imports by its public name (resolved through the exports map, from dist/).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
};

test('npm pack includes every exports target and the bin, and no tests', () => {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  const files = new Set(
    (JSON.parse(output) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((file) => file.path),
  );
  const targets = Object.values(manifest.exports).flatMap((target) =>
    typeof target === 'string' ? [target] : [target.types, target.default],
  );
  for (const target of [...targets, ...Object.values(manifest.bin)])
    assert.ok(files.has(target.replace(/^\.\//, '')), `${target} is not packed`);
  assert.deepEqual(
    [...files].filter((file) => file.includes('.test.')),
    [],
  );
});

test('every entry point imports by its public name', async () => {
  const root = await import('mcpwire');
  assert.equal(typeof root.createMemoryPair, 'function');
  assert.equal(typeof root.RpcError, 'function');
  const server = await import('mcpwire/server');
  assert.equal(typeof server.Server, 'function');
  const client = await import('mcpwire/client');
  assert.equal(typeof client.Client, 'function');
  const stdio = await import('mcpwire/stdio');
  assert.equal(typeof stdio.StdioClientTransport, 'function');
  assert.equal(typeof stdio.serveStdio, 'function');
});

test('the bin prints its version', () => {
  const output = execFileSync(process.execPath, [join(ROOT, manifest.bin.mcpwire!), '--version'], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  assert.equal(output.trim(), manifest.version);
});

// A Debian package a test needs (redis-server, haproxy): there already, installed with apt when it is
// missing and the tests run as root (as CI does), or a reason for the test to skip.

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';

const installs = new Map<string, Promise<string | undefined>>();

/** The apt command that installs `pkg` (`.ci/run` runs the same). */
export function aptInstallCommand(pkg: string): string {
  return `apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 ${pkg}`;
}

/**
 * Resolves with undefined when `path` exists (installing `pkg` first when it is missing and this is
 * root), or with the reason a test should skip. Rejects when the install was tried and failed. Runs
 * apt once per package.
 */
export function debianPackageSkipReason(path: string, pkg: string): Promise<string | undefined> {
  let installing = installs.get(pkg);
  if (installing === undefined) {
    installing = install(path, pkg);
    installs.set(pkg, installing);
  }
  return installing;
}

async function install(path: string, pkg: string): Promise<string | undefined> {
  if (existsSync(path)) return undefined;
  const command = aptInstallCommand(pkg);
  if (process.getuid?.() !== 0)
    return `${path} is missing and installing it needs root: run "sudo ${command}"`;
  const child = spawn('sh', ['-c', command], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0 || !existsSync(path))
    throw new Error(`"${command}" failed (exit ${String(code)}):\n${output.slice(-4000)}`);
  return undefined;
}

// The test-only peers (Bun, Deno, workerd through miniflare, node-pty, @wong2/mcp-cli) live in their own
// install folder, test/peers, not in the root install (issue 22, item 13): tests and benchmarks load
// them from there through this module. scripts/ensure-peers.mjs installs the folder before `npm test`.

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** The install folder of the test-only peers. */
export const PEERS_DIR = join(import.meta.dirname, '..', 'peers');

/** The packages of test/peers that tests import, with their module types (tsconfig `paths` finds them). */
interface PeerModules {
  'node-pty': typeof import('node-pty');
  miniflare: typeof import('miniflare');
}

const requireFromPeers = createRequire(join(PEERS_DIR, 'package.json'));

function missing(what: string): Error {
  return new Error(
    `${what} is not installed in ${PEERS_DIR}: run "node scripts/ensure-peers.mjs" (npm test and npm run bench do)`,
  );
}

/**
 * Loads `name` from test/peers (both are CommonJS); throws naming the install command when it is absent.
 * By the path of its `main`, never by bare name: the test runner's tsx applies the root tsconfig's
 * `paths`, which point tsc at the peers' declaration files, to bare names in `require` too.
 */
export function loadPeer<Name extends keyof PeerModules>(name: Name): PeerModules[Name] {
  const dir = join(PEERS_DIR, 'node_modules', name);
  let manifest: { main?: string };
  try {
    manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { main?: string };
  } catch {
    throw missing(name);
  }
  return requireFromPeers(join(dir, manifest.main ?? 'index.js')) as PeerModules[Name];
}

/** The path of the executable `name` (`bun`, `deno`, `mcp-server-filesystem`) that test/peers installed; throws when it is absent. */
export function peerBin(name: 'bun' | 'deno' | 'mcp-server-filesystem'): string {
  const path = join(PEERS_DIR, 'node_modules', '.bin', name);
  if (!existsSync(path)) throw missing(name);
  return path;
}

/** The folder of package `name` in test/peers (it may be absent: the caller checks what it needs). */
export function peerPackageDir(name: '@wong2/mcp-cli'): string {
  return join(PEERS_DIR, 'node_modules', name);
}

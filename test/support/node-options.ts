// The environment a test gives to node children it starts with a filtered environment (stdio
// transports inherit only a safe allow-list): tsx and the wire schema check, as the test runner set them.
// Also the command that starts `mcpwire` from source as such a child.

import { join } from 'node:path';

/** `{ NODE_OPTIONS, MCPWIRE_WIRE_REPORT_DIR }` when the runner set them, else `{}`. */
export function testChildEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of ['NODE_OPTIONS', 'MCPWIRE_WIRE_REPORT_DIR']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return env;
}

/**
 * The node flag that makes workspace packages resolve to their TypeScript sources (`mcpwire/server` ->
 * packages/mcpwire/src/server/index.ts, the `@mcpwire/source` export condition) rather than to a build.
 */
export const SOURCE_CONDITIONS: readonly string[] = ['--conditions=@mcpwire/source'];

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** A stdio child's command: the shape our transport and the official SDKs' accept. */
export interface SourceCommand {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
}

/**
 * How to run the TypeScript file `script` (with `args`) as a stdio child: node with the source
 * conditions and tsx, from the repository root.
 */
export function sourceCommand(script: string, ...args: string[]): SourceCommand {
  return {
    command: process.execPath,
    args: [...SOURCE_CONDITIONS, '--import', 'tsx', script, ...args],
    cwd: REPO_ROOT,
    // The child's own messages are then schema-checked too (test/support/wire-check.ts).
    env: testChildEnv(),
  };
}

/**
 * Client options for a test whose server is a child it just started: node (often compiling the source
 * under tsx) on two shared cores during a full run can take many seconds to answer its first message,
 * and silence then is slowness, not a server of another era. Generous, and never asserted on.
 */
export const CHILD_STARTUP_WAIT = { probeTimeoutMs: 120_000, initializeTimeoutMs: 120_000 } as const;

/** How to start `mcpwire <args>` from source as a stdio child. */
export function ourCliCommand(...args: string[]): SourceCommand {
  return sourceCommand(join(REPO_ROOT, 'packages', 'cli', 'src', 'main.ts'), ...args);
}

// Where the official `@modelcontextprotocol/server-everything` (a devDependency) starts: its bin's entry.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The entry script of the official everything server's `mcp-server-everything` bin; throws if it has none. */
export function officialEverythingEntry(): string {
  const packageDir = join(import.meta.dirname, '../../node_modules/@modelcontextprotocol/server-everything');
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
    bin?: Record<string, string>;
  };
  const entry = manifest.bin?.['mcp-server-everything'];
  if (entry === undefined)
    throw new Error(
      `@modelcontextprotocol/server-everything has no "mcp-server-everything" bin in ${packageDir}`,
    );
  return join(packageDir, entry);
}

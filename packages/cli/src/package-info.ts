// What the CLI knows about its own package, read once from package.json.

import { readFileSync } from 'node:fs';

// Both src/ and dist/ (the bundle and its chunks) sit one folder below the package root.
const PACKAGE_JSON = new URL('../package.json', import.meta.url);

/** The `version` field of the CLI package's package.json. */
export const PACKAGE_VERSION: string = readVersion();

function readVersion(): string {
  const parsed = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version?: unknown };
  if (typeof parsed.version !== 'string')
    throw new Error(`Expected a string "version" in ${PACKAGE_JSON.pathname}`);
  return parsed.version;
}

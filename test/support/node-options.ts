// The environment a test gives to node children it starts with a filtered environment (stdio
// transports inherit only a safe allow-list): tsx and the wire schema check, as the test runner set them.

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

// The environment a spawned server gets: an allow-list of harmless variables from ours, plus the
// configured ones. Secrets in the client's environment (tokens, keys) never reach the server by default.

/** Variables inherited on POSIX systems. NODE_OPTIONS and the like are deliberately absent. */
export const POSIX_INHERITED_ENV: readonly string[] = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
];

/** Variables inherited on Windows (matched case-insensitively, as Windows does). */
export const WINDOWS_INHERITED_ENV: readonly string[] = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
];

/** Options of {@link createChildEnvironment}; both default to the current process. */
export interface ChildEnvironmentOptions {
  /** The environment to inherit from; default `process.env`. */
  source?: Readonly<Record<string, string | undefined>>;
  /** Chooses the allow-list; default `process.platform`. */
  platform?: NodeJS.Platform;
}

/**
 * Builds a child's environment: the allow-listed variables present in `source`, except values that
 * start with `()` (bash exported functions, a Shellshock-style injection vector), then every entry
 * of `configured`, which wins. Returns a new object; never reads or mutates anything else.
 */
export function createChildEnvironment(
  configured: Readonly<Record<string, string>> = {},
  options: ChildEnvironmentOptions = {},
): Record<string, string> {
  const source = options.source ?? process.env;
  const isWindows = (options.platform ?? process.platform) === 'win32';
  const allowList = isWindows ? WINDOWS_INHERITED_ENV : POSIX_INHERITED_ENV;
  const env: Record<string, string> = {};
  for (const name of allowList) {
    const found = isWindows ? findCaseInsensitive(source, name) : lookup(source, name);
    if (found === undefined) continue;
    const [key, value] = found;
    if (value.startsWith('()')) continue;
    env[key] = value;
  }
  for (const [key, value] of Object.entries(configured)) {
    if (isWindows) deleteCaseInsensitive(env, key);
    env[key] = value;
  }
  return env;
}

function lookup(
  source: Readonly<Record<string, string | undefined>>,
  name: string,
): [string, string] | undefined {
  const value = source[name];
  return value === undefined ? undefined : [name, value];
}

function findCaseInsensitive(
  source: Readonly<Record<string, string | undefined>>,
  name: string,
): [string, string] | undefined {
  const exact = lookup(source, name);
  if (exact !== undefined) return exact;
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && key.toUpperCase() === upper) return [key, value];
  }
  return undefined;
}

function deleteCaseInsensitive(env: Record<string, string>, name: string): void {
  const upper = name.toUpperCase();
  for (const key of Object.keys(env)) if (key.toUpperCase() === upper) delete env[key];
}

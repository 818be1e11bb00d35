// Where the github server keeps its database when no path is given: the user's data directory,
// by each platform's convention (XDG on Linux and other Unixes).

import { homedir } from 'node:os';
import { join } from 'node:path';

/** The facts the default path depends on (all default to this process's). */
export interface DataPathOptions {
  env?: Readonly<Record<string, string | undefined>>;
  platform?: NodeJS.Platform;
  home?: string;
}

/** The database file's name inside the data directory's `mcpwire` folder. */
export const DATABASE_FILE_NAME = 'github.sqlite3';

/**
 * The default database file: `$XDG_DATA_HOME/mcpwire/github.sqlite3` (an absolute XDG_DATA_HOME
 * only, as the XDG spec requires) or `~/.local/share/mcpwire/github.sqlite3` on Linux,
 * `~/Library/Application Support/mcpwire/github.sqlite3` on macOS and
 * `%LOCALAPPDATA%\mcpwire\github.sqlite3` on Windows. Pure: it creates nothing.
 */
export function defaultDatabasePath(options: DataPathOptions = {}): string {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const home = options.home ?? homedir();
  return join(dataDirectory(env, platform, home), 'mcpwire', DATABASE_FILE_NAME);
}

function dataDirectory(
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
  home: string,
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  if (platform === 'win32') return env.LOCALAPPDATA || join(home, 'AppData', 'Local');
  const xdg = env.XDG_DATA_HOME;
  return xdg !== undefined && xdg.startsWith('/') ? xdg : join(home, '.local', 'share');
}

// Where the client commands keep OAuth registrations and tokens: one owner-only file per server, in
// the user's data directory (XDG on Linux, Application Support on macOS, LOCALAPPDATA on Windows).

import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** What the default location depends on (this process's, unless a test passes its own). */
export interface DataDirContext {
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  home: string;
}

/** The user's mcpwire data directory: `$XDG_DATA_HOME/mcpwire` (default `~/.local/share/mcpwire`) on Linux. */
export function dataDirectory(context: DataDirContext = currentContext()): string {
  const { env, platform, home } = context;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'mcpwire');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'mcpwire');
  const base = env.XDG_DATA_HOME;
  // XDG Base Directory: a relative value is invalid and must be ignored.
  return join(base !== undefined && base.startsWith('/') ? base : join(home, '.local', 'share'), 'mcpwire');
}

/**
 * The token store file for the MCP endpoint `serverUrl`: `<data dir>/oauth/<host>_<port>-<hash>.json`,
 * the hash over the whole URL so two endpoints of one host never share tokens.
 */
export function tokenStorePath(serverUrl: string, context: DataDirContext = currentContext()): string {
  const url = new URL(serverUrl);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.replace(/[^A-Za-z0-9.-]/g, '_');
  const hash = createHash('sha256').update(url.href).digest('hex').slice(0, 12);
  return join(dataDirectory(context), 'oauth', `${host}_${port}-${hash}.json`);
}

function currentContext(): DataDirContext {
  return { env: process.env, platform: process.platform, home: homedir() };
}

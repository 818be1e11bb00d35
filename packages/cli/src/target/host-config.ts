// The MCP host config files mcpwire reads server definitions from (Claude Desktop, Cursor, VS Code,
// Claude Code), where each host keeps them, and the entries inside them, unexpanded.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../exit-code.ts';

/** One config file to look in, and which host's format it is. */
export interface ConfigLocation {
  path: string;
  host: 'Claude Desktop' | 'Cursor' | 'VS Code' | 'Claude Code';
  /** The project folder a project-level file belongs to (for `${workspaceFolder}`), else the cwd. */
  workspaceFolder: string;
  /**
   * `user`: the user's own file (or `--config`); `project`: found from the current folder, so written
   * by whoever wrote the folder (a cloned repository): its servers run only once approved.
   */
  scope: 'user' | 'project';
}

/** A server entry as written in a config file (fields are checked when the entry is used). */
export type RawServerEntry = Record<string, unknown>;

/** Where the entries of one file were found. */
export interface ConfigFileEntries {
  location: ConfigLocation;
  entries: ReadonlyMap<string, RawServerEntry>;
  /** SHA-256 (hex) of the file's bytes as read: what a project approval is bound to. */
  sha256: string;
}

/** What the search depends on, so tests can point it at temporary folders. */
export interface SearchContext {
  cwd: string;
  home: string;
  platform: NodeJS.Platform;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The files searched for a server name, in order; the first file that defines the name wins.
 * The user's files first, then the project files in the current directory: a folder can add
 * servers (run only once approved, see project-approval.ts) but never shadow the user's own.
 */
export function configSearchPath(context: SearchContext): ConfigLocation[] {
  const { cwd, home } = context;
  const project = (path: string, host: ConfigLocation['host']): ConfigLocation => ({
    path: join(cwd, path),
    host,
    workspaceFolder: cwd,
    scope: 'project',
  });
  const user = (path: string, host: ConfigLocation['host']): ConfigLocation => ({
    path,
    host,
    workspaceFolder: cwd,
    scope: 'user',
  });
  const appData = appDataDir(context);
  return [
    user(join(home, '.claude.json'), 'Claude Code'),
    user(join(home, '.cursor', 'mcp.json'), 'Cursor'),
    user(join(appData, 'Claude', 'claude_desktop_config.json'), 'Claude Desktop'),
    user(join(appData, 'Code', 'User', 'mcp.json'), 'VS Code'),
    project('.mcp.json', 'Claude Code'),
    project(join('.cursor', 'mcp.json'), 'Cursor'),
    project(join('.vscode', 'mcp.json'), 'VS Code'),
  ];
}

/** The per-user settings folder: Application Support (macOS), %APPDATA% (Windows), XDG (others). */
function appDataDir({ home, platform, env }: SearchContext): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support');
  if (platform === 'win32') return env.APPDATA ?? join(home, 'AppData', 'Roaming');
  return env.XDG_CONFIG_HOME || join(home, '.config');
}

/**
 * Reads the server entries of one file: `mcpServers` or `servers` (VS Code) at the top, and for
 * `~/.claude.json` also `projects[<cwd>].mcpServers` (Claude Code's local scope, which wins).
 * Resolves undefined when the file does not exist; throws UsageError when it is not valid JSON (with
 * comments and trailing commas allowed, as VS Code writes them).
 */
export function readConfigFile(location: ConfigLocation, cwd: string): ConfigFileEntries | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(location.path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read ${location.path}: ${(error as Error).message}`);
  }
  const text = bytes.toString('utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new UsageError(`${location.path} is not valid JSON: ${(error as Error).message}; fix or move it`);
  }
  const entries = new Map<string, RawServerEntry>();
  const projects = recordAt(parsed, 'projects');
  for (const source of [recordAt(projects, cwd), parsed]) {
    for (const key of ['mcpServers', 'servers']) {
      for (const [name, entry] of Object.entries(recordAt(source, key) ?? {}))
        if (isRecord(entry) && !entries.has(name)) entries.set(name, entry);
    }
  }
  return { location, entries, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** Every server name a `--config` file or the search path offers, for "did you mean" messages. */
export function describeNames(files: readonly ConfigFileEntries[]): string {
  const names = [...new Set(files.flatMap((file) => [...file.entries.keys()]))];
  return names.length === 0 ? 'none' : names.join(', ');
}

function recordAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const found = value[key];
  return isRecord(found) ? found : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Removes `//` and `/* *\/` comments outside strings, and commas before `}` or `]` (JSONC). */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === '"') {
      const end = endOfString(text, at);
      out += text.slice(at, end);
      at = end - 1;
    } else if (char === '/' && text[at + 1] === '/') {
      while (at < text.length && text[at] !== '\n') at++;
      out += '\n';
    } else if (char === '/' && text[at + 1] === '*') {
      const end = text.indexOf('*/', at + 2);
      at = end < 0 ? text.length : end + 1;
    } else if (char === '}' || char === ']') {
      // `out` never ends inside a string here, so a comma at its end is a trailing comma.
      out = out.replace(/,(\s*)$/, '$1') + char;
    } else out += char;
  }
  return out;
}

function endOfString(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at + 1;
  }
  return text.length;
}

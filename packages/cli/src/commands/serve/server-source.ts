// What `mcpwire serve <server>` runs: a built-in server (everything, github) or the Server a user's
// JS/TS module exports, loaded on demand so that serving one never loads the other.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChannelServer } from 'mcpwire/stdio';
import { UsageError } from '../../exit-code.ts';

/** The servers built into the command. */
export const BUILT_IN_SERVERS = ['everything', 'github'] as const;

/** How the server is made. */
export interface ServerSourceOptions {
  /** github only: the SQLite database file, or `:memory:`. */
  db?: string | undefined;
}

/**
 * Makes the server `name` names: `everything`, `github`, or a module path. Its `close()` releases
 * what it holds (github closes its database). Throws UsageError for a path that does not exist, a
 * module without a usable export, and `--db` for a server other than github.
 */
export async function loadServer(name: string, options: ServerSourceOptions = {}): Promise<ChannelServer> {
  if (options.db !== undefined && name !== 'github')
    throw new UsageError(`--db applies to "serve github" only, not to "${name}"`);
  if (name === 'everything') {
    const { createEverythingServer } = await import('@mcpwire/server-everything');
    return createEverythingServer();
  }
  if (name === 'github') {
    const { createGithubServer } = await import('@mcpwire/server-github');
    return createGithubServer(options.db === undefined ? {} : { db: options.db });
  }
  return loadServerModule(name);
}

/**
 * Imports the module at `path` (relative to the cwd) and returns its default export, or else its
 * `server` export: a Server, or a function (possibly async) returning one. A TypeScript module is
 * loaded through the project's own tsx when Node cannot load it by itself.
 */
export async function loadServerModule(path: string): Promise<ChannelServer> {
  const file = resolve(path);
  if (!existsSync(file))
    throw new UsageError(
      `unknown server "${path}": expected ${BUILT_IN_SERVERS.join(' or ')}, or the path of a JS/TS module (no file ${file})`,
    );
  const loaded = (await importModule(file)) as { default?: unknown; server?: unknown };
  const exported = loaded.default ?? loaded.server;
  const server: unknown = typeof exported === 'function' ? await (exported as () => unknown)() : exported;
  if (!isChannelServer(server))
    throw new UsageError(
      `${path} must export a Server (or a function returning one) as its default or "server" export; ` +
        `found ${describe(exported)}`,
    );
  return server;
}

async function importModule(file: string): Promise<unknown> {
  const url = pathToFileURL(file).href;
  try {
    return await import(url);
  } catch (error) {
    const isTypeScript = ['.ts', '.mts', '.cts'].includes(extname(file));
    if (!isTypeScript || (error as NodeJS.ErrnoException).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
  }
  await registerTsx(file);
  return import(url);
}

/** Registers tsx as found from the module's folder (its project), or explains how to load TypeScript. */
async function registerTsx(file: string): Promise<void> {
  let api: string;
  try {
    api = createRequire(file).resolve('tsx/esm/api');
  } catch {
    throw new UsageError(
      `cannot load the TypeScript module ${file}: this Node (${process.version}) does not run TypeScript by itself; ` +
        'install tsx in its project (npm install -D tsx), or compile it to JavaScript',
    );
  }
  const { register } = (await import(pathToFileURL(api).href)) as { register: () => unknown };
  register();
}

function isChannelServer(value: unknown): value is ChannelServer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { connect?: unknown }).connect === 'function'
  );
}

function describe(value: unknown): string {
  if (value === undefined) return 'no such export';
  if (typeof value === 'function') return 'a function that does not return a Server';
  return typeof value === 'object' && value !== null ? 'an object without connect()' : `a ${typeof value}`;
}

// What `mcpwire list|call|read|get|complete|connect` talk to: a command after `--`, a URL, or a server
// named in a host config file, resolved into one Target (expanded, checked) before anything starts.

import { homedir } from 'node:os';
import { UsageError } from '../exit-code.ts';
import { COMMAND_TARGET } from './command-target.ts';
import { expandAll, expandVariables, type ExpansionContext } from './config-expand.ts';
import {
  configSearchPath,
  describeNames,
  readConfigFile,
  type ConfigFileEntries,
  type ConfigLocation,
  type RawServerEntry,
  type SearchContext,
} from './host-config.ts';
import { approveProjectServer } from './project-approval.ts';

export { COMMAND_TARGET };

/** A server to start over stdio. */
export interface StdioTarget {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** How messages name it: the command line or `"name" from <file>`. */
  label: string;
}

/** A server to reach over HTTP: Streamable HTTP (with the HTTP+SSE fall back), or HTTP+SSE only. */
export interface HttpTarget {
  kind: 'http';
  url: string;
  transport: 'streamable' | 'sse';
  headers: Record<string, string>;
  label: string;
}

/** A resolved `<target>`. */
export type Target = StdioTarget | HttpTarget;

/** How a target operand is resolved. */
export interface TargetOptions {
  /** The words after `--`, when there were any. */
  commandAfterDash?: readonly string[] | undefined;
  /** `--config <file>`: look only there. */
  config?: string | undefined;
  /** `--header name:value`, in order (later wins). */
  headers?: readonly string[] | undefined;
  /** `-e KEY=VALUE` for a stdio server, in order (later wins, and wins over a host config's env). */
  env?: readonly string[] | undefined;
  /** `--pass-env KEY[,KEY]`: variables of `search.env` passed on to a stdio server. */
  passEnv?: readonly string[] | undefined;
  /** Default: this process's cwd, home directory, platform and environment. */
  search?: SearchContext;
  /** `--trust-project-config`: run a server only a project config defines without asking. */
  trustProjectConfig?: boolean | undefined;
  /** Asks the person to approve a project config's server; default: on the terminal when there is one. */
  askApproval?: ((question: string) => Promise<boolean>) | undefined;
}

/** A command's own target flags, as commander parses them (`--config`, `-H`, `-e`, `--pass-env`, ...). */
export interface TargetFlags {
  config?: string | undefined;
  header?: readonly string[] | undefined;
  trustProjectConfig?: boolean | undefined;
  env?: readonly string[] | undefined;
  passEnv?: readonly string[] | undefined;
}

/** {@link resolveTarget} for a command: its operand, the words after `--` and its target flags. */
export function resolveCommandTarget(
  operand: string,
  commandAfterDash: readonly string[] | undefined,
  flags: TargetFlags,
): Promise<Target> {
  return resolveTarget(operand, {
    commandAfterDash,
    config: flags.config,
    headers: flags.header,
    trustProjectConfig: flags.trustProjectConfig,
    env: flags.env,
    passEnv: flags.passEnv,
  });
}

/**
 * Resolves `operand`: {@link COMMAND_TARGET} for the command after `--`, an http(s) URL, or the name
 * of a server in a host config file (see {@link configSearchPath}; a server only a project config
 * defines must be approved first, see project-approval.ts, and nothing in it is expanded before).
 * Rejects with UsageError, saying what was looked for and where, when it names nothing usable.
 */
export async function resolveTarget(operand: string, options: TargetOptions = {}): Promise<Target> {
  const target = await resolveOperand(operand, options);
  const env = parseEnvOptions(options, (options.search ?? currentSearchContext()).env);
  if (env === undefined) return target;
  if (target.kind !== 'stdio')
    throw new UsageError('-e/--env and --pass-env apply to a server started over stdio, not to a URL');
  return { ...target, env: { ...target.env, ...env } };
}

/**
 * The variables of `-e KEY=VALUE` and `--pass-env KEY[,KEY]` (a passed name missing from `source`
 * is left out); undefined when neither was given. Throws UsageError for an `-e` without `=`.
 */
export function parseEnvOptions(
  options: Pick<TargetOptions, 'env' | 'passEnv'>,
  source: Readonly<Record<string, string | undefined>>,
): Record<string, string> | undefined {
  if ((options.env ?? []).length === 0 && (options.passEnv ?? []).length === 0) return undefined;
  const env: Record<string, string> = {};
  for (const names of options.passEnv ?? []) {
    for (const name of names.split(',').map((item) => item.trim())) {
      if (name === '') continue;
      const value = source[name];
      if (value !== undefined) env[name] = value;
    }
  }
  for (const pair of options.env ?? []) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new UsageError(`-e expects KEY=VALUE (e.g. -e API_KEY=abc), received "${pair}"`);
    env[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return env;
}

async function resolveOperand(operand: string, options: TargetOptions): Promise<Target> {
  const headers = parseHeaders(options.headers ?? []);
  if (operand === COMMAND_TARGET) {
    const [command, ...args] = options.commandAfterDash ?? [];
    if (command === undefined)
      throw new UsageError('nothing after "--": give the server command to run, e.g. -- npx -y my-server');
    if (Object.keys(headers).length > 0)
      throw new UsageError('--header applies to URL targets, not to a command started over stdio');
    return { kind: 'stdio', command, args, env: {}, label: [command, ...args].join(' ') };
  }
  if (options.commandAfterDash !== undefined)
    throw new UsageError(`give either a target ("${operand}") or a command after "--", not both`);
  if (/^https?:\/\//i.test(operand)) {
    checkUrl(operand);
    return { kind: 'http', url: operand, transport: 'streamable', headers, label: operand };
  }
  return fromConfig(operand, options, headers);
}

async function fromConfig(
  name: string,
  options: TargetOptions,
  headers: Record<string, string>,
): Promise<Target> {
  const search = options.search ?? currentSearchContext();
  // A file the user names is the user's choice, as their own config files are.
  const locations: ConfigLocation[] =
    options.config === undefined
      ? configSearchPath(search)
      : [{ path: options.config, host: 'Claude Code', workspaceFolder: search.cwd, scope: 'user' }];
  const files: ConfigFileEntries[] = [];
  for (const location of locations) {
    const file = readConfigFile(location, search.cwd);
    if (file === undefined) {
      if (options.config !== undefined) throw new UsageError(`--config ${options.config}: no such file`);
      continue;
    }
    files.push(file);
    const entry = file.entries.get(name);
    if (entry === undefined) continue;
    if (location.scope === 'project')
      await approveProjectServer(
        { name, file, entry },
        {
          isTrusted: options.trustProjectConfig,
          ask: options.askApproval,
          dataDir: { env: search.env, platform: search.platform, home: search.home },
        },
      );
    const context: ExpansionContext = {
      env: search.env,
      home: search.home,
      workspaceFolder: location.workspaceFolder,
      where: `server "${name}" in ${location.path}`,
    };
    return fromEntry(entry, context, headers);
  }
  const searched =
    files.length === 0
      ? 'no host config file was found'
      : `servers in ${files.map((file) => file.location.path).join(', ')}: ${describeNames(files)}`;
  throw new UsageError(
    `unknown target "${name}": not an http(s) URL, and no host config defines a server of that name ` +
      `(${searched}). ` +
      `To run a command, put it after "--": mcpwire <command> -- ${name}`,
  );
}

/** Turns one config entry into a Target, expanding `${...}` in command, args, env, cwd, url and headers. */
export function fromEntry(
  entry: RawServerEntry,
  context: ExpansionContext,
  extraHeaders: Record<string, string> = {},
): Target {
  const type = typeof entry.type === 'string' ? entry.type : undefined;
  if (typeof entry.url === 'string') {
    const url = expandVariables(entry.url, context);
    checkUrl(url, context.where);
    const headers = {
      ...expandAll(stringRecord(entry.headers, 'headers', context), context),
      ...extraHeaders,
    };
    const transport = type === 'sse' ? 'sse' : 'streamable';
    return { kind: 'http', url, transport, headers, label: context.where };
  }
  if (typeof entry.command !== 'string' || entry.command === '')
    throw new UsageError(`${context.where} has neither a "command" nor a "url": add one`);
  if (Object.keys(extraHeaders).length > 0)
    throw new UsageError(`--header applies to URL targets; ${context.where} is a command`);
  const target: StdioTarget = {
    kind: 'stdio',
    command: expandVariables(entry.command, context),
    args: expandAll(stringArray(entry.args, context), context),
    env: expandAll(stringRecord(entry.env, 'env', context), context),
    label: context.where,
  };
  if (typeof entry.cwd === 'string') target.cwd = expandVariables(entry.cwd, context);
  return target;
}

/** `--header` values (`Name: value`) as a record; UsageError for one without a colon. */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const colon = value.indexOf(':');
    if (colon <= 0)
      throw new UsageError(
        `--header expects name:value (e.g. "Authorization: Bearer x"), received "${value}"`,
      );
    headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
  }
  return headers;
}

function checkUrl(url: string, where?: string): void {
  try {
    new URL(url);
  } catch {
    throw new UsageError(`${where === undefined ? '' : `${where}: `}"${url}" is not a valid URL`);
  }
}

function stringArray(value: unknown, context: ExpansionContext): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new UsageError(`${context.where}: "args" must be an array of strings`);
}

function stringRecord(value: unknown, field: string, context: ExpansionContext): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.every(([, item]) => typeof item === 'string'))
      return Object.fromEntries(entries) as Record<string, string>;
  }
  throw new UsageError(`${context.where}: "${field}" must be an object of strings`);
}

function currentSearchContext(): SearchContext {
  return { cwd: process.cwd(), home: homedir(), platform: process.platform, env: process.env };
}

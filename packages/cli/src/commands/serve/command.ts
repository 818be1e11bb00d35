// `mcpwire serve <server>`: a built-in server or a user's module over stdio (nothing but JSON-RPC on
// stdout; the process ends when stdin closes, STDIO-2) or over Streamable HTTP with --http.

import { Option, type Command } from 'commander';
import type { ServedEras } from 'mcpwire';
import { addExamples, defineCommand } from '../../define-command.ts';
import { ExitCode, UsageError, type ExitCodeValue } from '../../exit-code.ts';
import {
  checkDevAuthHost,
  INSECURE_NETWORK_FLAG,
  INSECURE_NETWORK_HELP,
} from '../../dev-auth/dev-auth-host.ts';
import { parseAuthMode, parseCount, parsePort } from '../../arguments/option-values.ts';

/** After the server has finished, how long stray handles may keep the process alive before it exits anyway. */
const EXIT_GRACE_MS = 500;

interface ServeOptions {
  http?: number;
  host?: string;
  allowHost?: string[];
  auth?: 'dev';
  /** `--insecure-dev-auth-on-network`: --auth dev on a non-loopback --host. */
  insecureDevAuthOnNetwork?: boolean;
  /** False with --no-sessions. */
  sessions: boolean;
  maxSessions?: number;
  maxSessionsPerClient?: number;
  /** `--redis <url>`: share sessions with the other nodes on this Redis. */
  redis?: string;
  /** `--redis-cluster <url>[,<url>]`: the same on a Redis Cluster (some of its nodes' URLs). */
  redisCluster?: string;
  db?: string;
  era: ServedEras;
}

/** The `serve` command. */
export function serveCommand(): Command {
  const command = defineCommand('serve')
    .summary('run an MCP server over stdio or Streamable HTTP')
    .description(
      'Run an MCP server over stdio (the default: a host starts it as a child process), or over Streamable ' +
        'HTTP with --http. Over stdio, stdout carries nothing but JSON-RPC messages; logs go to stderr.',
    )
    .argument(
      '<server>',
      'everything, github, or the path of a JS/TS module whose default (or "server") export is a Server or a function returning one',
    )
    .option(
      '--http <port>',
      'serve Streamable HTTP at http://<host>:<port>/mcp instead of stdio (0: any free port)',
      parsePort,
    )
    .option('--host <address>', 'with --http: the interface to listen on', '127.0.0.1')
    .option(
      '--allow-host <name>',
      'with --http: also accept requests whose Host header names this (repeatable; loopback names and --host always are)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option(
      '--auth <mode>',
      'with --http: require OAuth access tokens; "dev" starts the development authorization server beside it (for development only)',
      parseAuthMode,
    )
    .option(INSECURE_NETWORK_FLAG, `with --auth dev: ${INSECURE_NETWORK_HELP}`)
    .option(
      '--no-sessions',
      'with --http: keep no handshake-era sessions, serving each POST on its own (replicas behind a load balancer); the server then cannot ask those clients anything',
    )
    .option(
      '--max-sessions <n>',
      'with --http: handshake-era sessions at most; at the cap a new one evicts the longest-idle session (default 10000)',
      parseCount,
    )
    .option(
      '--max-sessions-per-client <n>',
      "with --http: sessions of one client (its token's principal, else its address) at most; past it the client's own longest-idle session is evicted (default 100)",
      parseCount,
    )
    .addOption(
      new Option(
        '--era <era>',
        'the protocol eras to speak: both; handshake (initialize only, as a 2025 server: server/discover is an unknown method); stateless (2026-07-28 only: initialize is refused with -32022)',
      )
        .choices(['both', 'handshake', 'stateless'])
        .default('both'),
    )
    .option(
      '--redis <url>',
      'with --http: run as one node of many, keeping handshake-era sessions, the messages between nodes (answers to ' +
        "the server's requests, cancellations, list changes, session ends) and resumable SSE events in this Redis " +
        '(redis:// or rediss://, password allowed; it is never printed); every node given the same URL serves every ' +
        'session, so any round-robin balancer fits. Redis unreachable at start: exit 3; later: 503 until it is back. No HTTP+SSE (/sse) then',
    )
    .option(
      '--redis-cluster <urls>',
      'with --http: as --redis, on a Redis Cluster: the URLs (comma-separated) of one or more of its nodes, ' +
        "from which the others are found; the first URL's user and password apply to every node. A failover " +
        '(a replica promoted) answers 503 until the cluster serves every slot again',
    )
    .option(
      '--db <file>',
      'github only: its SQLite database file, or :memory: for a fresh one per run (default: mcpwire/github.sqlite3 in your data directory: $XDG_DATA_HOME or ~/.local/share, ~/Library/Application Support, %LOCALAPPDATA%)',
    )
    .action(async (server: string, options: ServeOptions, self: Command) => {
      checkOptions(options, self);
      process.exitCode = await runServe(server, options);
    });
  return addExamples(command, [
    ['mcpwire serve everything', 'every MCP feature over stdio, for a host or an inspector to start'],
    [
      'mcpwire serve everything --era handshake',
      'a 2025-only server (no server/discover), e.g. to test a bridge or a client fallback',
    ],
    ['mcpwire serve github --db ./tracker.db', 'the GitHub-like server, keeping its data in tracker.db'],
    ['mcpwire serve everything --http 3000', 'Streamable HTTP at http://127.0.0.1:3000/mcp'],
    [
      'mcpwire serve everything --http 3000 --auth dev',
      'the same, protected by OAuth with a development authorization server',
    ],
    [
      'mcpwire serve everything --http 3000 --no-sessions',
      'no handshake-era sessions: any replica can serve any request',
    ],
    [
      'mcpwire serve everything --http 3001 --redis redis://127.0.0.1:6379',
      'one node of several sharing sessions through Redis, behind any round-robin balancer',
    ],
    [
      'mcpwire serve everything --http 3001 --redis-cluster redis://10.0.0.5:6379,redis://10.0.0.6:6379',
      'the same on a Redis Cluster',
    ],
    [
      'mcpwire serve ./my-server.ts --http 8080 --host 0.0.0.0 --allow-host myhost.lan',
      'your own server, reachable from the network',
    ],
  ]);
}

function checkOptions(options: ServeOptions, command: Command): void {
  if (options.http !== undefined) {
    if (options.redis !== undefined && options.redisCluster !== undefined)
      throw new UsageError(
        '--redis and --redis-cluster name where the nodes share their state: give one or the other',
      );
    for (const [flag, value] of [
      ['--redis', options.redis],
      ['--redis-cluster', options.redisCluster],
    ] as const) {
      if (value !== undefined && !options.sessions)
        throw new UsageError(
          `${flag} shares handshake-era sessions, and --no-sessions keeps none: give one or the other`,
        );
    }
    if (options.auth === 'dev')
      checkDevAuthHost(
        options.host ?? '127.0.0.1',
        options.insecureDevAuthOnNetwork === true,
        'mcpwire serve --auth dev',
      );
    return;
  }
  const explicit = (name: string): boolean => command.getOptionValueSource(name) === 'cli';
  if (explicit('host') || options.allowHost !== undefined)
    throw new UsageError('--host and --allow-host apply with --http <port> (see "mcpwire serve --help")');
  if (options.auth !== undefined)
    throw new UsageError('--auth applies with --http <port> (see "mcpwire serve --help")');
  if (!options.sessions)
    throw new UsageError('--no-sessions applies with --http <port> (see "mcpwire serve --help")');
  if (options.redis !== undefined)
    throw new UsageError('--redis applies with --http <port> (see "mcpwire serve --help")');
  if (options.redisCluster !== undefined)
    throw new UsageError('--redis-cluster applies with --http <port> (see "mcpwire serve --help")');
  if (options.maxSessions !== undefined || options.maxSessionsPerClient !== undefined)
    throw new UsageError(
      '--max-sessions and --max-sessions-per-client apply with --http <port> (see "mcpwire serve --help")',
    );
}

async function runServe(name: string, options: ServeOptions): Promise<ExitCodeValue> {
  try {
    return await serveUntilStopped(name, options);
  } finally {
    // Leave even if a handler still holds a timer (STDIO-2: exit when stdin closes), or a Redis
    // client that could not connect is still retrying.
    setTimeout(() => process.exit(), EXIT_GRACE_MS).unref();
  }
}

async function serveUntilStopped(name: string, options: ServeOptions): Promise<ExitCodeValue> {
  // Before the server loads: a bad URL is a usage error (exit 2), shown without its password.
  if (options.redis !== undefined)
    (await import('../../http-serving/redis-stores.ts')).checkRedisUrl(options.redis);
  const redisCluster =
    options.redisCluster === undefined
      ? undefined
      : (await import('../../http-serving/redis-stores.ts')).parseRedisClusterUrls(options.redisCluster);
  // Loaded on demand: `serve` never loads the client, and the HTTP stack only with --http.
  const { loadServer } = await import('./server-source.ts');
  const server = await loadServer(name, { db: options.db });
  restrictEras(server, options.era, name);
  // Both close the server when they finish, which releases what it holds (github's database).
  if (options.http !== undefined) {
    const { serveOverHttp } = await import('../../http-serving/serve-over-http.ts');
    await serveOverHttp(server, {
      port: options.http,
      host: options.host ?? '127.0.0.1',
      ...(options.allowHost === undefined ? {} : { allowedHosts: options.allowHost }),
      ...(options.auth === undefined ? {} : { auth: options.auth }),
      sessions: options.sessions,
      ...(options.maxSessions === undefined ? {} : { maxSessions: options.maxSessions }),
      ...(options.maxSessionsPerClient === undefined
        ? {}
        : { maxSessionsPerClient: options.maxSessionsPerClient }),
      ...(options.redis === undefined ? {} : { redis: options.redis }),
      ...(redisCluster === undefined ? {} : { redisCluster }),
    });
  } else {
    const { serveStdio } = await import('mcpwire/stdio');
    await serveStdio(server);
  }
  return ExitCode.ok;
}

/** Applies `--era` to a server built with the library's Server (or ServerCore), which has `eras`. */
function restrictEras(server: object, era: ServedEras, name: string): void {
  if (era === 'both') return;
  if (!('eras' in server))
    throw new UsageError(
      `--era ${era} needs a server built with mcpwire's Server or ServerCore; "${name}" exports another kind of server (leave --era out)`,
    );
  (server as { eras: ServedEras }).eras = era;
}

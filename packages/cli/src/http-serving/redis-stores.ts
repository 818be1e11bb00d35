// `serve --http --redis <url>` (or `--redis-cluster <url>[,<url>]`): the handler's session store,
// message bus and event store on Redis or a Redis Cluster (@mcpwire/redis, issue 24), so several
// `serve` processes behind one balancer serve the same sessions. Loaded only with those options; a URL
// may carry a password, so it is only ever shown redacted.

import type { RedisStores } from '@mcpwire/redis';
import { CliError, ExitCode, UsageError } from '../exit-code.ts';
import { Redactor } from '../wire/redact.ts';

/** `url` with its password (and credential-named query parameters) replaced, for messages. */
export function redactRedisUrl(url: string): string {
  return new Redactor().url(url);
}

/** Throws a UsageError (exit 2) unless `url` is a `redis://` or `rediss://` URL; the message shows it redacted. */
export function checkRedisUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new UsageError('--redis expects a URL such as redis://127.0.0.1:6379 or rediss://:password@host');
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:')
    throw new UsageError(
      `--redis expects a redis:// or rediss:// URL, not ${redactRedisUrl(url)} (e.g. redis://127.0.0.1:6379)`,
    );
}

/** Where the nodes share their state: one Redis (`--redis`) or a cluster's root nodes (`--redis-cluster`). */
export type RedisTarget = { readonly url: string } | { readonly clusterUrls: readonly string[] };

/**
 * The URLs of `--redis-cluster <url>[,<url>]` (empty items skipped), each checked as checkRedisUrl
 * does; throws a UsageError (exit 2) for none or one that is not `redis://` or `rediss://`.
 */
export function parseRedisClusterUrls(value: string): string[] {
  const urls = value
    .split(',')
    .map((url) => url.trim())
    .filter((url) => url !== '');
  if (urls.length === 0)
    throw new UsageError(
      "--redis-cluster expects the URL of at least one of the cluster's nodes, e.g. redis://127.0.0.1:7000,redis://127.0.0.1:7001",
    );
  for (const url of urls) {
    let protocol: string | undefined;
    try {
      protocol = new URL(url).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol !== 'redis:' && protocol !== 'rediss:')
      throw new UsageError(
        `--redis-cluster expects redis:// or rediss:// URLs, not ${protocol === undefined ? 'a malformed one' : redactRedisUrl(url)} (e.g. redis://127.0.0.1:7000,redis://127.0.0.1:7001)`,
      );
  }
  return urls;
}

/** How messages name `target`: its URL(s), redacted, and what it is. */
export function describeRedisTarget(target: RedisTarget): string {
  return 'url' in target
    ? `Redis at ${redactRedisUrl(target.url)}`
    : `the Redis Cluster at ${target.clusterUrls.map(redactRedisUrl).join(', ')}`;
}

/**
 * Connects the stores at `target` (one Redis's URL, or a cluster's nodes). The first connection error before they are ready fails the start
 * with exit 3 (connection): a node that cannot reach its Redis says so at once rather than listening
 * and answering every request 503 (a typo in the URL is found at once, and a supervisor restarts
 * it). Once running, connection errors go to `onError` and requests that need Redis are answered
 * 503 until it is back (the library's StoreUnavailableError), without restarting the node.
 */
export async function connectRedisStores(
  target: RedisTarget,
  onError: (error: Error) => void,
): Promise<RedisStores> {
  const { createRedisStores } = await import('@mcpwire/redis').catch((error: unknown) => {
    // An optional peer of the CLI: installed beside it only by those who run nodes on Redis.
    throw new CliError(
      `${'url' in target ? '--redis' : '--redis-cluster'} needs the @mcpwire/redis package installed beside mcpwire (npm install -g @mcpwire/redis)`,
      ExitCode.usage,
      { cause: error },
    );
  });
  let state: 'starting' | 'running' | 'failed' = 'starting';
  let failStart: (error: Error) => void = () => {};
  const failed = new Promise<never>((_resolve, reject) => (failStart = reject));
  const report = (error: Error): void => {
    if (state === 'starting') failStart(error);
    else if (state === 'running') onError(error);
    // 'failed': the client retries until the process exits; the first error was the one to say.
  };
  try {
    const options =
      'url' in target
        ? { url: target.url, onError: report }
        : { clusterUrls: target.clusterUrls, onError: report };
    const stores = await Promise.race([createRedisStores(options), failed]);
    state = 'running';
    return stores;
  } catch (error) {
    state = 'failed';
    // node-redis's words name the address (ECONNREFUSED 127.0.0.1:6379), never the password.
    const why = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot connect to ${describeRedisTarget(target)}: ${why}`, ExitCode.connection, {
      cause: error,
    });
  }
}

/** What a library Server has for keys shared by several nodes (`ServerCore.setRequestStateKeys`). */
interface KeyedServer {
  setRequestStateKeys(keys: { keys: string[] }): void;
}

/**
 * Gives `server` the nodes' shared requestState keys from Redis, so that a 2026-07-28 input round
 * sealed by one node is opened by any other. A server that cannot take keys (not a library Server)
 * is left with its own, and stderr says what that costs.
 */
export async function shareRequestStateKeys(server: object, stores: RedisStores): Promise<void> {
  if (typeof (server as Partial<KeyedServer>).setRequestStateKeys !== 'function') {
    process.stderr.write(
      'mcpwire: this server takes no shared requestState keys: a 2026-07-28 input round must come back to the node that started it\n',
    );
    return;
  }
  (server as KeyedServer).setRequestStateKeys({ keys: await stores.requestStateKeys() });
}

/** What the tasks extension value (`tasks()` of mcpwire/extensions/tasks) has for another store. */
interface TaskRunnerLike {
  useStore(store: RedisStores['tasks']): void;
}

/**
 * Moves the runner of every tasks extension of `server` (a library Server's `options.extensions`) to
 * the Redis task store, so a task created through one node is read, cancelled and awaited through
 * any. Returns how many runners it moved.
 */
export function shareTaskStore(server: object, stores: RedisStores): number {
  const extensions = (server as { options?: { extensions?: readonly unknown[] } }).options?.extensions ?? [];
  let moved = 0;
  for (const extension of extensions) {
    const runner = (extension as { runner?: Partial<TaskRunnerLike> }).runner;
    if (typeof runner?.useStore !== 'function') continue;
    runner.useStore(stores.tasks);
    moved++;
  }
  return moved;
}

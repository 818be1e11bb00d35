// A real redis-server for tests of any package (the CLI's `serve --redis`, the conformance run through
// a proxy): Debian's package, installed with apt when it is missing and the tests run as root (as CI
// does), otherwise a reason to skip; each instance listens on a free 127.0.0.1 port with a temp dir and
// no persistence (or, when asked, an append-only file), and stops with `await using`.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, type TestContext } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { createClient } from 'redis';
import { debianPackageSkipReason } from './debian-package.ts';
import { freePort } from './free-port.ts';

/** Where Debian's redis-server package puts the server. */
export const REDIS_SERVER_PATH = '/usr/bin/redis-server';

/**
 * Resolves with undefined when redis-server is there (installing it first when missing and root),
 * or with the reason a test should skip. Rejects when the install was tried and failed. Runs apt once.
 */
export function redisSkipReason(): Promise<string | undefined> {
  return debianPackageSkipReason(REDIS_SERVER_PATH, 'redis-server');
}

/** A running redis-server; disposing stops it and removes its directory. */
export interface RedisServer extends AsyncDisposable {
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Stops the server (SIGTERM, then waits for its exit); idempotent. */
  stop(): Promise<void>;
  /** SIGTERM, then waits for the exit, keeping the directory (its data files) for `restart()`. */
  terminate(): Promise<void>;
  /** Starts the server again on the same port and directory (after `terminate()`); resolves once it answers PING. */
  restart(): Promise<void>;
}

/** How the server keeps its data. */
export interface RedisServerOptions {
  /**
   * `always`: `appendonly yes` with `appendfsync always` (every write is in the file before Redis
   * answers it), so a `restart()` loads every write Redis acknowledged. Default: no persistence.
   */
  readonly appendOnly?: 'always';
}

/** Starts redis-server on a free 127.0.0.1 port and resolves once it answers PING. */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpwire-redis-'));
  const port = await freePort();
  const persistence =
    options.appendOnly === 'always'
      ? ['--appendonly', 'yes', '--appendfsync', 'always']
      : ['--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence];
  const url = `redis://127.0.0.1:${port}`;
  let running: { stop(): Promise<void> } | undefined;
  const stop = async (): Promise<void> => {
    await running?.stop();
    await rm(dir, { recursive: true, force: true });
  };
  const terminate = async (): Promise<void> => {
    await running?.stop();
  };
  const restart = async (): Promise<void> => {
    await terminate();
    running = await spawnRedis(args, url);
  };
  try {
    running = await spawnRedis(args, url);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, url, stop, terminate, restart, [Symbol.asyncDispose]: stop };
}

/** What a suite starts: anything it can stop (a redis-server, a cluster, nodes over either). */
export interface Stoppable {
  stop(): Promise<void>;
}

/** A suite's Redis, started by its `before` hook and stopped by its `after` hook. */
export interface SuiteRedis<T extends Stoppable> {
  /** Skips `t` (saying why) and returns true when the suite cannot run: call it first in each test. */
  skipped(t: TestContext): boolean;
  /** What `start` resolved with; throws when read in a skipped suite or before the hook ran. */
  readonly server: T;
}

/** What a suite starts beyond the default, and what else it needs. */
export interface SuiteRedisOptions<T extends Stoppable> {
  readonly start: () => Promise<T>;
  /** Another reason to skip, asked only when redis-server is there (e.g. `haproxySkipReason`). */
  readonly skipReason?: () => Promise<string | undefined>;
}

/**
 * Registers `before` and `after` hooks on the enclosing `describe`: one redis-server (or what
 * `options.start` makes) for all its tests, started once redis-server (and `options.skipReason`'s
 * need) is there, stopped after the last test.
 */
export function redisForSuite(): SuiteRedis<RedisServer>;
export function redisForSuite<T extends Stoppable>(options: SuiteRedisOptions<T>): SuiteRedis<T>;
export function redisForSuite(
  options: SuiteRedisOptions<Stoppable> = { start: startRedisServer },
): SuiteRedis<Stoppable> {
  let skip: string | undefined;
  let started: Stoppable | undefined;
  before(async () => {
    skip = (await redisSkipReason()) ?? (await options.skipReason?.());
    if (skip === undefined) started = await options.start();
  });
  after(() => started?.stop());
  return {
    skipped(t) {
      if (skip === undefined) return false;
      t.skip(skip);
      return true;
    },
    get server() {
      if (started === undefined) throw new Error(`no Redis for this suite: ${skip ?? 'not started yet'}`);
      return started;
    },
  };
}

/** Spawns one redis-server process and resolves once it answers PING (rejects, stopped, if it does not); `stop` sends SIGTERM and awaits its exit. */
async function spawnRedis(args: readonly string[], url: string): Promise<{ stop(): Promise<void> }> {
  const child = spawn(REDIS_SERVER_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForPing(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

/** What redis-server prints once it accepts connections (after loading its data). */
const READY_LINE = 'Ready to accept connections';

/** PINGs until the server answers (it listens a moment after it starts); fails if it exits first. */
async function waitForPing(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode}):\n${output()}`);
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => {});
    try {
      await client.connect();
      const pong = await client.ping();
      if (pong === 'PONG') return;
    } catch {
      // Not listening yet, or still loading its data: wait for its "Ready to accept connections"
      // line, or its exit. The line may have come while this PING failed (then no more output may
      // come): past the line, a PING that still failed is taken again after a short moment.
      if (output().includes(READY_LINE)) await delay(20);
      else
        await new Promise<void>((resolve) => {
          const onData = (): void => resolve();
          child.stdout?.once('data', onData);
          child.once('exit', () => resolve());
        });
    } finally {
      if (client.isOpen) client.destroy();
    }
  }
}

// A real three-master Redis Cluster for tests (issue 24): three `redis-server --cluster-enabled yes` on
// free 127.0.0.1 ports (each with its cluster bus port, +10000, free too), and a replica of each when
// asked, joined by `redis-cli --cluster create`, ready once every node says `cluster_state:ok` (and
// every replica is in sync with its master); stops with `await using`.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createClient } from 'redis';
import { freePort } from './free-port.ts';
import { REDIS_SERVER_PATH } from './redis-server.ts';
import { runToEnd } from './run-to-end.ts';

/** Where Debian's redis-server package (the same as redis-server's) puts the client. */
const REDIS_CLI_PATH = '/usr/bin/redis-cli';

/** A Redis Cluster node's cluster bus listens at its port + 10000 (Redis's fixed offset). */
const BUS_OFFSET = 10_000;

/** One running cluster node. */
export interface ClusterNode {
  readonly port: number;
  readonly url: string;
  readonly child: ChildProcess;
}

/** A running cluster; disposing stops every node and removes their directories. */
export interface RedisCluster extends AsyncDisposable {
  readonly nodes: readonly ClusterNode[];
  /** Every node's `redis://127.0.0.1:<port>`: the root nodes a client discovers the cluster from. */
  readonly urls: readonly string[];
  stop(): Promise<void>;
}

/** Whether `port` can be bound on 127.0.0.1 right now. */
async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) {
    server.close();
    await once(server, 'close');
  }
  return bound;
}

/** A free port whose cluster bus port is free too. */
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port + BUS_OFFSET <= 65_535 && (await isFree(port + BUS_OFFSET))) return port;
  }
}

/** Starts one cluster-enabled redis-server in `dir`; resolves once it says it is ready. */
async function startNode(dir: string, port: number): Promise<ClusterNode> {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    join(dir, 'nodes.conf'),
    '--cluster-node-timeout',
    '2000',
  ];
  const child = spawn(REDIS_SERVER_PATH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}):\n${output}`)));
  });
  return { port, url: `redis://127.0.0.1:${port}`, child };
}

/**
 * Waits until `url`'s node answers `command` with a text that `isReady` accepts; polling, since
 * Redis announces no such event.
 */
export async function waitForNode(
  url: string,
  command: readonly string[],
  isReady: (reply: string) => boolean,
): Promise<void> {
  const client = createClient({ url, socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  await client.connect();
  try {
    while (!isReady(String(await client.sendCommand([...command])))) await delay(50);
  } finally {
    client.destroy();
  }
}

/** `INFO replication`'s text says the node is a replica whose link to its master is up (or a master). */
export function isInSync(info: string): boolean {
  return info.includes('role:master') || info.includes('master_link_status:up');
}

/**
 * Starts a three-master cluster, with `replicas` replicas of each master (default none), and
 * resolves once every node reports `cluster_state:ok` and every replica is in sync, so a client
 * connected afterwards finds every slot served.
 */
export async function startRedisCluster(options: { replicas?: number } = {}): Promise<RedisCluster> {
  const replicas = options.replicas ?? 0;
  const count = 3 * (1 + replicas);
  const dirs: string[] = [];
  const nodes: ClusterNode[] = [];
  const stop = async (): Promise<void> => {
    for (const node of nodes) {
      const exited = once(node.child, 'exit');
      if (node.child.exitCode === null && node.child.signalCode === null) node.child.kill('SIGTERM');
      await exited.catch(() => {});
    }
    nodes.length = 0;
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let index = 0; index < count; index++) {
      const dir = await mkdtemp(join(tmpdir(), 'mcpwire-redis-cluster-'));
      dirs.push(dir);
      nodes.push(await startNode(dir, await freeClusterPort()));
    }
    const addresses = nodes.map((node) => `127.0.0.1:${node.port}`);
    const created = await runToEnd(REDIS_CLI_PATH, [
      '--cluster',
      'create',
      ...addresses,
      '--cluster-replicas',
      String(replicas),
      '--cluster-yes',
    ]);
    if (created.code !== 0) throw new Error(`redis-cli --cluster create failed:\n${created.output}`);
    for (const node of nodes) {
      await waitForNode(node.url, ['CLUSTER', 'INFO'], (info) => info.includes('cluster_state:ok'));
      await waitForNode(node.url, ['INFO', 'replication'], isInSync);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  const urls = nodes.map((node) => node.url);
  return { nodes, urls, stop, [Symbol.asyncDispose]: stop };
}

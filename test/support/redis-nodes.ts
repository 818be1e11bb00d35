// Many `mcpwire serve <server> --http 0 --redis <url>` (or `--redis-cluster <urls>`) nodes as real
// child processes, and a real HAProxy in front of them in round-robin with no affinity (issue 24):
// every request of one client may land on any node. The proxy names the node that answered in an
// `X-Mcpwire-Node` header.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { cliChildEnv, MCPWIRE_ARGV, ROOT_DIR } from './cli-child.ts';
import { debianPackageSkipReason } from './debian-package.ts';
import { freePort } from './free-port.ts';

/** The response header HAProxy adds: the name (`node1`...) of the node that answered. */
export const NODE_HEADER = 'x-mcpwire-node';

/** Where the nodes keep their state: one Redis's URL (`--redis`), or a cluster's nodes (`--redis-cluster`). */
export type RedisTarget = string | { readonly clusterUrls: readonly string[] };

/** The `serve` options that name `target`. */
export function redisFlags(target: RedisTarget): string[] {
  return typeof target === 'string' ? ['--redis', target] : ['--redis-cluster', target.clusterUrls.join(',')];
}

/** One `serve --redis` process: its endpoint and what it wrote on stderr so far. */
export interface ServeNode extends AsyncDisposable {
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
}

/**
 * Starts `mcpwire serve <args...> --http 0 --redis <url>` (or `--redis-cluster <urls>`) from source
 * and resolves once it said where it listens (on stderr, as `serve --http` always does); rejects with
 * its stderr if it exits first.
 */
export async function startServeNode(
  target: RedisTarget,
  args: readonly string[] = ['everything'],
): Promise<ServeNode> {
  const child = spawn(
    MCPWIRE_ARGV[0]!,
    [...MCPWIRE_ARGV.slice(1), 'serve', ...args, '--http', '0', ...redisFlags(target)],
    { cwd: ROOT_DIR, env: cliChildEnv({ NO_COLOR: '1' }), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = once(child, 'exit');
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const match = /serving MCP over Streamable HTTP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', (code, signal) =>
      reject(new Error(`serve --redis exited (${code ?? signal}) before listening:\n${stderr}`)),
    );
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { url, child, stderr: () => stderr, [Symbol.asyncDispose]: stop };
}

/** Where Debian's haproxy package puts it. */
const HAPROXY_PATH = '/usr/sbin/haproxy';

/**
 * Resolves with undefined when haproxy is there (installing it with apt first when missing and root),
 * or with the reason a test should skip. Rejects when the install was tried and failed. Runs apt once.
 */
export function haproxySkipReason(): Promise<string | undefined> {
  return debianPackageSkipReason(HAPROXY_PATH, 'haproxy');
}

/**
 * The proxy configuration of the multi-node set-up (docs/design.md "Many nodes on Redis" shows it):
 * round-robin, no stickiness, and `http-server-close` so each request of a kept-alive client
 * connection is balanced on its own. SSE streams stay open as long as the client keeps them
 * (`timeout tunnel`, long client and server timeouts).
 */
export function haproxyConfig(
  port: number,
  nodes: readonly string[],
  backendLines: readonly string[] = [],
): string {
  const servers = nodes.map((url, index) => {
    const { host } = new URL(url);
    return `  server node${index + 1} ${host}`;
  });
  return [
    'defaults',
    '  mode http',
    '  timeout connect 5s',
    '  timeout client 1h',
    '  timeout server 1h',
    '  timeout tunnel 1h',
    '  option http-server-close',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    `  http-response set-header ${NODE_HEADER} %s`,
    ...backendLines,
    ...servers,
    '',
  ].join('\n');
}

/** A running HAProxy: the MCP endpoint through it. */
export interface Haproxy extends AsyncDisposable {
  readonly url: string;
}

/**
 * Starts haproxy in the foreground in front of `nodes` (their `/mcp` URLs), with `backendLines` added
 * to the backend section; resolves once it accepts connections.
 */
export async function startHaproxy(
  nodes: readonly string[],
  options: { backendLines?: readonly string[] } = {},
): Promise<Haproxy> {
  const dir = await mkdtemp(join(tmpdir(), 'mcpwire-haproxy-'));
  const port = await freePort();
  const config = join(dir, 'haproxy.cfg');
  await writeFile(config, haproxyConfig(port, nodes, options.backendLines));
  const child = spawn(HAPROXY_PATH, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitForListener(port, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}/mcp`, [Symbol.asyncDispose]: stop };
}

/**
 * Connects until the port accepts. HAProxy says nothing when it is ready, so there is no event to
 * await: each refused attempt waits a short moment before the next; an exit ends the wait.
 */
async function waitForListener(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`haproxy exited (${child.exitCode ?? child.signalCode}):\n${output()}`);
    const socket = connect(port, '127.0.0.1');
    const isOpen = await new Promise<boolean>((resolve) => {
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    socket.destroy();
    if (isOpen) return;
    await delay(20);
  }
}

/** Nodes behind one proxy; disposing stops the proxy, then the nodes. */
export interface ProxiedNodes extends AsyncDisposable {
  /** The endpoint through the proxy. */
  readonly url: string;
  readonly nodes: readonly ServeNode[];
}

/** Starts `count` `serve --redis` (or `--redis-cluster`) nodes on `target` and HAProxy in front of them. */
export async function startProxiedNodes(
  target: RedisTarget,
  options: { count?: number; args?: readonly string[] } = {},
): Promise<ProxiedNodes> {
  const nodes: ServeNode[] = [];
  const stopNodes = async (): Promise<void> => {
    for (const node of nodes) await node[Symbol.asyncDispose]();
  };
  try {
    for (let index = 0; index < (options.count ?? 3); index++)
      nodes.push(await startServeNode(target, options.args));
    const proxy = await startHaproxy(nodes.map((node) => node.url));
    return {
      url: proxy.url,
      nodes,
      [Symbol.asyncDispose]: async () => {
        await proxy[Symbol.asyncDispose]();
        await stopNodes();
      },
    };
  } catch (error) {
    await stopNodes();
    throw error;
  }
}

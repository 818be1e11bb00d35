// Two MCP server nodes sharing one real redis-server or Redis Cluster: a handler over a server of the
// same definition on each, each served on its own 127.0.0.1 port, with the stores of createRedisStores.

import { Server } from 'mcpwire/server';
import { createHttpHandler } from 'mcpwire/http';
import { serveHttp, type HttpServerHandle } from 'mcpwire/node';
import { createRedisStores } from '../../src/create-redis-stores.ts';

/** Where the nodes' stores connect: one Redis's URL, or a cluster's root nodes. */
export type StoresTarget = { readonly url: string } | { readonly clusterUrls: readonly string[] };

/** One node: its server (tests register more tools on it) and its HTTP handle. */
export interface McpNode {
  readonly server: Server;
  readonly handle: HttpServerHandle;
}

/** Calls of the `wait_for_cancel` tool, by node name. */
export interface NodeEvents {
  readonly started: Promise<void>;
  readonly aborted: Promise<void>;
  readonly cancelled: string[];
  /** Lets every waiting `two_steps` call take its second step. */
  release(): void;
}

function createNodeServer(
  name: string,
  events: { onStarted(): void; onAborted(): void; cancelled: string[]; released: Promise<void> },
) {
  const server = new Server({ name: 'mcpwire-redis-nodes', version: '0.0.0' });
  server.tool(
    { name: 'echo', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } },
    (args) => (typeof args.message === 'string' ? `${args.message} from ${name}` : name),
  );
  server.tool({ name: 'ask' }, async (_args, ctx) => {
    const schema = { type: 'object' as const, properties: { username: { type: 'string' as const } } };
    const { action, content } = await ctx.elicit({ mode: 'form', message: 'who?', requestedSchema: schema });
    return `${action} ${JSON.stringify(content ?? {})} on ${name}`;
  });
  server.tool({ name: 'wait_for_cancel' }, async (_args, ctx) => {
    events.onStarted();
    await new Promise<void>((resolve) =>
      ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
    );
    events.cancelled.push(name);
    events.onAborted();
    return 'cancelled';
  });
  // Logs a line, waits for the test's release, logs another and answers: a stream to resume.
  server.tool({ name: 'two_steps' }, async (_args, ctx) => {
    await ctx.log('info', `one on ${name}`);
    await events.released;
    await ctx.log('info', `two on ${name}`);
    return `done on ${name}`;
  });
  return server;
}

/** Starts nodes `a` and `b` over `target`'s Redis; disposing closes both and their connections. */
export async function twoRedisNodes(target: StoresTarget) {
  let onStarted = (): void => {};
  let onAborted = (): void => {};
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const aborted = new Promise<void>((resolve) => (onAborted = resolve));
  const cancelled: string[] = [];
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const closers: Array<() => Promise<void>> = [];
  const make = async (name: string): Promise<McpNode> => {
    const stores = await createRedisStores(target);
    closers.push(() => stores.close());
    const server = createNodeServer(name, { onStarted, onAborted, cancelled, released });
    const handler = createHttpHandler(server, { keepAliveMs: 0, ...stores });
    const handle = await serveHttp(handler, { port: 0 });
    closers.unshift(() => handle.close());
    return { server, handle };
  };
  const a = await make('a');
  const b = await make('b');
  const events: NodeEvents = { started, aborted, cancelled, release };
  return {
    a,
    b,
    events,
    async [Symbol.asyncDispose]() {
      for (const close of closers) await close();
    },
  };
}

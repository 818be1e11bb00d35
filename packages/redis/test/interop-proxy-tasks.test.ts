// Issue 24, point 2, the task cells: per client and era that can do tasks, through three `serve
// everything --redis` nodes behind a real HAProxy in round-robin, a task created through one node,
// that node SIGKILLed while the task works, and its status read through another node: failed, with
// a message saying its worker died (slow_compute does not declare itself idempotent). Each cell has
// its own Redis and nodes, since it kills one. Apart from interop-proxy.test.ts, whose other cells
// share one set of nodes that must stay alive (and whose file would pass 400 lines).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from 'mcpwire/client';
import { tasks, TasksClient } from 'mcpwire/extensions/tasks';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import {
  haproxySkipReason,
  startProxiedNodes,
  type ProxiedNodes,
} from '../../../test/support/redis-nodes.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';
import { Exchanges } from './support/exchanges.ts';

const INFO = { name: 'interop-proxy-tasks', version: '1.0.0' };
/** Long enough never to finish by itself while the test runs. */
const SLOW = { seconds: 600, label: 'never' };
/** What a task whose worker died says (packages/redis/src/redis-task-store.ts, WORKER_LOST_MESSAGE). */
const WORKER_DIED = /the node running it stopped \(its lease was not renewed\)/;

/** What a cell needs of a client: a started task and, once its node is dead, the status it ends with. */
interface TaskPeer {
  /** Creates a slow_compute task; resolves with its id once the server answered. */
  start(): Promise<string>;
  /** Follows the task as the client does by itself (polling through the proxy) until it is terminal. */
  end(): Promise<{ status: string; statusMessage?: string | undefined }>;
  close(): Promise<void>;
}

async function v1Peer(url: string, exchanges: Exchanges): Promise<TaskPeer> {
  const client = new V1Client(INFO, { capabilities: {} });
  await client.connect(new V1Transport(new URL(url), { fetch: exchanges.fetch }));
  // The v1 client adds `task` to calls of tools it has seen listed as task-capable.
  await client.listTools();
  const stream = client.experimental.tasks
    .callToolStream({ name: 'slow_compute', arguments: SLOW })
    [Symbol.asyncIterator]();
  return {
    start: async () => {
      const first = await stream.next();
      assert.equal(first.value?.type, 'taskCreated', JSON.stringify(first.value));
      return (first.value as { task: { taskId: string } }).task.taskId;
    },
    end: async () => {
      let last: { status: string; statusMessage?: string | undefined } | undefined;
      for (let next = await stream.next(); next.done !== true; next = await stream.next())
        if (next.value.type === 'taskStatus') last = next.value.task;
      assert.ok(last, 'the v1 stream reported the task status');
      return last;
    },
    close: () => client.close(),
  };
}

async function oursPeer(
  url: string,
  exchanges: Exchanges,
  era: 'handshake' | 'stateless',
): Promise<TaskPeer> {
  const client = new Client(INFO, { era, eraCache: false, extensions: [tasks()] });
  await client.connect(
    new StreamableHttpClientTransport(url, {
      onError: () => {},
      fetch: (request) => exchanges.fetch(request),
    }),
  );
  const starting = new TasksClient(client).callToolAsTask('slow_compute', SLOW);
  return {
    start: async () => {
      const handle = await starting;
      assert.equal(typeof handle.id, 'string', 'slow_compute ran as a task');
      return handle.id!;
    },
    end: async () => {
      const handle = await starting;
      await assert.rejects(handle.result(), 'a failed task rejects its result');
      return handle.task!;
    },
    close: () => client.close(),
  };
}

/** The cells: each client in each era, or why that client has no task cell in that era. */
const CELLS: ReadonlyArray<{
  readonly name: string;
  readonly era: 'handshake' | '2026-07-28';
  readonly connect?: (url: string, exchanges: Exchanges) => Promise<TaskPeer>;
  readonly skip?: string;
}> = [
  { name: 'the official v1 client', era: 'handshake', connect: v1Peer },
  {
    name: 'the official v1 client',
    era: '2026-07-28',
    skip: 'the official v1 client (@modelcontextprotocol/sdk 1.x) speaks the handshake era only',
  },
  {
    name: 'the official v2 client',
    era: 'handshake',
    skip: 'the official v2 client (@modelcontextprotocol/client 2.4) has no tasks API: its Client has no task method, and the SDK marks the tasks/* types "2025-11-25 wire vocabulary with no SDK runtime"',
  },
  {
    name: 'the official v2 client',
    era: '2026-07-28',
    skip: 'the official v2 client (@modelcontextprotocol/client 2.4) does not implement the io.modelcontextprotocol/tasks extension: no task handle for a resultType "task", no tasks/get',
  },
  {
    name: 'our Client',
    era: 'handshake',
    connect: (url, exchanges) => oursPeer(url, exchanges, 'handshake'),
  },
  {
    name: 'our Client',
    era: '2026-07-28',
    connect: (url, exchanges) => oursPeer(url, exchanges, 'stateless'),
  },
];

/** The node process whose `node<n>` name the proxy gave. */
function nodeNamed(cluster: ProxiedNodes, name: string) {
  const node = cluster.nodes[Number(name.replace('node', '')) - 1];
  assert.ok(node, `the proxy named the node that answered: ${name}`);
  return node;
}

async function runCell(t: TestContext, connect: (url: string, exchanges: Exchanges) => Promise<TaskPeer>) {
  const skip = (await redisSkipReason()) ?? (await haproxySkipReason());
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisServer();
  await using cluster = await startProxiedNodes(redis.url);
  const exchanges = new Exchanges({ isRetryingDeadNode: true });
  const peer = await connect(cluster.url, exchanges);
  t.after(() => peer.close());
  const taskId = await peer.start();
  const call = exchanges.list.find(
    (exchange) => exchange.method === 'POST' && exchange.body.includes('"slow_compute"'),
  );
  assert.ok(call, 'the call was POSTed');
  const worker = nodeNamed(cluster, call.node);
  const exited = once(worker.child, 'exit');
  worker.child.kill('SIGKILL');
  await exited;
  const afterKill = exchanges.list.length;

  const ended = await peer.end();
  assert.equal(ended.status, 'failed', JSON.stringify(ended));
  assert.match(ended.statusMessage ?? '', WORKER_DIED);
  const reads = exchanges.list
    .slice(afterKill)
    .filter((exchange) => exchange.body.includes('"tasks/get"') && exchange.body.includes(taskId));
  assert.ok(reads.length > 0, 'the client read the task after the kill');
  for (const read of reads) assert.notEqual(read.node, call.node, 'read through another node');
}

for (const { name, era, connect, skip } of CELLS)
  test(
    `${name}, ${era}: a task whose node is SIGKILLed while it works reads failed through another node`,
    { timeout: 120_000, ...(skip === undefined ? {} : { skip }) },
    (t) => runCell(t, connect!),
  );

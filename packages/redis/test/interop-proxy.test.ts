// Issue 24, point 2: the official v1 and v2 clients and ours, through three `serve everything --redis`
// nodes behind a real HAProxy in round-robin, one test per client and case the client can express.
// Cases here: an elicitation whose answer reaches the node holding the call through another node; a
// call cancelled (handshake era: `notifications/cancelled`, which the round-robin sends to another
// node; 2026-07-28: the call's connection closed) whose abort on its node is seen through another
// (the everything server's `test_wait_for_cancel` and `test_cancellation_seen`); a list change raised
// on one node seen on the stream another node holds (handshake era: the GET stream; 2026-07-28: a
// `subscriptions/listen` stream).
// The official v1 client speaks the handshake era only. Node death
// (resumption) is node-death.test.ts, tasks through a dead node tasks-node-death.test.ts.

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { statelessRequest } from '../../../test/support/raw-mcp-http.ts';
import {
  haproxySkipReason,
  startProxiedNodes,
  type ProxiedNodes,
} from '../../../test/support/redis-nodes.ts';
import { redisForSuite, startRedisServer } from '../../../test/support/redis-server.ts';
import { Exchanges, type Exchange } from './support/exchanges.ts';

type Era = 'handshake' | '2026-07-28';

/** What the cases need of a client, whichever it is. */
interface Peer {
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
  /** Calls `name` asking for progress; `cancel` aborting cancels the call, as the client's era does it. */
  callCancellable(
    name: string,
    args: Record<string, unknown>,
    cancel: AbortSignal,
    onProgress: () => void,
  ): Promise<unknown>;
  /** The messages of the elicitations the client answered. */
  readonly asked: string[];
  /** Resolves at the next notifications/tools/list_changed. */
  toolListChanged(): Promise<void>;
  /** 2026-07-28 (the v1 client has none): opens a `subscriptions/listen` stream for tool list changes; resolves once acknowledged. */
  listen?: () => Promise<void>;
  close(): Promise<void>;
}

const ANSWER = { action: 'accept', content: { username: 'grace', email: 'grace@example.com' } } as const;
const INFO = { name: 'interop-proxy', version: '1.0.0' };

/** Resolvers of the next list change, for the clients that take one notification handler. */
function listChanges(): { readonly next: () => Promise<void>; readonly fire: () => void } {
  const waiting: Array<() => void> = [];
  return {
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
    fire: () => waiting.splice(0).forEach((resolve) => resolve()),
  };
}

async function connectOurs(url: string, exchanges: Exchanges, era: Era): Promise<Peer> {
  const asked: string[] = [];
  const client = new Client(INFO, {
    era: era === 'handshake' ? 'handshake' : 'stateless',
    handlers: {
      elicitation: (params) => {
        asked.push(params.message);
        return ANSWER;
      },
    },
  });
  await client.connect(
    new StreamableHttpClientTransport(url, {
      onError: () => {},
      fetch: (request) => exchanges.fetch(request),
    }),
  );
  return {
    asked,
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    callCancellable: (name, args, signal, onProgress) =>
      client.callTool({ name, arguments: args }, { signal, onProgress }),
    toolListChanged: () => new Promise((resolve) => client.on('toolsListChanged', () => resolve())),
    listen: async () => {
      await client.listen({ toolsListChanged: true }).acknowledged;
    },
    close: () => client.close(),
  };
}

async function connectV1(url: string, exchanges: Exchanges): Promise<Peer> {
  const asked: string[] = [];
  const changes = listChanges();
  const client = new V1Client(INFO, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return ANSWER;
  });
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changes.fire());
  await client.connect(new V1Transport(new URL(url), { fetch: exchanges.fetch }));
  return {
    asked,
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    callCancellable: (name, args, signal, onprogress) =>
      client.callTool({ name, arguments: args }, undefined, { signal, onprogress }),
    toolListChanged: changes.next,
    close: () => client.close(),
  };
}

async function connectV2(url: string, exchanges: Exchanges, era: Era): Promise<Peer> {
  const asked: string[] = [];
  const changes = listChanges();
  const client = new V2Client(
    INFO,
    era === 'handshake'
      ? {
          versionNegotiation: { mode: 'legacy' },
          supportedProtocolVersions: ['2025-11-25'],
          capabilities: { elicitation: { form: {} } },
        }
      : { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', (request) => {
    asked.push(request.params.message);
    return ANSWER;
  });
  client.setNotificationHandler('notifications/tools/list_changed', () => changes.fire());
  await client.connect(new V2Transport(new URL(url), { fetch: exchanges.fetch }));
  return {
    asked,
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    callCancellable: (name, args, signal, onprogress) =>
      client.callTool({ name, arguments: args }, { signal, onprogress }),
    toolListChanged: changes.next,
    listen: async () => {
      await client.listen({ toolsListChanged: true });
    },
    close: () => client.close(),
  };
}

/** The matrix's rows: each client in each era it speaks. */
const CLIENTS: ReadonlyArray<{
  readonly name: string;
  readonly era: Era;
  readonly connect: (url: string, exchanges: Exchanges) => Promise<Peer>;
}> = [
  { name: 'the official v1 client', era: 'handshake', connect: connectV1 },
  {
    name: 'the official v2 client',
    era: 'handshake',
    connect: (url, exchanges) => connectV2(url, exchanges, 'handshake'),
  },
  {
    name: 'the official v2 client',
    era: '2026-07-28',
    connect: (url, exchanges) => connectV2(url, exchanges, '2026-07-28'),
  },
  {
    name: 'our Client',
    era: 'handshake',
    connect: (url, exchanges) => connectOurs(url, exchanges, 'handshake'),
  },
  {
    name: 'our Client',
    era: '2026-07-28',
    connect: (url, exchanges) => connectOurs(url, exchanges, '2026-07-28'),
  },
];

/** One redis-server and three nodes on it behind HAProxy; `stop` stops the proxy and nodes, then Redis. */
async function startNodes(): Promise<{ readonly nodes: ProxiedNodes; stop(): Promise<void> }> {
  const redis = await startRedisServer();
  try {
    const nodes = await startProxiedNodes(redis.url);
    return { nodes, stop: async () => (await nodes[Symbol.asyncDispose](), await redis.stop()) };
  } catch (error) {
    await redis.stop();
    throw error;
  }
}

/** The POSTs of `exchanges` from index `from` on that carry a tools/call. */
function callPosts(exchanges: Exchanges, from: number): Exchange[] {
  return exchanges.list
    .slice(from)
    .filter((exchange) => exchange.method === 'POST' && exchange.body.includes('"method":"tools/call"'));
}

describe('interop through three nodes behind HAProxy on one redis-server', () => {
  const redis = redisForSuite({ start: startNodes, skipReason: haproxySkipReason });

  for (const { name, era, connect } of CLIENTS) {
    test(`${name}, ${era}: an elicitation answered through another node than the one holding the call`, async (t) => {
      if (redis.skipped(t)) return;
      const cluster = redis.server.nodes;
      const exchanges = new Exchanges();
      const peer = await connect(cluster.url, exchanges);
      t.after(() => peer.close());
      const from = exchanges.list.length;
      const result = await peer.callTool('test_elicitation', { message: 'who?' });
      assert.deepEqual(peer.asked, ['who?']);
      assert.match(JSON.stringify(result), /grace@example\.com/);
      await exchanges.settled();
      const [call, retry] = callPosts(exchanges, from);
      assert.ok(call, 'the call was POSTed');
      // The handshake era POSTs the answer as a response; 2026-07-28 retries the call with it.
      const answer =
        era === 'handshake'
          ? exchanges.list
              .slice(from)
              .find(
                (exchange) =>
                  exchange.method === 'POST' &&
                  /"result"/.test(exchange.body) &&
                  !/"method"/.test(exchange.body),
              )
          : retry;
      assert.ok(answer, `the answer was POSTed: ${JSON.stringify(exchanges.list.slice(from))}`);
      assert.notEqual(answer.node, call.node, 'the answer went through another node');
      const initializes = exchanges.list.filter((exchange) =>
        exchange.body.includes('"method":"initialize"'),
      );
      assert.equal(initializes.length, era === 'handshake' ? 1 : 0, `the ${era} era`);
    });

    test(`${name}, ${era}: a call cancelled ${era === 'handshake' ? 'through another node (notifications/cancelled)' : '(its connection closed)'} aborts on its node, seen through another node`, async (t) => {
      if (redis.skipped(t)) return;
      const cluster = redis.server.nodes;
      const exchanges = new Exchanges();
      const peer = await connect(cluster.url, exchanges);
      t.after(() => peer.close());
      const key = randomUUID();
      const from = exchanges.list.length;
      const cancel = new AbortController();
      // Cancelled once the call reports progress: it runs on its node, so the cancellation cannot overtake it.
      const calling = peer.callCancellable('test_wait_for_cancel', { key }, cancel.signal, () =>
        cancel.abort(new Error('cancelled by the test')),
      );
      await assert.rejects(calling, 'the cancelled call rejects');
      // The 2026-07-28 era has no notifications/cancelled over HTTP: the client closes the call's
      // connection, which the proxy closes on the node running it, so only the observation crosses.
      const seen = await peer.callTool('test_cancellation_seen', { key });
      assert.match(JSON.stringify(seen), new RegExp(`cancelled: ${key}`));
      await exchanges.settled();
      const posts = exchanges.list.slice(from).filter((exchange) => exchange.method === 'POST');
      const call = posts.find((exchange) => exchange.body.includes('"test_wait_for_cancel"'));
      const cancelled = posts.find((exchange) => exchange.body.includes('"notifications/cancelled"'));
      const check = posts.find((exchange) => exchange.body.includes('"test_cancellation_seen"'));
      assert.ok(call && check, `the calls were POSTed: ${JSON.stringify(posts)}`);
      assert.notEqual(check.node, call.node, 'the cancellation was seen through another node');
      if (era === 'handshake') {
        assert.ok(cancelled, `notifications/cancelled was POSTed: ${JSON.stringify(posts)}`);
        assert.notEqual(cancelled.node, call.node, 'the cancellation went through another node');
      } else assert.equal(cancelled, undefined, 'no notifications/cancelled in the 2026-07-28 era');
    });

    test(`${name}, ${era}: a list change raised on one node reaches the ${era === 'handshake' ? 'GET' : 'subscriptions/listen'} stream another node holds`, async (t) => {
      if (redis.skipped(t)) return;
      const cluster = redis.server.nodes;
      const exchanges = new Exchanges();
      const peer = await connect(cluster.url, exchanges);
      t.after(() => peer.close());
      let holder: string;
      if (era === 'handshake') holder = await exchanges.getStreamNode();
      else {
        await peer.listen!();
        const listen = exchanges.list.find((exchange) =>
          exchange.body.includes('"method":"subscriptions/listen"'),
        );
        assert.ok(listen, 'the listen stream was POSTed');
        holder = listen.node;
      }
      const raiser = cluster.nodes.find((_node, index) => `node${index + 1}` !== holder);
      assert.ok(raiser, `a node other than ${holder}`);
      const changed = peer.toolListChanged();
      const raised = await statelessRequest(raiser.url, 'tools/call', {
        name: 'test_trigger_tool_change',
        arguments: {},
      });
      assert.equal(raised.status, 200);
      await changed;
    });
  }
});

// Issue 24, point 3: Redis stopped and restarted under load. Three `serve everything --redis` nodes
// behind a real HAProxy in round-robin on one real redis-server; handshake-era sessions POST
// tools/call and 2026-07-28 clients send requests, in concurrent loops through our Client; Redis is
// stopped with SIGTERM in the middle and started again on the same port. Every failed request was a
// 503 with Retry-After (never a 500, a 404 for a session that existed, or a hang: each request has a
// bound), every node is still up, every session made before the stop is still served after it under
// its id without a new initialize, and requests succeed again on all three nodes, none restarted.
//
// Persistence: `appendonly yes` with `appendfsync always`. A session is in Redis once the store's
// write was answered, and with `always` that write is in the file before Redis answers, so the
// restarted Redis has every session the nodes were told it stored. A SAVE right before the stop
// would miss whatever the load wrote between the SAVE and the SIGTERM.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from 'mcpwire/client';
import { HttpError, StreamableHttpClientTransport } from 'mcpwire/http';
import { initializeMessage, postRaw } from '../../../test/support/raw-mcp-http.ts';
import { haproxySkipReason, NODE_HEADER, startProxiedNodes } from '../../../test/support/redis-nodes.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';

/** The bound on one request (the Client's request timeout): a request still unanswered then is a hang. */
const REQUEST_BOUND_MS = 30_000;

/** Handshake-era sessions and 2026-07-28 clients, each a loop of its own. */
const HANDSHAKE_LOOPS = 4;
const STATELESS_LOOPS = 2;

async function skipReason(): Promise<string | undefined> {
  return (await redisSkipReason()) ?? (await haproxySkipReason());
}

/** What one loop's HTTP exchanges were: statuses by phase, the session ids it sent, its initializes. */
interface Traffic {
  /** Each POST's status, Retry-After, the node that answered, and the phase it was sent in. */
  readonly posts: Array<{ status: number; retryAfter: string | null; node: string | null; phase: Phase }>;
  readonly sessionIds: Set<string>;
  initializes: number;
}

type Phase = 'before' | 'outage' | 'after';

/** A fetch for the Client's transport that records every exchange in `traffic`. */
function recording(traffic: Traffic, phase: () => Phase): (request: Request) => Promise<Response> {
  return async (request) => {
    const sent = phase();
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) traffic.sessionIds.add(sessionId);
    if (request.method === 'POST' && (await request.clone().text()).includes('"method":"initialize"'))
      traffic.initializes++;
    const response = await fetch(request);
    if (request.method === 'POST')
      traffic.posts.push({
        status: response.status,
        retryAfter: response.headers.get('retry-after'),
        node: response.headers.get(NODE_HEADER),
        phase: sent,
      });
    return response;
  };
}

/** A promise and what settles it, for the test's events (first success, first 503, every node seen). */
function signal(): { promise: Promise<void>; resolve(): void } {
  let resolve = (): void => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

test('Redis stopped (SIGTERM) and restarted under load: only 503s with Retry-After, nodes up, sessions kept, service back on every node', async (t) => {
  const skip = await skipReason();
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisServer({ appendOnly: 'always' });
  await using cluster = await startProxiedNodes(redis.url);
  let phase: Phase = 'before';
  let isLoading = true;
  // The loops end with the test, whatever its outcome.
  t.after(() => (isLoading = false));

  const loops: Array<{ era: 'handshake' | 'stateless'; client: Client; traffic: Traffic }> = [];
  for (let index = 0; index < HANDSHAKE_LOOPS + STATELESS_LOOPS; index++) {
    const era = index < HANDSHAKE_LOOPS ? 'handshake' : 'stateless';
    const traffic: Traffic = { posts: [], sessionIds: new Set(), initializes: 0 };
    const client = new Client(
      { name: `restart-load-${index}`, version: '1' },
      {
        era,
        requestTimeoutMs: REQUEST_BOUND_MS,
        handlers: { elicitation: () => ({ action: 'accept', content: { username: 'u', email: 'u@e' } }) },
      },
    );
    await client.connect(
      new StreamableHttpClientTransport(cluster.url, {
        onError: () => {},
        fetch: recording(traffic, () => phase),
      }),
    );
    t.after(() => client.close());
    loops.push({ era, client, traffic });
  }
  for (const loop of loops.filter((each) => each.era === 'handshake'))
    assert.equal(loop.traffic.sessionIds.size, 1, 'the session has its id');

  // The load: each loop calls a tool, one call at a time, until told to stop; a failed call is kept.
  const failures: Array<{ loop: number; phase: Phase; error: unknown }> = [];
  const loadedBefore = signal();
  const failedDuring = signal();
  const metOutage = new Set<number>();
  const backOnEveryNode = signal();
  const servedAfter = new Set<string>();
  let callsBefore = 0;
  const running = loops.map(async ({ client, era }, index) => {
    while (isLoading) {
      const sent = phase;
      try {
        const result = await client.callTool({ name: 'test_simple_text', arguments: {} });
        assert.equal(result.isError ?? false, false);
        if (sent === 'before' && ++callsBefore >= loops.length * 3) loadedBefore.resolve();
      } catch (error) {
        failures.push({ loop: index, phase: sent, error });
        if (sent === 'outage' && era === 'handshake') metOutage.add(index);
        if (metOutage.size === HANDSHAKE_LOOPS) failedDuring.resolve();
      }
      if (sent === 'after') {
        for (const post of loops[index]!.traffic.posts)
          if (post.phase === 'after' && post.status === 200 && post.node !== null) servedAfter.add(post.node);
        if (servedAfter.size === cluster.nodes.length) backOnEveryNode.resolve();
      }
    }
  });

  await loadedBefore.promise;
  phase = 'outage';
  await redis.terminate();
  // Redis stays down until the load met the outage (a call of every session failed), then comes back.
  await failedDuring.promise;
  await redis.restart();
  phase = 'after';
  await backOnEveryNode.promise;
  // A 200 above may come from a node's cache of the session (an established POST needs no Redis round
  // trip) while that node's own connection is still in node-redis's reconnect backoff (up to 2 s).
  // Back means each node stores a new session again: an initialize sent to it directly, until 200.
  const storeStatuses = await Promise.all(cluster.nodes.map((node) => untilStoresSession(node.url)));
  isLoading = false;
  await Promise.all(running);

  // Every failed call was the library's HttpError for a 503 with Retry-After, nothing else.
  for (const { loop, phase: when, error } of failures) {
    assert.ok(
      error instanceof HttpError,
      `loop ${loop} (${when}): ${error instanceof Error ? error.stack : String(error)}`,
    );
    assert.equal(error.status, 503, `loop ${loop} (${when}): ${error.message}`);
    assert.match(error.headers.get('retry-after') ?? '', /^\d+$/, `loop ${loop}: ${error.message}`);
  }
  // On the wire too: every POST was answered 200, 202 or 503 (with Retry-After).
  for (const [index, { traffic }] of loops.entries())
    for (const post of traffic.posts) {
      assert.ok([200, 202, 503].includes(post.status), `loop ${index} (${post.phase}): ${post.status}`);
      if (post.status === 503) assert.match(post.retryAfter ?? '', /^\d+$/);
    }
  // While a node's connection came back, its answers to initialize were 503s with Retry-After too.
  for (const [index, statuses] of storeStatuses.entries())
    for (const { status, retryAfter } of statuses.slice(0, -1)) {
      assert.equal(status, 503, `node${index + 1}: initialize answered ${status} after the restart`);
      assert.match(retryAfter ?? '', /^\d+$/);
    }
  assert.ok(
    failures.some((failure) => failure.phase === 'outage'),
    'the load met the outage',
  );

  // No node crashed or was restarted.
  for (const [index, node] of cluster.nodes.entries())
    assert.ok(
      node.child.exitCode === null && node.child.signalCode === null,
      `node${index + 1} is up:\n${node.stderr()}`,
    );

  // Every handshake-era session made before the stop is still served, under its id, without a new
  // initialize: a call whose elicitation is answered by a POST that the proxy sends to the next node.
  for (const [index, { era, client, traffic }] of loops.entries()) {
    if (era !== 'handshake') continue;
    const result = await client.callTool({
      name: 'test_elicitation',
      arguments: { message: 'still there?' },
    });
    assert.match(JSON.stringify(result.content), /accept/, `loop ${index}: ${JSON.stringify(result)}`);
    assert.equal(traffic.initializes, 1, `loop ${index}: one initialize`);
    assert.equal(
      traffic.sessionIds.size,
      1,
      `loop ${index}: one session id, ${[...traffic.sessionIds].join(', ')}`,
    );
  }

  // The bus's subscriptions made before the outage came back with Redis: a list change raised on
  // whichever node takes the call reaches every session's GET stream, held since before the stop.
  const changed = loops
    .filter((loop) => loop.era === 'handshake')
    .map(({ client }) => new Promise<void>((resolve) => client.on('toolsListChanged', () => resolve())));
  await loops[0]!.client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
  await bounded(Promise.all(changed), 'every session got notifications/tools/list_changed');
});

/**
 * POSTs `initialize` to one node (not through the proxy) until it answers 200, which takes a write of
 * the new session to Redis; a short pause between tries, for at most REQUEST_BOUND_MS. Resolves with
 * every answer's status.
 */
async function untilStoresSession(
  nodeUrl: string,
): Promise<Array<{ status: number; retryAfter: string | null }>> {
  const statuses: Array<{ status: number; retryAfter: string | null }> = [];
  const deadline = Date.now() + REQUEST_BOUND_MS;
  while (Date.now() < deadline) {
    const reply = await postRaw(nodeUrl, initializeMessage());
    statuses.push({ status: reply.status, retryAfter: reply.headers.get('retry-after') });
    if (reply.status === 200) return statuses;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${nodeUrl} did not store a session within ${REQUEST_BOUND_MS} ms: ${JSON.stringify(statuses)}`,
  );
}

/** `promise`, or a rejection naming `what` once REQUEST_BOUND_MS passed (a hang fails the test). */
async function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`not within ${REQUEST_BOUND_MS} ms: ${what}`)),
      REQUEST_BOUND_MS,
    );
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

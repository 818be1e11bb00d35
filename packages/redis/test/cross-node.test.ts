// Issue 24 on one real redis-server and on a real three-master Redis Cluster: two nodes (handlers over
// servers of one definition, each on its own 127.0.0.1 port) share createRedisStores' session store,
// bus and event store. A session made on A is served on B; DELETE on B ends it on A; the answer to
// ctx.elicit on A POSTed to B reaches A; a cancellation POSTed to B aborts the handler on A; a list
// change raised on B reaches A's GET stream; Last-Event-ID on B resumes A's stream.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { HttpServerHandle } from 'mcpwire/node';
import { twoRedisNodes, type StoresTarget } from './support/nodes.ts';
import { redisForSuite, startRedisServer } from '../../../test/support/redis-server.ts';
import { startRedisCluster } from '../../../test/support/redis-cluster.ts';
import { SseFrames } from './support/sse.ts';
import { answerOf, open, postTo } from './support/mcp-http.ts';

/** A running Redis (one server or a cluster): where the nodes' stores connect, and how to stop it. */
interface RunningRedis {
  readonly target: StoresTarget;
  stop(): Promise<void>;
}

async function oneServer(): Promise<RunningRedis> {
  const server = await startRedisServer();
  return { target: { url: server.url }, stop: () => server.stop() };
}

async function threeMasters(): Promise<RunningRedis> {
  const cluster = await startRedisCluster();
  return { target: { clusterUrls: cluster.urls }, stop: () => cluster.stop() };
}

for (const [where, start] of [
  ['one redis-server', oneServer],
  ['a three-master Redis Cluster', threeMasters],
] as const)
  describe(`two nodes on ${where}`, () => {
    const redis = redisForSuite({ start });

    test('a session made on A is served on B; DELETE on B gives 404 on A', async (t) => {
      if (redis.skipped(t)) return;
      await using nodes = await twoRedisNodes(redis.server.target);
      const headers = await open(nodes.a.handle);
      const call = {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { message: 'hi' } },
      };
      const onB = await answerOf(await postTo(nodes.b.handle, call, headers));
      assert.deepEqual((onB.result as { content: unknown }).content, [{ type: 'text', text: 'hi from b' }]);
      const deleted = await fetch(nodes.b.handle.url, { method: 'DELETE', headers });
      assert.equal(deleted.status, 204);
      assert.equal(
        (await postTo(nodes.a.handle, { jsonrpc: '2.0', id: 2, method: 'ping' }, headers)).status,
        404,
      );
    });

    test('the answer to ctx.elicit on A, POSTed to B, reaches the handler waiting on A', async (t) => {
      if (redis.skipped(t)) return;
      await using nodes = await twoRedisNodes(redis.server.target);
      const headers = await open(nodes.a.handle);
      const call = await postTo(
        nodes.a.handle,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask' } },
        headers,
      );
      const reader = new SseFrames(call);
      const request = await reader.nextMessage();
      assert.equal(request.method, 'elicitation/create');
      const answer = await postTo(
        nodes.b.handle,
        { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { username: 'u' } } },
        headers,
      );
      assert.equal(answer.status, 202);
      const result = await reader.nextMessage();
      assert.equal(result.id, 1);
      assert.deepEqual((result.result as { content: unknown }).content, [
        { type: 'text', text: 'accept {"username":"u"} on a' },
      ]);
    });

    test('elicitations sent at once by A and by B in one session: each answer, POSTed to the other node, reaches its sender only', async (t) => {
      if (redis.skipped(t)) return;
      await using nodes = await twoRedisNodes(redis.server.target);
      const headers = await open(nodes.a.handle);
      const ask = (handle: HttpServerHandle, id: number) =>
        postTo(handle, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask' } }, headers);
      const onA = new SseFrames(await ask(nodes.a.handle, 1));
      const onB = new SseFrames(await ask(nodes.b.handle, 2));
      const requestOfA = await onA.nextMessage();
      const requestOfB = await onB.nextMessage();
      assert.notDeepEqual(requestOfA.id, requestOfB.id, 'two requests of one session, two ids');
      const answer = (id: unknown, username: string) => ({
        jsonrpc: '2.0',
        id,
        result: { action: 'accept', content: { username } },
      });
      assert.equal((await postTo(nodes.b.handle, answer(requestOfA.id, 'x'), headers)).status, 202);
      assert.equal((await postTo(nodes.a.handle, answer(requestOfB.id, 'y'), headers)).status, 202);
      const texts = [await onA.nextMessage(), await onB.nextMessage()].map(
        (result) => (result.result as { content: Array<{ text: string }> }).content[0]?.text,
      );
      assert.deepEqual(texts, ['accept {"username":"x"} on a', 'accept {"username":"y"} on b']);
    });

    test('notifications/cancelled POSTed to B aborts the handler running on A', async (t) => {
      if (redis.skipped(t)) return;
      await using nodes = await twoRedisNodes(redis.server.target);
      const headers = await open(nodes.a.handle);
      const gone = new AbortController();
      const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait_for_cancel' } };
      const call = postTo(nodes.a.handle, body, headers, gone.signal).catch(() => undefined);
      await nodes.events.started;
      const cancel = await postTo(
        nodes.b.handle,
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7, reason: 'no' } },
        headers,
      );
      assert.equal(cancel.status, 202);
      await nodes.events.aborted;
      assert.deepEqual(nodes.events.cancelled, ['a']);
      gone.abort();
      await call;
    });

    test('Last-Event-ID on B resumes a stream A writes: what was written, then what A writes later, once each', async (t) => {
      if (redis.skipped(t)) return;
      await using nodes = await twoRedisNodes(redis.server.target);
      const headers = await open(nodes.a.handle);
      const call = await postTo(
        nodes.a.handle,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'two_steps' } },
        headers,
      );
      const first = new SseFrames(call);
      const priming = await first.next();
      assert.ok(priming?.id, 'a priming event with an id');
      const one = await first.next();
      assert.equal((JSON.parse(one!.data) as { params: { data: unknown } }).params.data, 'one on a');
      await first.cancel();
      const resumed = await fetch(nodes.b.handle.url, {
        headers: { ...headers, Accept: 'text/event-stream', 'Last-Event-ID': priming.id },
      });
      assert.equal(resumed.status, 200);
      const second = new SseFrames(resumed);
      // The first event is the replay (not a priming event of a new GET stream).
      const replayed = await second.next();
      assert.equal(replayed?.id, one!.id);
      nodes.events.release();
      const frames = (await second.rest()).filter((frame) => frame.data !== '');
      const texts = frames.map((frame) => {
        const message = JSON.parse(frame.data) as {
          params?: { data: unknown };
          result?: { content: Array<{ text: unknown }> };
        };
        return message.params?.data ?? message.result?.content[0]?.text;
      });
      assert.deepEqual(texts, ['two on a', 'done on a']);
      const ids = [priming.id, one!.id, ...frames.map((frame) => frame.id)];
      assert.equal(new Set(ids).size, ids.length, `no event twice: ${ids.join(' ')}`);
    });

    test("a list change raised on B's server reaches the GET stream held by A", async (t) => {
      if (redis.skipped(t)) return;
      await using nodes = await twoRedisNodes(redis.server.target);
      const headers = await open(nodes.a.handle);
      const stream = await fetch(nodes.a.handle.url, {
        headers: { ...headers, Accept: 'text/event-stream' },
      });
      assert.equal(stream.status, 200);
      const reader = new SseFrames(stream);
      nodes.b.server.tool({ name: 'late_tool' }, () => 'late');
      const notification = await reader.nextMessage();
      assert.equal(notification.method, 'notifications/tools/list_changed');
      await reader.cancel();
    });
  });

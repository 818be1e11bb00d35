// Issue 24, point 5, on one real redis-server: an established session's POST on the node where the
// session is live is served from the record that node holds (RedisSessionStore.recordCacheMs), so it
// makes no Redis round trip; DELETE through another node still ends the session there before the
// client's next request (the bus), and a lost bus message is out of date for at most recordCacheMs.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createClient } from 'redis';
import { twoRedisNodes } from './support/nodes.ts';
import { answerOf, open, postTo } from './support/mcp-http.ts';
import { redisForSuite } from '../../../test/support/redis-server.ts';

/** Calls of one command so far, from Redis's own `INFO commandstats`. */
async function callsOf(url: string, command: string): Promise<number> {
  const client = createClient({ url });
  await client.connect();
  try {
    const text = await client.info('commandstats');
    return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(text)?.[1] ?? 0);
  } finally {
    client.destroy();
  }
}

const echo = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { message: String(id) } },
});

describe('an established POST on Redis', () => {
  const redis = redisForSuite();

  test('of a session live on the node reads no record: ten POSTs, no HGETALL', async (t) => {
    if (redis.skipped(t)) return;
    // A minute: the test's POSTs all fall within it, however slow the machine.
    const target = { url: redis.server.url, recordCacheMs: 60_000 };
    await using nodes = await twoRedisNodes(target);
    const headers = await open(nodes.a.handle);
    const before = await callsOf(redis.server.url, 'hgetall');
    for (let id = 1; id <= 10; id++) {
      const answer = await answerOf(await postTo(nodes.a.handle, echo(id), headers));
      assert.deepEqual((answer.result as { content: unknown }).content, [
        { type: 'text', text: `${id} from a` },
      ]);
    }
    assert.equal((await callsOf(redis.server.url, 'hgetall')) - before, 0);
  });

  test('DELETE through B: the next POST through A gets 404 (the bus, not a read, tells A)', async (t) => {
    if (redis.skipped(t)) return;
    const target = { url: redis.server.url, recordCacheMs: 60_000 };
    await using nodes = await twoRedisNodes(target);
    const headers = await open(nodes.a.handle);
    assert.equal((await postTo(nodes.a.handle, echo(1), headers)).status, 200);
    const deleted = await fetch(nodes.b.handle.url, { method: 'DELETE', headers });
    assert.equal(deleted.status, 204);
    assert.equal((await postTo(nodes.a.handle, echo(2), headers)).status, 404);
  });

  test('a lost invalidation: the record deleted with no bus message is seen after recordCacheMs', async (t) => {
    if (redis.skipped(t)) return;
    const target = { url: redis.server.url, recordCacheMs: 60_000 };
    await using nodes = await twoRedisNodes(target);
    const headers = await open(nodes.a.handle);
    assert.equal((await postTo(nodes.a.handle, echo(1), headers)).status, 200);
    const client = createClient({ url: redis.server.url });
    await client.connect();
    try {
      // What a lost `sessionEnded` leaves: the record gone, node A not told.
      assert.equal(await client.del(`mcp:{${headers['Mcp-Session-Id']}}:session`), 1);
    } finally {
      client.destroy();
    }
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() });
    t.mock.timers.tick(60_000);
    assert.equal((await postTo(nodes.a.handle, echo(2), headers)).status, 404);
  });
});

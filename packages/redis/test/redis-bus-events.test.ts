// RedisMessageBus and RedisEventStore on a real redis-server: a message published on one connection
// reaches the subscribers of another, in order, and a throwing listener does not stop the others;
// events appended on one connection replay on another after any id, and an unknown or trimmed id
// gives undefined.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createClient } from 'redis';
import { RedisEventStore } from '../src/redis-event-store.ts';
import { RedisMessageBus } from '../src/redis-message-bus.ts';
import { RedisKeys } from '../src/keys.ts';
import { redisForSuite } from '../../../test/support/redis-server.ts';

describe('on a real redis-server', () => {
  const clients: { destroy(): void }[] = [];
  // Before redisForSuite's hooks: node:test runs `after` hooks in the order they were registered, and
  // a client must be gone before its server stops.
  after(() => {
    for (const client of clients) client.destroy();
  });
  const redis = redisForSuite();
  const connect = async () => {
    const client = createClient({ url: redis.server.url });
    await client.connect();
    clients.push(client);
    return client;
  };

  test('RedisMessageBus: what node A publishes reaches node B and A, in order; a throwing listener does not stop the next; unsubscribe ends delivery', async (t) => {
    if (redis.skipped(t)) return;
    const errors: Error[] = [];
    await using a = new RedisMessageBus(await connect(), { onError: (error) => errors.push(error) });
    await using b = new RedisMessageBus(await connect(), { onError: (error) => errors.push(error) });
    const seen: string[] = [];
    let onThird = (): void => {};
    const third = new Promise<void>((resolve) => (onThird = resolve));
    await b.subscribe('topic', () => {
      throw new Error('a bad listener');
    });
    const stopB = await b.subscribe('topic', (message) => {
      seen.push(`b:${String(message.n)}`);
    });
    await a.subscribe('topic', (message) => {
      seen.push(`a:${String(message.n)}`);
      if (message.n === 3) onThird();
    });
    await b.subscribe('other', (message) => seen.push(`other:${String(message.n)}`));
    for (const n of [1, 2, 3]) await a.publish('topic', { n });
    await third;
    // B's subscriber connection has read them too by now or soon: wait for its third.
    while (seen.filter((item) => item.startsWith('b:')).length < 3) await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      seen.filter((item) => item.startsWith('b:')),
      ['b:1', 'b:2', 'b:3'],
    );
    assert.deepEqual(
      seen.filter((item) => item.startsWith('a:')),
      ['a:1', 'a:2', 'a:3'],
    );
    assert.ok(errors.some((error) => error.message === 'a bad listener'));
    stopB();
    await b.subscribe('topic', () => {}); // a round trip on B's connection after the unsubscribe
    await a.publish('topic', { n: 4 });
    await a.publish('other', { n: 5 });
    while (!seen.includes('other:5')) await new Promise((r) => setImmediate(r));
    assert.ok(!seen.includes('b:4'), 'an ended subscription gets nothing');
    assert.ok(!seen.includes('other:1'), 'a message reaches only its topic');
  });

  test('RedisMessageBus: messages published while a subscriber connection is away reach it once it is back, once each, in order', async (t) => {
    if (redis.skipped(t)) return;
    const errors: Error[] = [];
    await using a = new RedisMessageBus(await connect());
    await using b = new RedisMessageBus(await connect(), { onError: (error) => errors.push(error) });
    const admin = await connect();
    const seen: number[] = [];
    await b.subscribe('replayed', (message) => seen.push(message.n as number));
    // B's subscriber connection is killed three times while A publishes one message at a time: some
    // are published while it reconnects, which pub/sub alone never delivers to it.
    const last = 300;
    for (let n = 1; n <= last; n++) {
      if (n % 100 === 50) await admin.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
      await a.publish('replayed', { n });
    }
    const deadline = Date.now() + 10_000;
    while (seen.at(-1) !== last && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const expected = Array.from({ length: last }, (_, index) => index + 1);
    const missing = expected.filter((n) => !seen.includes(n));
    assert.deepEqual(missing, [], `missed while away (errors: ${errors.map((e) => e.message).join('; ')})`);
    assert.deepEqual(seen, expected, 'each once, in order');
  });

  test('RedisMessageBus: a message pub/sub lost (in the log, never published) reaches the subscriber before the next one, in order', async (t) => {
    if (redis.skipped(t)) return;
    await using a = new RedisMessageBus(await connect());
    await using b = new RedisMessageBus(await connect());
    const admin = await connect();
    const seen: number[] = [];
    await b.subscribe('gap', (message) => seen.push(message.n as number));
    await a.publish('gap', { n: 1 });
    // What a subscription moving between nodes loses: the entry is in the log, its copy never arrives.
    await admin.sendCommand(['XADD', new RedisKeys().topicLog('gap'), '*', 'm', '{"n":2}']);
    await a.publish('gap', { n: 3 });
    const deadline = Date.now() + 10_000;
    while (!seen.includes(3) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(seen, [1, 2, 3]);
  });

  test('RedisMessageBus: a last message pub/sub lost is read from the log at the next check, once', async (t) => {
    if (redis.skipped(t)) return;
    await using b = new RedisMessageBus(await connect(), { catchUpIntervalMs: 20 });
    const admin = await connect();
    const seen: number[] = [];
    await b.subscribe('trailing', (message) => seen.push(message.n as number));
    await admin.sendCommand(['XADD', new RedisKeys().topicLog('trailing'), '*', 'm', '{"n":1}']);
    const deadline = Date.now() + 10_000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    // Several more checks find nothing new.
    await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(seen, [1]);
  });

  test('RedisEventStore: appended on A, replayed on B after any id; unknown, dropped and trimmed ids give undefined', async (t) => {
    if (redis.skipped(t)) return;
    const a = new RedisEventStore(await connect());
    const b = new RedisEventStore(await connect());
    const priming = await a.append('stream-1', '');
    const first = await a.append('stream-1', '{"n":1}');
    const second = await a.append('stream-1', '{"n":2}');
    await a.append('stream-2', '{"other":true}');
    assert.match(first, /^stream-1:\d+-\d+$/);
    assert.deepEqual(await b.replayAfter(priming), {
      streamId: 'stream-1',
      events: [
        { id: first, data: '{"n":1}' },
        { id: second, data: '{"n":2}' },
      ],
    });
    assert.deepEqual(await b.replayAfter(second), { streamId: 'stream-1', events: [] });
    assert.equal(await b.replayAfter('stream-1:99999999999999-0'), undefined);
    assert.equal(await b.replayAfter('stream-1:1'), undefined);
    assert.equal(await b.replayAfter('no-colon'), undefined);
    await b.drop('stream-1');
    assert.equal(await a.replayAfter(priming), undefined);
    const small = new RedisEventStore(await connect(), { maxEventsPerStream: 1 });
    const ids: string[] = [];
    for (let n = 0; n < 300; n++) ids.push(await small.append('stream-3', String(n)));
    assert.equal(await small.replayAfter(ids[0]!), undefined, 'the first event was trimmed');
    assert.deepEqual((await small.replayAfter(ids[298]!))?.events, [{ id: ids[299], data: '299' }]);
  });
});

// RedisRequestLeases on a real redis-server (issue 24, node death): a lease held and renewed is
// `held`; answered, `none` and its keys gone; given up, `lost` at once; no longer renewed (its node
// stopped), `lost` once it ran out; of two nodes settling one stream at once, one claims it.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createClient } from 'redis';
import { RedisRequestLeases } from '../src/request-leases.ts';
import { redisForSuite } from '../../../test/support/redis-server.ts';

describe('RedisRequestLeases', () => {
  const redis = redisForSuite();

  async function connect() {
    const client = createClient({ url: redis.server.url });
    await client.connect();
    return Object.assign(client, { [Symbol.asyncDispose]: async () => void client.destroy() });
  }

  /** Leases over their own connection (a node), short enough for a test to outlive. */
  async function node(client: Awaited<ReturnType<typeof connect>>) {
    const errors: Error[] = [];
    const leases = new RedisRequestLeases(client, {
      prefix: 'leases-test',
      leaseMs: 1_000,
      renewMs: 100,
      onError: (error) => errors.push(error),
    });
    return Object.assign(leases, { errors });
  }

  test('held while renewed (past its lease time); answered: none, and no key is left', async (t) => {
    if (redis.skipped(t)) return;
    await using client = await connect();
    await using a = await node(client);
    await using b = await node(client);
    const lease = a.hold('s1', [1, 'two']);
    // Its holder renews it: the settle waits out the lease time (twice) and finds it held still.
    assert.deepEqual(await b.settle('s1'), { state: 'held' });
    lease.end(true);
    assert.deepEqual(await b.settle('s1'), { state: 'none' });
    assert.deepEqual(await client.keys('leases-test:*'), []);
    assert.deepEqual(a.errors, []);
  });

  test('given up (its session closed with requests unanswered): lost at once, claimed once', async (t) => {
    if (redis.skipped(t)) return;
    await using client = await connect();
    await using a = await node(client);
    await using b = await node(client);
    a.hold('s2', [7]).end(false);
    assert.deepEqual(await b.settle('s2'), { state: 'lost', requestIds: [7] });
    assert.deepEqual(await b.settle('s2'), { state: 'none' }, 'claimed: nobody answers it again');
  });

  test('its node stopped renewing: lost once it ran out, to exactly one of two settling nodes', async (t) => {
    if (redis.skipped(t)) return;
    await using client = await connect();
    await using other = await connect();
    const a = await node(client);
    a.hold('s3', ['x', 8]);
    // The holder's first write is done (a command sent after it on the same connection has an answer).
    await client.ping();
    await a.close();
    await using b = await node(client);
    await using c = await node(other);
    const outcomes = await Promise.all([b.settle('s3'), c.settle('s3')]);
    const lost = outcomes.filter((outcome) => outcome.state === 'lost');
    assert.equal(lost.length, 1, JSON.stringify(outcomes));
    assert.deepEqual(lost[0], { state: 'lost', requestIds: ['x', 8] });
    assert.deepEqual(
      outcomes.filter((outcome) => outcome.state !== 'lost'),
      [{ state: 'none' }],
    );
    assert.deepEqual(await client.keys('leases-test:*'), []);
  });

  test('no lease at all: none', async (t) => {
    if (redis.skipped(t)) return;
    await using client = await connect();
    await using b = await node(client);
    assert.deepEqual(await b.settle('never-held'), { state: 'none' });
  });
});

// Sessions as state (issue 23): a handshake-era session's facts live in a plain record behind a
// SessionStore, which the live objects read and write. A store that JSON-round-trips every record
// it is given or gives proves the record is plain data and that nothing reads a private field.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { ENDPOINT, post, sseMessages, type Loose } from '../../../test/support/http-kit.ts';
import { JsonRoundTripStore } from '../../../test/support/json-session-store.ts';
import type { SessionRecord } from '../../protocol/session-record.ts';
import { createHttpHandler } from './handler.ts';
import { InMemorySessionStore, updateFenced } from './session-store.ts';

type Body = Record<string, Loose>;

function setup() {
  const server = createFixtureServer();
  server.tool({ name: 'log_info' }, async (_args, ctx) => {
    await ctx.log('info', 'an info line');
    return 'logged';
  });
  const store = new JsonRoundTripStore();
  const handler = createHttpHandler(server, { keepAliveMs: 0, sessions: store });
  return { server, store, handler };
}

describe('sessions as state: the session record', () => {
  test('a session runs through a store that JSON-round-trips every record: initialize, setLevel, subscribe, tools/call, DELETE', async () => {
    const { store, handler } = setup();
    const init = await handler(
      post({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: { roots: {} },
          clientInfo: { name: 'round-trip', version: '7' },
        },
      }),
    );
    assert.equal(init.status, 200);
    const sessionId = init.headers.get('mcp-session-id');
    assert.ok(sessionId);
    const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' };
    const send = (body: unknown) => handler(post(body, headers));
    assert.equal((await send({ jsonrpc: '2.0', method: 'notifications/initialized' })).status, 202);

    const created = await store.get(sessionId);
    assert.ok(created);
    assert.equal(created.id, sessionId);
    assert.equal(created.protocolVersion, '2025-11-25');
    assert.deepEqual(created.clientCapabilities, { roots: {} });
    assert.deepEqual(created.clientInfo, { name: 'round-trip', version: '7' });
    assert.equal(created.principal, undefined);

    const setLevel = await send({
      jsonrpc: '2.0',
      id: 1,
      method: 'logging/setLevel',
      params: { level: 'warning' },
    });
    assert.equal(setLevel.status, 200);
    const leveled = await store.get(sessionId);
    assert.equal(leveled?.logLevel, 'warning');
    assert.ok(leveled.revision > created.revision, 'a change raises the revision');

    // The level is read from the record: an info line does not pass "warning"...
    const quiet = await sseOrJson(
      await send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'log_info' } }),
    );
    assert.deepEqual(
      quiet.map((message) => message.method ?? 'response'),
      ['response'],
    );
    // ...and a level written into the store by someone else is the one the session applies.
    const relaxed = store.inner.update(sessionId, leveled.revision, { logLevel: 'debug' });
    assert.ok(relaxed.ok);
    const loud = await sseOrJson(
      await send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'log_info' } }),
    );
    assert.deepEqual(
      loud.map((message) => message.method ?? 'response'),
      ['notifications/message', 'response'],
    );

    const subscribed = await send({
      jsonrpc: '2.0',
      id: 4,
      method: 'resources/subscribe',
      params: { uri: 'test://static-text' },
    });
    assert.equal(subscribed.status, 200);
    assert.deepEqual((await store.get(sessionId))?.subscriptions, ['test://static-text']);
    await send({
      jsonrpc: '2.0',
      id: 5,
      method: 'resources/unsubscribe',
      params: { uri: 'test://static-text' },
    });
    assert.deepEqual((await store.get(sessionId))?.subscriptions, []);

    // A stale revision is refused, with the current record.
    const stale = await store.update(sessionId, created.revision, { logLevel: 'error' });
    assert.equal(stale.ok, false);
    assert.equal((await store.get(sessionId))?.logLevel, 'debug');

    const deleted = await handler(new Request(ENDPOINT, { method: 'DELETE', headers }));
    assert.equal(deleted.status, 204);
    assert.equal(await store.get(sessionId), undefined);
    assert.equal((await send({ jsonrpc: '2.0', id: 6, method: 'tools/list' })).status, 404);
    assert.ok(store.written.length >= 4, 'initialize, setLevel, subscribe and unsubscribe wrote the record');
  });

  test('the in-memory store: fenced updates, idle expiry, counts per client', () => {
    const store = new InMemorySessionStore();
    const limits = { maxSessions: 2, maxSessionsPerClient: 1, idleTimeoutMs: 1_000 };
    const now = Date.now();
    const record = (id: string, at: number): SessionRecord => ({
      id,
      clientKey: 'client-a',
      createdAt: at,
      lastActiveAt: at,
      revision: 0,
    });
    const first = store.create(record('s1', now), limits);
    assert.ok('record' in first);
    assert.equal(store.count('client-a'), 1);
    // The client's cap evicts its own longest-idle session.
    const second = store.create(record('s2', now), limits);
    assert.ok('record' in second);
    assert.deepEqual(second.evicted, ['s1']);
    assert.equal(store.get('s1'), undefined);
    // A pinned session (a request in flight) is not evicted: refused.
    const third = store.create(record('s3', now), { ...limits, isPinned: (id) => id === 's2' });
    assert.deepEqual(third, { refused: { cap: 'maxSessionsPerClient', limit: 1 } });
    const updated = store.update('s2', 0, { logLevel: 'error' });
    assert.ok(updated.ok);
    assert.equal(updated.record.revision, 1);
    const stale = store.update('s2', 0, { logLevel: 'info' });
    assert.equal(stale.ok, false);
    assert.equal(stale.ok ? undefined : stale.current?.logLevel, 'error');
    // Idle expiry: untouched for idleTimeoutMs, the record is gone.
    store.touch('s2', Date.now());
    assert.ok(store.get('s2'));
    store.touch('s2', Date.now() - 1_000);
    assert.equal(store.get('s2'), undefined);
    assert.equal(store.count(), 0);
  });

  test('the in-memory store evicts in touch order, ties of the clock included, and per client past older records of others', () => {
    const store = new InMemorySessionStore();
    const limits = { maxSessions: 4, maxSessionsPerClient: 2, idleTimeoutMs: 60_000 };
    const at = Date.now();
    const record = (id: string, clientKey: string): SessionRecord => ({
      id,
      clientKey,
      createdAt: at,
      lastActiveAt: at,
      revision: 0,
    });
    const evictedBy = (id: string, clientKey: string): readonly string[] => {
      const created = store.create(record(id, clientKey), limits);
      assert.ok('record' in created);
      return created.evicted;
    };
    assert.deepEqual(evictedBy('b1', 'b'), []);
    assert.deepEqual(evictedBy('a1', 'a'), []);
    assert.deepEqual(evictedBy('a2', 'a'), []);
    // Same timestamp: the touch alone decides; a1 is now the client's last to go.
    store.touch('a1', at);
    // b1, older than both, is another client's: a's cap takes a2.
    assert.deepEqual(evictedBy('a3', 'a'), ['a2']);
    assert.equal(store.count('a'), 2);
    assert.equal(store.count('b'), 1);
    // An update keeps a record's place: b1 is still the least recently touched of all.
    assert.ok(store.update('b1', 0, { logLevel: 'info' }).ok);
    assert.deepEqual(evictedBy('c1', 'c'), []);
    assert.deepEqual(evictedBy('c2', 'c'), ['b1']);
    assert.equal(store.count('b'), 0);
    // Touching the newest changes nothing; touching the oldest moves it to the end.
    store.touch('c2', at);
    store.touch('a1', at);
    assert.deepEqual(evictedBy('d1', 'd'), ['a3']);
    assert.deepEqual(evictedBy('d2', 'd'), ['c1']);
    assert.equal(store.count(), 4);
  });

  test('updateFenced makes a change again from the record another writer stored first; undefined once it is gone', async () => {
    const store = new InMemorySessionStore();
    const limits = { maxSessions: 10, maxSessionsPerClient: 10, idleTimeoutMs: 60_000 };
    const now = Date.now();
    const created = store.create({ id: 's1', createdAt: now, lastActiveAt: now, revision: 0 }, limits);
    assert.ok('record' in created);
    let held: SessionRecord = created.record;
    // Another writer raises the revision: the held record is stale.
    const other = store.update('s1', 0, { logLevel: 'error' });
    assert.ok(other.ok);
    const seen: (string | undefined)[] = [];
    const stored = await updateFenced(
      store,
      () => held,
      (record) => (held = record),
      (facts) => {
        seen.push(facts.logLevel);
        return { ...facts, subscriptions: ['file:///a'] };
      },
    );
    assert.deepEqual(seen, [undefined, 'error'], 'made twice: from the stale facts, then from the adopted');
    assert.equal(stored?.revision, 2);
    assert.equal(stored?.logLevel, 'error');
    assert.deepEqual(stored?.subscriptions, ['file:///a']);
    store.delete('s1');
    assert.equal(
      await updateFenced(
        store,
        () => held,
        () => {},
        (facts) => facts,
      ),
      undefined,
    );
  });
});

/** The messages of a POST's answer, JSON or SSE. */
async function sseOrJson(response: Response): Promise<Body[]> {
  assert.equal(response.status, 200);
  if (response.headers.get('content-type') === 'application/json') return [(await response.json()) as Body];
  return (await sseMessages(response)) as Body[];
}

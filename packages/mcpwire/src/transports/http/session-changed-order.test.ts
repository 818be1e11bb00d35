// A change of a session's facts made through one handler reaches the bus before the request that
// made it is answered (issue 24, point 5): the other handlers serve a session live on them from the
// record they hold (SessionStore.recordCacheMs), so the client's next request, on any of them, must
// find the change there. Seen in the conformance suite through three nodes on Redis: initialize on
// node 1, notifications/initialized on node 2 (202), tools/call on node 1 refused as "before
// notifications/initialized" when node 2's sessionChanged had not reached node 1 yet.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { post } from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';
import { BusTopic, InMemoryMessageBus, type MessageBus } from './message-bus.ts';

test('the 202 of notifications/initialized waits until the bus has taken sessionChanged', async () => {
  const inner = new InMemoryMessageBus();
  let isGated = false;
  let release = (): void => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let called = (): void => {};
  const publishCalled = new Promise<void>((resolve) => (called = resolve));
  // The bus delivers at once, and says it has taken the message only when the test lets it.
  const bus: MessageBus = {
    subscribe: (topic, listener) => inner.subscribe(topic, listener),
    publish: async (topic, message) => {
      inner.publish(topic, message);
      if (!isGated || topic !== BusTopic.sessionChanged) return;
      called();
      await gate;
    },
  };
  const handler = createHttpHandler(createFixtureServer(), { keepAliveMs: 0, bus });
  try {
    const initialize = await handler(
      post({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'o', version: '1' } },
      }),
    );
    assert.equal(initialize.status, 200);
    const sessionId = initialize.headers.get('mcp-session-id');
    assert.ok(sessionId);
    isGated = true;
    const answered = handler(
      post(
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' },
      ),
    );
    let isAnswered = false;
    void answered.then(() => (isAnswered = true));
    await publishCalled;
    // Everything else the handler would do before answering has run after these turns.
    for (let turn = 0; turn < 20 && !isAnswered; turn++)
      await new Promise((resolve) => setImmediate(resolve));
    assert.equal(isAnswered, false, 'the 202 went out before the bus took sessionChanged');
    release();
    assert.equal((await answered).status, 202);
  } finally {
    release();
    await handler.close();
  }
});

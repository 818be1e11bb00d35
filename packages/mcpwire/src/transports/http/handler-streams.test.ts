// Stateless-era streams through the HTTP handler, in-process: listen streams (acknowledgement first,
// tagged changes, graceful end), keep-alive comments, and cancellation by closing the stream (S26-HTTP-10).

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { statelessPost, SseReader, type Loose } from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';

async function json(response: Response): Promise<Record<string, Loose>> {
  assert.equal(response.headers.get('content-type'), 'application/json');
  return (await response.json()) as Record<string, Loose>;
}

/** A promise and the function that resolves it. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function setup() {
  const server = createFixtureServer();
  const handler = createHttpHandler(server, { keepAliveMs: 0 });
  return { server, handler };
}

describe('stateless era: streams and cancellation', () => {
  test('listen: the acknowledgement first, changes tagged with the subscription id, until the client leaves', async () => {
    const { handler } = setup();
    const client = new AbortController();
    // Held until the abort: a Request follows its init signal only while the Request is alive
    // (undici links them weakly), as a runtime adapter's request would be.
    const request = statelessPost(
      'subscriptions/listen',
      { notifications: { toolsListChanged: true } },
      { id: 'sub-1', signal: client.signal },
    );
    const listen = await handler(request);
    assert.equal(listen.headers.get('content-type'), 'text/event-stream');
    const reader = new SseReader(listen);
    const ack = await reader.nextMessage();
    assert.equal(ack?.method, 'notifications/subscriptions/acknowledged');
    assert.equal((ack?.params as Loose)._meta['io.modelcontextprotocol/subscriptionId'], 'sub-1');
    const trigger = await handler(
      statelessPost('tools/call', { name: 'test_trigger_tool_change', arguments: {} }, { id: 2 }),
    );
    assert.equal(trigger.status, 200);
    await trigger.body?.cancel();
    const change = await reader.nextMessage();
    assert.equal(change?.method, 'notifications/tools/list_changed');
    assert.equal((change?.params as Loose)._meta['io.modelcontextprotocol/subscriptionId'], 'sub-1');
    client.abort();
    assert.equal(request.signal.aborted, true);
    assert.equal(await reader.nextMessage(), undefined, 'the stream ends once the client left');
  });

  test('listen ends with the graceful result when the server closes', async () => {
    const { server, handler } = setup();
    const listen = await handler(
      statelessPost('subscriptions/listen', { notifications: { promptsListChanged: true } }, { id: 9 }),
    );
    const reader = new SseReader(listen);
    assert.equal((await reader.nextMessage())?.method, 'notifications/subscriptions/acknowledged');
    await server.close();
    const result = await reader.nextMessage();
    assert.deepEqual([result?.id, (result?.result as Loose).resultType], [9, 'complete']);
    assert.equal(await reader.next(), undefined);
  });

  test('closing the response stream cancels the request (S26-HTTP-10): its signal fires', async () => {
    const server = createFixtureServer();
    const aborted = deferred();
    server.tool(
      {
        name: 'wait_for_cancel',
        description: 'Reports progress, then waits to be cancelled.',
        inputSchema: { type: 'object' },
      },
      async (_args, ctx) => {
        await ctx.sendProgress(1);
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        aborted.resolve();
        return 'never sent';
      },
    );
    const handler = createHttpHandler(server, { keepAliveMs: 0 });
    const response = await handler(
      statelessPost(
        'tools/call',
        { name: 'wait_for_cancel', arguments: {} },
        { meta: { progressToken: 't' } },
      ),
    );
    const reader = new SseReader(response);
    assert.equal((await reader.nextMessage())?.method, 'notifications/progress');
    await reader.cancel();
    await aborted.promise;
  });

  test('an aborted request signal cancels a request that has not answered yet', async () => {
    const server = createFixtureServer();
    const started = deferred();
    const aborted = deferred();
    server.tool(
      { name: 'hang', description: 'Waits to be cancelled.', inputSchema: { type: 'object' } },
      async (_a, ctx) => {
        started.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        aborted.resolve();
        return 'late';
      },
    );
    const handler = createHttpHandler(server, { keepAliveMs: 0 });
    const client = new AbortController();
    const request = statelessPost('tools/call', { name: 'hang', arguments: {} }, { signal: client.signal });
    const pending = handler(request);
    await started.promise;
    client.abort();
    assert.equal(request.signal.aborted, true);
    await pending;
    await aborted.promise;
  });

  test('concurrent requests each get their own answer', async () => {
    const { handler } = setup();
    const answers = await Promise.all(
      [1, 2, 3].map((id) => handler(statelessPost('tools/list', {}, { id })).then(json)),
    );
    assert.deepEqual(
      answers.map((body) => body.id),
      [1, 2, 3],
    );
  });

  test('a listen stream gets keep-alive comments while idle', async (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const server = createFixtureServer();
    const handler = createHttpHandler(server, { keepAliveMs: 1000 });
    const listen = await handler(
      statelessPost('subscriptions/listen', { notifications: { toolsListChanged: true } }),
    );
    const reader = new SseReader(listen);
    assert.equal((await reader.nextMessage())?.method, 'notifications/subscriptions/acknowledged');
    t.mock.timers.tick(1000);
    t.mock.timers.tick(1000);
    const comment = await reader.next();
    assert.deepEqual(comment?.comments, ['keep-alive']);
    await reader.cancel();
  });
});

// What must reach another connection (issue 23): two handlers over two servers of the same
// definition, sharing one session store and one MessageBus, each on its own 127.0.0.1 port through
// the Node adapter. The answer to a server-to-client request POSTed to B reaches the handler on A
// that waits; a cancellation POSTed to B aborts the handler running on A; a list change raised on
// B's server reaches the GET stream held by A; DELETE on B ends A's streams.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { SseReader, type Loose } from '../../../test/support/http-kit.ts';
import { InMemoryEventStore, type EventStore } from './event-store.ts';
import { createHttpHandler } from './handler.ts';
import { BusTopic, InMemoryMessageBus, type MessageBus } from './message-bus.ts';
import { StoreUnavailableError } from './store-unavailable.ts';
import { serveHttp, type HttpServerHandle } from './node.ts';
import { InMemorySessionStore } from './session-store.ts';

type Body = Record<string, Loose>;

/** Two nodes: handlers over fixture servers sharing a store and a bus, each served on 127.0.0.1. */
async function twoNodes(eventStore?: EventStore, bus: MessageBus = new InMemoryMessageBus()) {
  const sessions = new InMemorySessionStore();
  const cancelled: string[] = [];
  let onStarted = (): void => {};
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  let onAborted = (): void => {};
  const aborted = new Promise<void>((resolve) => (onAborted = resolve));
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const make = async (name: string) => {
    const server = createFixtureServer();
    server.tool({ name: 'wait_for_cancel' }, async (_args, ctx) => {
      onStarted();
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      cancelled.push(name);
      onAborted();
      return 'cancelled';
    });
    // Logs a line, waits for the test's release, logs another and answers: a stream to resume.
    server.tool({ name: 'two_steps' }, async (_args, ctx) => {
      await ctx.log('info', `one on ${name}`);
      await released;
      await ctx.log('info', `two on ${name}`);
      return `done on ${name}`;
    });
    const handle = await serveHttp(
      createHttpHandler(server, { keepAliveMs: 0, sessions, bus, ...(eventStore ? { eventStore } : {}) }),
      { port: 0 },
    );
    return { server, handle };
  };
  const a = await make('a');
  const b = await make('b');
  return {
    a,
    b,
    cancelled,
    started,
    aborted,
    release,
    async [Symbol.asyncDispose]() {
      await a.handle.close();
      await b.handle.close();
    },
  };
}

function postTo(handle: HttpServerHandle, body: unknown, headers: Record<string, string> = {}) {
  return fetch(handle.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** Initializes on `handle` (with elicitation) and sends initialized; the session's headers. */
async function open(handle: HttpServerHandle) {
  const response = await postTo(handle, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'bus', version: '1' },
    },
  });
  assert.equal(response.status, 200);
  await response.text();
  const sessionId = response.headers.get('mcp-session-id');
  assert.ok(sessionId);
  const headers = { 'Mcp-Session-Id': sessionId, 'MCP-Protocol-Version': '2025-11-25' };
  const initialized = await postTo(handle, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  assert.equal(initialized.status, 202);
  return headers;
}

/** POSTs a `test_elicitation` call (id 1) to `handle`: its answer is an SSE stream with the request first. */
function callElicitation(handle: HttpServerHandle, headers: Record<string, string>) {
  return postTo(
    handle,
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'test_elicitation', arguments: { message: 'who?' } },
    },
    headers,
  );
}

function getStream(handle: HttpServerHandle, headers: Record<string, string>) {
  return fetch(handle.url, { headers: { ...headers, Accept: 'text/event-stream' } });
}

describe('sessions as state: the message bus between handlers', () => {
  test('the answer to ctx.elicit on A, POSTed to B, reaches the handler waiting on A', async () => {
    await using nodes = await twoNodes();
    const headers = await open(nodes.a.handle);
    const call = await callElicitation(nodes.a.handle, headers);
    assert.equal(call.headers.get('content-type'), 'text/event-stream');
    const reader = new SseReader(call);
    const request = (await reader.nextMessage()) as Body;
    assert.equal(request.method, 'elicitation/create');
    const answer = await postTo(
      nodes.b.handle,
      {
        jsonrpc: '2.0',
        id: request.id,
        result: { action: 'accept', content: { username: 'u', email: 'e@x' } },
      },
      headers,
    );
    assert.equal(answer.status, 202);
    const result = (await reader.nextMessage()) as Body;
    assert.equal(result.id, 1);
    assert.match(result.result.content[0].text, /User response: accept/);
  });

  test('an answer POSTed to B while the bus refuses it is answered 503 with Retry-After, and taken when sent again', async () => {
    // A bus whose backend is down for session messages while `isDown` (what a Redis bus throws then).
    const bus = new (class extends InMemoryMessageBus {
      isDown = false;
      override publish(topic: string, message: Parameters<MessageBus['publish']>[1]): void {
        if (this.isDown && topic === BusTopic.sessionMessage)
          throw new StoreUnavailableError('The bus is down');
        super.publish(topic, message);
      }
    })();
    await using nodes = await twoNodes(undefined, bus);
    const headers = await open(nodes.a.handle);
    const call = await callElicitation(nodes.a.handle, headers);
    const reader = new SseReader(call);
    const request = (await reader.nextMessage()) as Body;
    const answer = {
      jsonrpc: '2.0',
      id: request.id,
      result: { action: 'accept', content: { username: 'u', email: 'e@x' } },
    };
    bus.isDown = true;
    const refused = await postTo(nodes.b.handle, answer, headers);
    assert.equal(refused.status, 503, 'not a 202 for an answer that went nowhere');
    assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
    bus.isDown = false;
    assert.equal((await postTo(nodes.b.handle, answer, headers)).status, 202);
    const result = (await reader.nextMessage()) as Body;
    assert.match(result.result.content[0].text, /User response: accept/);
  });

  test('elicitations sent at once by A and by B in one session: each answer, POSTed to the other handler, reaches its sender only', async () => {
    await using nodes = await twoNodes();
    const headers = await open(nodes.a.handle);
    const ask = (handle: HttpServerHandle, id: number) =>
      postTo(
        handle,
        {
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'test_elicitation', arguments: { message: '?' } },
        },
        headers,
      );
    const onA = new SseReader(await ask(nodes.a.handle, 1));
    const onB = new SseReader(await ask(nodes.b.handle, 2));
    const requestOfA = (await onA.nextMessage()) as Body;
    const requestOfB = (await onB.nextMessage()) as Body;
    assert.equal(requestOfA.method, 'elicitation/create');
    assert.equal(requestOfB.method, 'elicitation/create');
    assert.notDeepEqual(requestOfA.id, requestOfB.id, 'two requests of one session, two ids');
    const answer = (id: Loose, username: string) => ({
      jsonrpc: '2.0',
      id,
      result: { action: 'accept', content: { username, email: `${username}@x` } },
    });
    assert.equal((await postTo(nodes.b.handle, answer(requestOfA.id, 'for-a'), headers)).status, 202);
    assert.equal((await postTo(nodes.a.handle, answer(requestOfB.id, 'for-b'), headers)).status, 202);
    const resultOfA = (await onA.nextMessage()) as Body;
    const resultOfB = (await onB.nextMessage()) as Body;
    assert.equal(resultOfA.id, 1);
    assert.match(resultOfA.result.content[0].text, /"username":"for-a"/);
    assert.equal(resultOfB.id, 2);
    assert.match(resultOfB.result.content[0].text, /"username":"for-b"/);
  });

  test('notifications/cancelled POSTed to B aborts the handler running on A', async () => {
    await using nodes = await twoNodes();
    const headers = await open(nodes.a.handle);
    // No message is sent before the handler ends, so the POST's head does not come before then.
    const gone = new AbortController();
    const call = fetch(nodes.a.handle.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'wait_for_cancel' },
      }),
      signal: gone.signal,
    }).catch(() => undefined);
    await nodes.started;
    const cancel = await postTo(
      nodes.b.handle,
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 7, reason: 'changed my mind' },
      },
      headers,
    );
    assert.equal(cancel.status, 202);
    await nodes.aborted;
    assert.deepEqual(nodes.cancelled, ['a']);
    // A cancelled request gets no response: the client goes away.
    gone.abort();
    await call;
  });

  test("a list change raised on B's server reaches the GET stream held by A", async () => {
    await using nodes = await twoNodes();
    const headers = await open(nodes.a.handle);
    const stream = await getStream(nodes.a.handle, headers);
    assert.equal(stream.status, 200);
    const reader = new SseReader(stream);
    nodes.b.server.tool({ name: 'late_tool' }, () => 'late');
    const notification = (await reader.nextMessage()) as Body;
    assert.equal(notification.method, 'notifications/tools/list_changed');
    await reader.cancel();
  });

  test('Last-Event-ID on B resumes a stream A writes: what was written, then what A writes later, once each', async () => {
    await using nodes = await twoNodes();
    const headers = await open(nodes.a.handle);
    const call = await postTo(
      nodes.a.handle,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'two_steps' } },
      headers,
    );
    assert.equal(call.headers.get('content-type'), 'text/event-stream');
    const first = new SseReader(call);
    const priming = await first.next();
    assert.ok(priming?.id, 'a priming event with an id');
    const one = await first.next();
    assert.equal((JSON.parse(one!.data) as Body).params.data, 'one on a');
    // The client loses the connection and resumes on B from the priming event.
    await first.cancel();
    const resumed = await fetch(nodes.b.handle.url, {
      headers: { ...headers, Accept: 'text/event-stream', 'Last-Event-ID': priming.id },
    });
    assert.equal(resumed.status, 200);
    const second = new SseReader(resumed);
    // The first event is the replay (not a priming event of a new GET stream).
    const replayed = await second.next();
    assert.equal(replayed?.id, one!.id);
    assert.equal((JSON.parse(replayed!.data) as Body).params.data, 'one on a');
    nodes.release();
    const frames = (await second.rest()).filter((frame) => frame.data !== '');
    const messages = frames.map((frame) => JSON.parse(frame.data) as Body);
    assert.deepEqual(
      messages.map((message) => message.params?.data ?? message.result?.content[0].text),
      ['two on a', 'done on a'],
    );
    const ids = [priming.id, one!.id, ...frames.map((frame) => frame.id)];
    assert.equal(new Set(ids).size, ids.length, `no event twice: ${ids.join(' ')}`);
  });

  test('A shut down (a rolling restart): Last-Event-ID on B replays the stream A wrote from the shared event store', async () => {
    await using nodes = await twoNodes(new InMemoryEventStore());
    const headers = await open(nodes.a.handle);
    const call = await postTo(
      nodes.a.handle,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'two_steps' } },
      headers,
    );
    const first = new SseReader(call);
    const priming = await first.next();
    assert.ok(priming?.id, 'a priming event with an id');
    nodes.release();
    const written = (await first.rest()).filter((frame) => frame.data !== '');
    assert.equal(written.length, 3, 'one, two and the result were written');
    // A stops: its sessions are let go here, not ended (their records stay for the other nodes).
    await nodes.a.handle.close();
    const resumed = await fetch(nodes.b.handle.url, {
      headers: { ...headers, Accept: 'text/event-stream', 'Last-Event-ID': priming.id },
    });
    assert.equal(resumed.status, 200);
    const reader = new SseReader(resumed);
    const replayed: Array<string | undefined> = [];
    for (const frame of written) {
      const next = await reader.next();
      replayed.push(next?.id);
      if (next?.id !== frame.id) break;
    }
    await reader.cancel();
    assert.deepEqual(
      replayed,
      written.map((frame) => frame.id),
      'every event A wrote after the priming event, in order',
    );
  });

  test("Last-Event-ID of another session's stream is refused on B (a new GET stream instead)", async () => {
    await using nodes = await twoNodes();
    const headers = await open(nodes.a.handle);
    const other = await open(nodes.a.handle);
    const call = await postTo(
      nodes.a.handle,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'two_steps' } },
      headers,
    );
    const reader = new SseReader(call);
    const priming = await reader.next();
    await reader.next();
    const stolen = await fetch(nodes.b.handle.url, {
      headers: { ...other, Accept: 'text/event-stream', 'Last-Event-ID': priming!.id! },
    });
    assert.equal(stolen.status, 200);
    nodes.release();
    const rest = await reader.rest();
    assert.ok(
      rest.some((frame) => frame.data.includes('done on a')),
      'the owner still gets its answer',
    );
    const stolenReader = new SseReader(stolen);
    // The other session's GET stream: no replay of the first session's events.
    nodes.b.server.tool({ name: 'late_tool' }, () => 'late');
    const message = (await stolenReader.nextMessage()) as Body;
    assert.equal(message.method, 'notifications/tools/list_changed');
    await stolenReader.cancel();
  });

  test("a handler serves nothing before its bus subscriptions are in place (a slow bus, as Redis's SUBSCRIBE is)", async () => {
    const shared = new InMemoryMessageBus();
    let letIn = (): void => {};
    const gate = new Promise<void>((resolve) => (letIn = resolve));
    let asked = 0;
    let inPlace = 0;
    // Like Redis pub/sub: a subscription hears nothing until its SUBSCRIBE is answered.
    const slow: MessageBus = {
      publish: (topic, message) => shared.publish(topic, message),
      async subscribe(topic, listener) {
        asked += 1;
        await gate;
        inPlace += 1;
        return shared.subscribe(topic, listener);
      },
    };
    const seen: number[] = [];
    const bServer = createFixtureServer();
    bServer.tool({ name: 'subscriptions_in_place' }, () => {
      seen.push(inPlace);
      return String(inPlace);
    });
    const aServer = createFixtureServer();
    const sessions = new InMemorySessionStore();
    await using _a = await serveHttp(createHttpHandler(aServer, { keepAliveMs: 0, sessions, bus: shared }), {
      port: 0,
    });
    const bHandler = createHttpHandler(bServer, { keepAliveMs: 0, sessions, bus: slow });
    await using b = await serveHttp(bHandler, { port: 0 });
    assert.ok(asked > 0, 'the handler subscribes on the bus');
    setTimeout(letIn, 50);
    const headers = await open(b);
    const called = await postTo(
      b,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'subscriptions_in_place', arguments: {} },
      },
      headers,
    );
    assert.equal(called.status, 200);
    await called.text();
    assert.deepEqual(seen, [asked], 'the first request was served after every subscription was in place');
    await bHandler.ready;
    // And so a list change raised on A reaches the stream B holds.
    const stream = await getStream(b, headers);
    assert.equal(stream.status, 200);
    const reader = new SseReader(stream);
    aServer.tool({ name: 'late_tool' }, () => 'late');
    assert.equal(((await reader.nextMessage()) as Body).method, 'notifications/tools/list_changed');
    await reader.cancel();
  });

  test("DELETE on B ends the session's streams on A", async () => {
    await using nodes = await twoNodes();
    const headers = await open(nodes.a.handle);
    const stream = await getStream(nodes.a.handle, headers);
    assert.equal(stream.status, 200);
    const deleted = await fetch(nodes.b.handle.url, { method: 'DELETE', headers });
    assert.equal(deleted.status, 204);
    const rest = await new SseReader(stream).rest();
    assert.deepEqual(
      rest.filter((frame) => frame.data !== ''),
      [],
      'the GET stream ended without a message',
    );
    assert.equal(
      (await postTo(nodes.a.handle, { jsonrpc: '2.0', id: 9, method: 'ping' }, headers)).status,
      404,
    );
  });
});

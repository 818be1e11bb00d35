// The Peer keeps serving through bad input and throwing handlers; ids, cancel and close behave.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeFrame } from './codec.ts';
import { ConnectionClosedError } from './errors.ts';
import type { JsonObject, JsonRpcRequest, Message } from './message.ts';
import { type Cancellation, Peer, type PeerHandler } from './peer.ts';
import { RpcError } from './rpc-error.ts';

function harness(handler: Partial<PeerHandler> = {}, canBatch = false) {
  const sent: Array<Message | readonly Message[]> = [];
  const errors: Error[] = [];
  const peer = new Peer({
    send: async (message) => {
      sent.push(message);
    },
    handler: {
      handleRequest: handler.handleRequest ?? ((request: JsonRpcRequest) => ({ echo: request.method })),
      handleNotification: handler.handleNotification ?? (() => {}),
    },
    canBatch: () => canBatch,
    onError: (error) => errors.push(error),
  });
  const feed = (text: string): void => peer.handleFrame(decodeFrame(text));
  return { peer, sent, errors, feed };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('answers requests, reports bad frames with their error and keeps serving', async () => {
  const { sent, feed } = harness();
  feed('not json');
  feed('{"jsonrpc":"2.0","id":null,"method":"x"}');
  feed('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
  await tick();
  assert.deepEqual(
    sent.map((m) => (m as { error?: { code: number } }).error?.code ?? 'ok'),
    [-32700, -32600, 'ok'],
  );
  assert.deepEqual(sent[2], { jsonrpc: '2.0', id: 1, result: { echo: 'tools/list' } });
});

test('a throwing handler becomes -32603, an RpcError keeps its code and data', async () => {
  const { sent, errors, feed } = harness({
    handleRequest: (request) => {
      if (request.method === 'a') throw new Error('secret detail');
      throw new RpcError(-32602, 'Bad', { field: 'x' });
    },
  });
  feed('{"jsonrpc":"2.0","id":1,"method":"a"}');
  feed('{"jsonrpc":"2.0","id":2,"method":"b"}');
  await tick();
  assert.deepEqual(sent[0], {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32603, message: 'Internal error while handling "a"' },
  });
  assert.deepEqual(sent[1], {
    jsonrpc: '2.0',
    id: 2,
    error: { code: -32602, message: 'Bad', data: { field: 'x' } },
  });
  assert.match((errors[0]?.cause as Error).message, /secret detail/);
});

test('a cancelled inbound request fires its signal and gets no response', async () => {
  let seen: AbortSignal | undefined;
  let lazy: Cancellation | undefined;
  let release!: (value: JsonObject) => void;
  const { peer, sent, feed } = harness({
    handleRequest: (request, cancellation) => {
      if (request.id === 5) seen = cancellation.signal;
      else lazy = cancellation;
      return new Promise<JsonObject>((resolve) => (release = resolve));
    },
  });
  feed('{"jsonrpc":"2.0","id":5,"method":"slow"}');
  assert.equal(peer.abortInbound(5, 'user'), true);
  assert.equal(seen?.aborted, true);
  assert.equal(seen?.reason, 'user');
  release({});
  // A signal asked for only after the cancellation is born aborted, with the reason.
  feed('{"jsonrpc":"2.0","id":6,"method":"slow"}');
  assert.equal(lazy?.aborted, false);
  assert.equal(peer.abortInbound(6, 'later'), true);
  assert.equal(lazy?.aborted, true);
  assert.equal(lazy?.signal.aborted, true);
  assert.equal(lazy?.signal.reason, 'later');
  release({});
  await tick();
  assert.deepEqual(sent, []);
});

test('outbound ids increase; late responses after abandon are dropped; close rejects pending', async () => {
  const { peer, sent, feed } = harness();
  const first = peer.request('a', undefined);
  const second = peer.request('b', { x: 1 });
  const third = peer.request('c', undefined);
  assert.deepEqual(
    sent.map((m) => (m as { id: number }).id),
    [1, 2, 3],
  );
  feed('{"jsonrpc":"2.0","id":1,"result":{"ok":true}}');
  assert.deepEqual(await first, { ok: true });
  peer.abandon(2, new Error('gave up'));
  await assert.rejects(second, /gave up/);
  feed('{"jsonrpc":"2.0","id":2,"result":{}}');
  peer.handleClose();
  await assert.rejects(third, ConnectionClosedError);
  await assert.rejects(peer.request('d', undefined), ConnectionClosedError);
});

test('an error response rejects with RpcError carrying code and data', async () => {
  const { peer, feed } = harness();
  const pending = peer.request('a', undefined);
  feed('{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found","data":{"m":"a"}}}');
  await assert.rejects(
    pending,
    (error: unknown) =>
      error instanceof RpcError && error.code === -32601 && (error.data as { m: string }).m === 'a',
  );
});

test('batches are refused unless allowed, then answered as one array', async () => {
  const refused = harness();
  refused.feed('[{"jsonrpc":"2.0","id":1,"method":"a"}]');
  await tick();
  assert.equal((refused.sent[0] as { error: { code: number } }).error.code, -32600);

  const allowed = harness({}, true);
  allowed.feed(
    '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"b"},{"bad":1}]',
  );
  await tick();
  assert.equal(allowed.sent.length, 1);
  const batch = allowed.sent[0] as unknown as Array<{ id?: number; error?: { code: number } }>;
  assert.equal(batch.length, 3);
  assert.deepEqual(batch.map((r) => r.id ?? r.error?.code).sort(), [-32600, 1, 2].sort());
});

test('a duplicate in-flight id is refused', async () => {
  const { sent, feed } = harness({ handleRequest: () => new Promise<JsonObject>(() => {}) });
  feed('{"jsonrpc":"2.0","id":1,"method":"a"}');
  feed('{"jsonrpc":"2.0","id":1,"method":"a"}');
  await tick();
  assert.equal((sent[0] as { error: { code: number } }).error.code, -32600);
});

test('a request cancelled, or its connection closed, while its handler runs synchronously gets no response', async () => {
  const seen: Array<{ id: unknown; aborted: boolean; afterwards?: boolean }> = [];
  const cancellations: Cancellation[] = [];
  const made = harness({
    handleRequest: (request, cancellation) => {
      cancellations.push(cancellation);
      if (request.id === 1) seen.push({ id: 1, aborted: made.peer.abortInbound(1, 'user') });
      if (request.id === 2) seen.push({ id: 2, aborted: made.peer.abortInbound(2, 'user') });
      if (request.id === 2) return Promise.reject(new Error('failed after the cancel'));
      if (request.id === 3) {
        // A nested request on a channel that delivers synchronously: the outer one stays in flight.
        made.feed('{"jsonrpc":"2.0","id":4,"method":"inner"}');
        made.feed('{"jsonrpc":"2.0","id":3,"method":"again"}');
        seen.push({ id: 3, aborted: made.peer.abortInbound(3, 'user') });
        return { late: true };
      }
      if (request.id === 5) made.peer.handleClose();
      return { answered: request.id as number };
    },
  });
  made.feed('{"jsonrpc":"2.0","id":1,"method":"sync"}');
  made.feed('{"jsonrpc":"2.0","id":2,"method":"async"}');
  made.feed('{"jsonrpc":"2.0","id":3,"method":"outer"}');
  made.feed('{"jsonrpc":"2.0","id":5,"method":"closing"}');
  await tick();
  assert.deepEqual(seen, [
    { id: 1, aborted: true },
    { id: 2, aborted: true },
    { id: 3, aborted: true },
  ]);
  assert.equal(cancellations.at(-1)?.aborted, true);
  // Only the nested request's answer and the refusal of the duplicate id 3 went out.
  assert.deepEqual(made.sent, [
    { jsonrpc: '2.0', id: 4, result: { answered: 4 } },
    {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600, message: 'Invalid Request: id 3 is already in use by a request in progress' },
    },
  ]);
  assert.deepEqual(made.errors, []);
});

// The id table of `bridge --http --shared` (shared-ids.ts), the one place ids are remapped between
// several sessions and one child: requests, responses, progress tokens, cancellations both ways, the
// child's own requests, a session's end and the child's.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SharedIdTable } from '../src/commands/bridge/shared-ids.ts';

const call = (id: number | string, token?: number | string) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'tools/call',
  params: {
    name: 'slow',
    ...(token === undefined ? {} : { _meta: { progressToken: token, other: 'kept' } }),
  },
});

describe('SharedIdTable', () => {
  test('requests with the same id from two sessions get ids of their own; each answer goes back to its caller', () => {
    const table = new SharedIdTable<string>();
    const fromA = table.toChild('a', call(1));
    const fromB = table.toChild('b', call(1));
    assert.deepEqual(fromA, { ...call(1), id: 1 });
    assert.deepEqual(fromB, { ...call(1), id: 2 });
    assert.deepEqual(table.fromChild({ jsonrpc: '2.0', id: 2, result: { n: 'b' } }), {
      to: 'session',
      session: 'b',
      message: { jsonrpc: '2.0', id: 1, result: { n: 'b' } },
    });
    assert.deepEqual(table.fromChild({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'a' } }), {
      to: 'session',
      session: 'a',
      message: { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'a' } },
    });
    // Answered once: a second answer with the same id goes nowhere.
    assert.equal(table.fromChild({ jsonrpc: '2.0', id: 1, result: {} }).to, 'none');
    assert.equal(table.inFlight, 0);
  });

  test('progress tokens: the same token from two sessions; progress goes to its own session only, token restored', () => {
    const table = new SharedIdTable<string>();
    const a = table.toChild('a', call(7, 'tok'));
    const b = table.toChild('b', call(9, 'tok'));
    assert.deepEqual((a as { params: object }).params, {
      name: 'slow',
      _meta: { progressToken: 1, other: 'kept' },
    });
    assert.deepEqual((b as unknown as { params: { _meta: object } }).params._meta, {
      progressToken: 2,
      other: 'kept',
    });
    const progress = {
      jsonrpc: '2.0' as const,
      method: 'notifications/progress',
      params: { progressToken: 2, progress: 1 },
    };
    assert.deepEqual(table.fromChild(progress), {
      to: 'session',
      session: 'b',
      message: { ...progress, params: { progressToken: 'tok', progress: 1 } },
      related: 9,
    });
    assert.equal(progress.params.progressToken, 2, 'the input is not modified');
    assert.equal(table.fromChild({ ...progress, params: { progressToken: 'tok', progress: 1 } }).to, 'none');
  });

  test("a client's cancellation names the child-side id; a cancellation of nothing in flight is dropped", () => {
    const table = new SharedIdTable<string>();
    table.toChild('a', call(5));
    table.toChild('b', call(5));
    const cancel = (requestId: unknown) => ({
      jsonrpc: '2.0' as const,
      method: 'notifications/cancelled',
      params: { requestId, reason: 'r' },
    });
    assert.deepEqual(table.toChild('b', cancel(5)), cancel(2));
    assert.equal(table.toChild('b', cancel(5)), undefined);
    assert.equal(table.toChild('a', cancel(6)), undefined);
    assert.equal(table.inFlight, 1);
    // Other notifications pass as they are.
    const roots = { jsonrpc: '2.0' as const, method: 'notifications/roots/list_changed' };
    assert.equal(table.toChild('a', roots), roots);
  });

  test("the child's request goes to the session of the latest call in flight, under a bridge id only that session can answer", () => {
    const table = new SharedIdTable<string>();
    assert.equal(
      table.fromChild({ jsonrpc: '2.0', id: 'x', method: 'roots/list' }).to,
      'none',
      'no call in flight: nobody to ask',
    );
    table.toChild('a', call(1));
    table.toChild('b', call(1));
    const route = table.fromChild({ jsonrpc: '2.0', id: 'ask-1', method: 'elicitation/create', params: {} });
    assert.deepEqual(route, {
      to: 'session',
      session: 'b',
      message: { jsonrpc: '2.0', id: 'mcpwire-shared-1', method: 'elicitation/create', params: {} },
      related: 1,
    });
    const answer = { jsonrpc: '2.0' as const, id: 'mcpwire-shared-1', result: { action: 'decline' } };
    assert.equal(table.toChild('a', answer), undefined, 'another session cannot answer it');
    assert.deepEqual(table.toChild('b', answer), { ...answer, id: 'ask-1' });
    assert.equal(table.toChild('b', answer), undefined, 'answered once');
    // The child cancels a request of its own: to the session it went to, under the bridge id.
    table.fromChild({ jsonrpc: '2.0', id: 77, method: 'sampling/createMessage', params: {} });
    assert.deepEqual(
      table.fromChild({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 77 } }),
      {
        to: 'session',
        session: 'b',
        message: {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'mcpwire-shared-2' },
        },
      },
    );
  });

  test('other notifications of the child go to every session; latestOf names each session’s stream', () => {
    const table = new SharedIdTable<string>();
    table.toChild('a', call('x'));
    table.toChild('a', call('y'));
    const changed = { jsonrpc: '2.0' as const, method: 'notifications/tools/list_changed' };
    assert.deepEqual(table.fromChild(changed), { to: 'all', message: changed });
    assert.equal(table.latestOf('a'), 'y');
    assert.equal(table.latestOf('b'), undefined);
  });

  test("a session's end: its calls become cancellations for the child, the child's requests to it are failed; the rest stays", () => {
    const table = new SharedIdTable<string>();
    table.toChild('a', call(1));
    table.toChild('b', call(1));
    table.fromChild({ jsonrpc: '2.0', id: 'q', method: 'roots/list' });
    assert.deepEqual(table.endSession('b', 'gone'), {
      cancelOnChild: [
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'gone' } },
      ],
      childRequestsToFail: ['q'],
    });
    assert.equal(table.inFlight, 1);
    assert.deepEqual(table.drain(), [{ session: 'a', id: 1 }]);
    assert.equal(table.inFlight, 0);
  });
});

// createRequestContext's disconnectForPolling: it asks the transport through the output, and is a no-op
// where the transport cannot poll or the request is cancelled.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InputBroker } from './context.ts';
import { createRequestContext, type ContextFacts, type ContextOutput } from './request-context.ts';

const broker: InputBroker = { request: () => Promise.reject(new Error('no input in this test')) };

function facts(signal: AbortSignal): ContextFacts {
  return {
    era: 'handshake',
    protocolVersion: '2025-11-25',
    clientCapabilities: {},
    clientInfo: undefined,
    request: {
      id: 1,
      method: 'tools/call',
      signal,
      get isCancelled() {
        return signal.aborted;
      },
    },
    meta: {},
  };
}

function output(disconnectForPolling?: () => boolean): ContextOutput {
  return {
    notify: () => Promise.resolve(),
    isLogEnabled: () => true,
    broker,
    ...(disconnectForPolling ? { disconnectForPolling } : {}),
  };
}

describe('RequestContext.disconnectForPolling', () => {
  test('asks the transport and reports its answer', () => {
    let calls = 0;
    const ctx = createRequestContext(
      facts(new AbortController().signal),
      output(() => ++calls > 0),
    );
    assert.equal(ctx.disconnectForPolling(), true);
    assert.equal(calls, 1);
  });

  test('is false without a transport that can poll', () => {
    assert.equal(
      createRequestContext(facts(new AbortController().signal), output()).disconnectForPolling(),
      false,
    );
  });

  test('is false, asking nothing, once the request is cancelled', () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const ctx = createRequestContext(
      facts(controller.signal),
      output(() => ++calls > 0),
    );
    assert.equal(ctx.disconnectForPolling(), false);
    assert.equal(calls, 0);
  });
});

describe('RequestContext methods', () => {
  test('work destructured, and are the same function on every access', async () => {
    const sent: Array<{ method: string; params: unknown; related: unknown }> = [];
    const ctx = createRequestContext(
      { ...facts(new AbortController().signal), meta: { progressToken: 't' } },
      {
        notify: (method, params, options) => {
          sent.push({ method, params, related: options.relatedRequestId });
          return Promise.resolve();
        },
        isLogEnabled: (level) => level !== 'debug',
        broker,
      },
    );
    const { log, sendProgress } = ctx;
    assert.equal(ctx.log, log);
    await sendProgress(1, { total: 2 });
    await sendProgress(1);
    await log('info', 'hello', 'test');
    await log('debug', 'filtered');
    assert.deepEqual(sent, [
      { method: 'notifications/progress', params: { progressToken: 't', progress: 1, total: 2 }, related: 1 },
      {
        method: 'notifications/message',
        params: { level: 'info', logger: 'test', data: 'hello' },
        related: 1,
      },
    ]);
  });
});

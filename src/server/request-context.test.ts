// createRequestContext's closeSseStream: it asks the transport through the output, and is a no-op
// where the transport cannot poll or the request is cancelled.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { InputBroker } from './context.ts';
import { createRequestContext, type ContextFacts, type ContextOutput } from './request-context.ts';

const broker: InputBroker = { request: () => Promise.reject(new Error('no input in this test')) };

function facts(signal: AbortSignal): ContextFacts {
  return {
    era: 'legacy',
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

function output(closeStream?: () => boolean): ContextOutput {
  return {
    notify: () => Promise.resolve(),
    isLogEnabled: () => true,
    broker,
    ...(closeStream ? { closeStream } : {}),
  };
}

describe('RequestContext.closeSseStream', () => {
  test('asks the transport and reports its answer', () => {
    let calls = 0;
    const ctx = createRequestContext(
      facts(new AbortController().signal),
      output(() => ++calls > 0),
    );
    assert.equal(ctx.closeSseStream(), true);
    assert.equal(calls, 1);
  });

  test('is false without a transport that can poll', () => {
    assert.equal(createRequestContext(facts(new AbortController().signal), output()).closeSseStream(), false);
  });

  test('is false, asking nothing, once the request is cancelled', () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const ctx = createRequestContext(
      facts(controller.signal),
      output(() => ++calls > 0),
    );
    assert.equal(ctx.closeSseStream(), false);
    assert.equal(calls, 0);
  });
});

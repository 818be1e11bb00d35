// `subscriptions/listen` streams and the server's closing signal (issue 13): any number of open
// streams share one listener on it, so more than 10 raise no MaxListenersExceededWarning, and a
// server close still ends every stream with its graceful result.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import type { JsonObject } from '../jsonrpc/message.ts';
import { serveListen, type ListenSource } from './listen.ts';
import type { StatelessRequest, StatelessStream } from './stateless.ts';

/** Past Node's default limit of 10 listeners per AbortSignal. */
const STREAMS = 25;

function listenSource(closing: AbortSignal): ListenSource {
  return {
    info: { name: 'listen-test', version: '0.0.0' },
    capabilities: () => ({ tools: { listChanged: true } }),
    onListChanged: () => () => {},
    onResourceUpdated: () => () => {},
    closing,
  };
}

function listenRequest(id: number, signal: AbortSignal): StatelessRequest {
  return {
    id,
    method: 'subscriptions/listen',
    params: { notifications: { toolsListChanged: true } },
    signal,
    get isCancelled() {
      return signal.aborted;
    },
  };
}

const stream: StatelessStream = { notify: () => Promise.resolve() };

test(`S26-SUB: ${STREAMS} open listen streams hold one listener on the server's closing signal; closing ends them all`, async () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning);
  process.on('warning', onWarning);
  try {
    const closing = new AbortController();
    const source = listenSource(closing.signal);
    const results: Array<Promise<JsonObject>> = [];
    for (let id = 1; id <= STREAMS; id++)
      results.push(serveListen(source, listenRequest(id, new AbortController().signal), stream));
    assert.equal(getEventListeners(closing.signal, 'abort').length, 1);
    closing.abort();
    const ended = await Promise.all(results);
    assert.equal(ended.length, STREAMS);
    for (const [index, result] of ended.entries())
      assert.deepEqual(result._meta, {
        'io.modelcontextprotocol/subscriptionId': index + 1,
        'io.modelcontextprotocol/serverInfo': { name: 'listen-test', version: '0.0.0' },
      });
    // Emitted warnings reach listeners on a later tick.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning'),
      [],
    );
  } finally {
    process.off('warning', onWarning);
  }
});

test('S26-SUB-6: a stream the client cancels stops waiting on the closing signal; the others stay', async () => {
  const closing = new AbortController();
  const source = listenSource(closing.signal);
  const cancelled = new AbortController();
  const first = serveListen(source, listenRequest(1, cancelled.signal), stream);
  const second = serveListen(source, listenRequest(2, new AbortController().signal), stream);
  cancelled.abort();
  await first;
  let isSecondDone = false;
  void second.then(() => (isSecondDone = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(isSecondDone, false, 'the other stream is still open');
  closing.abort();
  await second;
});

import assert from 'node:assert/strict';
import { test } from 'node:test';

import type { Frame } from '../jsonrpc/codec.ts';
import type { Message } from '../jsonrpc/message.ts';
import type { Channel, ChannelInfo, ChannelReceiver } from './channel.ts';
import { tapChannel } from './tap.ts';

/** A channel that records what is sent and lets the test deliver frames, close, and change `info`. */
class FakeChannel implements Channel {
  readonly sent: Array<Message | readonly Message[]> = [];
  closeCount = 0;
  info?: ChannelInfo;
  #receiver: ChannelReceiver | undefined;

  open(receiver: ChannelReceiver): void {
    this.#receiver = receiver;
  }
  async send(message: Message | readonly Message[]): Promise<void> {
    this.sent.push(message);
  }
  async close(): Promise<void> {
    this.closeCount += 1;
  }
  deliver(frame: Frame): void {
    this.#receiver?.handleFrame(frame);
  }
  end(error?: Error): void {
    this.#receiver?.handleClose(error);
  }
}

const request: Message = { jsonrpc: '2.0', id: 1, method: 'ping' };
const reply: Frame = { type: 'message', message: { jsonrpc: '2.0', id: 1, result: {} } };

test('reports each sent message, as the same object, before the transport gets it', async () => {
  const fake = new FakeChannel();
  const events: string[] = [];
  const seen: Array<Message | readonly Message[]> = [];
  const tapped = tapChannel(fake, {
    onSend(message) {
      events.push(`observed (transport had ${fake.sent.length})`);
      seen.push(message);
    },
  });
  const batch: readonly Message[] = [request, { jsonrpc: '2.0', method: 'notifications/initialized' }];
  await tapped.send(request);
  await tapped.send(batch);
  assert.deepEqual(events, ['observed (transport had 0)', 'observed (transport had 1)']);
  assert.equal(seen[0], request);
  assert.equal(seen[1], batch);
  assert.deepEqual(fake.sent, [request, batch]);
});

test('reports each received frame before the receiver, and passes it on unchanged', () => {
  const fake = new FakeChannel();
  const events: string[] = [];
  const tapped = tapChannel(fake, { onReceive: (frame) => events.push(`observer ${frame.type}`) });
  const received: Frame[] = [];
  tapped.open({
    handleFrame(frame) {
      events.push(`receiver ${frame.type}`);
      received.push(frame);
    },
    handleClose() {},
  });
  const invalid: Frame = {
    type: 'invalid',
    response: { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
  };
  fake.deliver(reply);
  fake.deliver(invalid);
  assert.deepEqual(events, ['observer message', 'receiver message', 'observer invalid', 'receiver invalid']);
  assert.equal(received[0], reply);
  assert.equal(received[1], invalid);
});

test('passes close through in both directions and reads info from the wrapped channel', async () => {
  const fake = new FakeChannel();
  const tapped = tapChannel(fake, {});
  const closes: Array<Error | undefined> = [];
  tapped.open({ handleFrame() {}, handleClose: (error) => closes.push(error) });
  assert.equal(tapped.info, undefined);
  fake.info = { isRequestResponse: true, sessionId: 'abc' };
  assert.deepEqual(tapped.info, { isRequestResponse: true, sessionId: 'abc' });
  const failure = new Error('gone');
  fake.end(failure);
  assert.deepEqual(closes, [failure]);
  await tapped.close();
  assert.equal(fake.closeCount, 1);
});

test('works without an observer method and sends/receives normally', async () => {
  const fake = new FakeChannel();
  const tapped = tapChannel(fake, {});
  const received: Frame[] = [];
  tapped.open({ handleFrame: (frame) => received.push(frame), handleClose() {} });
  await tapped.send(request);
  fake.deliver(reply);
  assert.deepEqual(fake.sent, [request]);
  assert.deepEqual(received, [reply]);
});

test('an observer that throws does not stop the message; the error surfaces from a microtask', async (t) => {
  const fake = new FakeChannel();
  const boom = new Error('observer bug');
  const tapped = tapChannel(fake, {
    onSend() {
      throw boom;
    },
    onReceive() {
      throw boom;
    },
  });
  const received: Frame[] = [];
  tapped.open({ handleFrame: (frame) => received.push(frame), handleClose() {} });

  // Capture the rethrow instead of letting it reach the runner as an uncaught exception.
  const deferred: Array<() => void> = [];
  t.mock.method(globalThis, 'queueMicrotask', (callback: () => void) => deferred.push(callback));

  await tapped.send(request);
  fake.deliver(reply);
  t.mock.restoreAll();
  assert.deepEqual(fake.sent, [request]);
  assert.deepEqual(received, [reply]);
  assert.equal(deferred.length, 2);
  for (const rethrow of deferred) assert.throws(rethrow, boom);
});

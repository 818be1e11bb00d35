// The Inbox: buffering before open, exactly-once close, nothing delivered after close.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Frame } from '../jsonrpc/codec.ts';
import { RecordingReceiver } from '../../test/fixtures/stdio/recording-receiver.ts';
import { Inbox } from './inbox.ts';

const frame = (id: number): Frame => ({ type: 'message', message: { jsonrpc: '2.0', id, method: 'm' } });

describe('Inbox', () => {
  it('replays frames and a close that came before open, in order', () => {
    const inbox = new Inbox();
    inbox.deliver(frame(1));
    inbox.deliver(frame(2));
    const error = new Error('gone');
    assert.equal(inbox.close(error), true);
    inbox.deliver(frame(3));
    const receiver = new RecordingReceiver();
    inbox.open(receiver);
    assert.deepEqual(receiver.frames, [frame(1), frame(2)]);
    assert.deepEqual(receiver.closes, [error]);
  });

  it('reports close exactly once, without an argument for a clean close', () => {
    const inbox = new Inbox();
    const receiver = new RecordingReceiver();
    const argumentCounts: number[] = [];
    inbox.open({
      handleFrame: (f) => receiver.handleFrame(f),
      handleClose: (...args: [Error?]) => argumentCounts.push(args.length),
    });
    assert.equal(inbox.close(), true);
    assert.equal(inbox.close(new Error('late')), false);
    inbox.deliver(frame(1));
    assert.deepEqual(argumentCounts, [0]);
    assert.deepEqual(receiver.frames, []);
  });

  it('stops the replay when the receiver closes during it', () => {
    const inbox = new Inbox();
    inbox.deliver(frame(1));
    inbox.deliver(frame(2));
    const receiver = new RecordingReceiver();
    inbox.open({
      handleFrame: (f) => {
        receiver.handleFrame(f);
        inbox.close();
      },
      handleClose: (error) => receiver.handleClose(error),
    });
    assert.deepEqual(receiver.frames, [frame(1)]);
    assert.deepEqual(receiver.closes, [undefined]);
  });

  it('refuses a second open', () => {
    const inbox = new Inbox();
    inbox.open(new RecordingReceiver());
    assert.throws(() => inbox.open(new RecordingReceiver()), /twice/);
  });
});

// LineWriter: failures become ConnectionClosedError, and release never leaves a crash behind.

import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import { LineWriter } from './line-writer.ts';

function sink(write: (chunk: string, callback: (error?: Error | null) => void) => void): Writable {
  return new Writable({
    decodeStrings: false,
    write: (chunk: string, _encoding, callback) => write(chunk, callback),
  });
}

describe('LineWriter', () => {
  it('resolves each write once the stream has taken it', async () => {
    const written: string[] = [];
    const writer = new LineWriter(
      sink((chunk, callback) => {
        written.push(chunk);
        callback();
      }),
      { name: 'test' },
    );
    await Promise.all([writer.write('a\n'), writer.write('b\n')]);
    assert.deepEqual(written, ['a\n', 'b\n']);
  });

  it('with isCoalescing, hands the lines written in one tick to the stream as one write, in order', async () => {
    const batches: string[][] = [];
    const stream = new Writable({
      decodeStrings: false,
      write: (chunk: string, _encoding, callback) => {
        batches.push([chunk]);
        callback();
      },
      writev: (chunks, callback) => {
        batches.push(chunks.map(({ chunk }) => chunk as string));
        callback();
      },
    });
    const writer = new LineWriter(stream, { name: 'test', isCoalescing: true });
    const first = [writer.write('a\n'), writer.write('b\n'), writer.write('c\n')];
    await Promise.all(first);
    await Promise.all([writer.write('d\n'), writer.write('e\n')]);
    assert.deepEqual(batches, [['a\nb\nc\n'], ['d\ne\n']]);
  });

  it('writeRaw: no promise, in order with write, through the batch, the backpressure queue and whenIdle', async () => {
    const chunks: string[] = [];
    const callbacks: Array<() => void> = [];
    const stream = new Writable({
      decodeStrings: false,
      highWaterMark: 4,
      write: (chunk: string, _encoding, callback) => {
        chunks.push(chunk);
        callbacks.push(() => callback());
      },
    });
    const writer = new LineWriter(stream, { name: 'test', isCoalescing: true });
    assert.equal(writer.writeRaw('a\n'), true);
    const b = writer.write('b\n');
    assert.equal(writer.writeRaw('c\n'), true);
    await new Promise((resolve) => setImmediate(resolve));
    // One write for the tick, over the high-water mark: what comes next waits for 'drain'.
    assert.deepEqual(chunks, ['a\nb\nc\n']);
    assert.equal(writer.writeRaw('d\n'), true);
    assert.equal(writer.writeRaw('e\n'), true);
    let isIdle = false;
    const idle = writer.whenIdle().then(() => (isIdle = true));
    callbacks.shift()!();
    await b;
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(chunks, ['a\nb\nc\n', 'd\ne\n']);
    assert.equal(isIdle, false, 'd and e are still in flight');
    callbacks.shift()!();
    await idle;
    writer.fail(new ConnectionClosedError());
    assert.equal(writer.writeRaw('f\n'), false);
    assert.deepEqual(chunks, ['a\nb\nc\n', 'd\ne\n']);
  });

  it('rejects a write to a destroyed stream and reports the failure once', async () => {
    const stream = sink((_chunk, callback) => callback());
    const failures: ConnectionClosedError[] = [];
    const writer = new LineWriter(stream, { name: 'test', handleFailure: (error) => failures.push(error) });
    stream.destroy();
    await assert.rejects(writer.write('x\n'), ConnectionClosedError);
    await assert.rejects(writer.write('y\n'), ConnectionClosedError);
    assert.equal(failures.length, 1);
  });

  it('after a failed write, keeps swallowing late errors even once released', async () => {
    const stream = sink((_chunk, callback) =>
      callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })),
    );
    const writer = new LineWriter(stream, { name: 'test' });
    await assert.rejects(writer.write('x\n'), /Cannot write to test: EPIPE/);
    writer.release();
    assert.ok(stream.listenerCount('error') > 0);
    stream.emit('error', new Error('late'));
  });

  it('detaches completely on release when the stream is healthy', () => {
    const stream = sink((_chunk, callback) => callback());
    const writer = new LineWriter(stream, { name: 'test' });
    writer.fail(new ConnectionClosedError());
    writer.release();
    assert.equal(stream.listenerCount('error'), 0);
    assert.equal(stream.listenerCount('drain'), 0);
  });
});

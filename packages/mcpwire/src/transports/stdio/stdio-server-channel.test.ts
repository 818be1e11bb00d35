// The server's stdio channel: in-process over fake streams, and as a real process behind the guard.

import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { PassThrough, Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import type { Frame } from '../../jsonrpc/codec.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import { RecordingReceiver } from '../../../test/fixtures/stdio/recording-receiver.ts';
import type { StdioClientChannel } from './stdio-client-channel.ts';
import { StdioClientTransport } from './stdio-client-transport.ts';
import { createStdioServerChannel, type StdioServerChannelOptions } from './stdio-server-channel.ts';

/** A stdout whose writes complete only when the test says so; highWaterMark 1 makes every write "full". */
class ManualWritable extends Writable {
  readonly chunks: string[] = [];
  readonly #callbacks: Array<(error?: Error | null) => void> = [];
  constructor() {
    super({ highWaterMark: 1, decodeStrings: false });
  }
  override _write(chunk: string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.chunks.push(chunk);
    this.#callbacks.push(callback);
  }
  complete(error?: Error): void {
    this.#callbacks.shift()?.(error);
  }
}

function collectingStdout(): { stdout: Writable; written: string[] } {
  const written: string[] = [];
  const stdout = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, callback) {
      written.push(chunk);
      callback();
    },
  });
  return { stdout, written };
}

function openChannel(options: StdioServerChannelOptions = {}) {
  const stdin = new PassThrough();
  const { stdout, written } = collectingStdout();
  const channel = createStdioServerChannel({ stdin, stdout, ...options });
  return { stdin, stdout, written, channel };
}

describe('createStdioServerChannel', () => {
  it('buffers frames that arrive before open, then delivers them in order', async () => {
    const { stdin, channel } = openChannel();
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0",');
    stdin.write('"method":"b"}\r\n\nnot json\n[{"jsonrpc":"2.0","method":"c"}]\n');
    await new Promise((resolve) => setImmediate(resolve));
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    assert.deepEqual(
      receiver.frames.map((frame) => frame.type),
      ['message', 'message', 'invalid', 'batch'],
    );
    const invalid = receiver.frames[2];
    assert.ok(invalid?.type === 'invalid');
    assert.equal(invalid.response.error.code, -32700);
    await channel.close();
  });

  it('answers an oversize line with a -32600 frame with the id read from its head, then reads on', async () => {
    const { stdin, channel } = openChannel({ maxMessageBytes: 64 });
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    stdin.write(`{"jsonrpc":"2.0","id":7,"method":"big","params":{"x":"${'x'.repeat(200)}"}}\n`);
    stdin.write('{"jsonrpc":"2.0","id":8,"method":"small"}\n');
    await receiver.waitForMessage((m) => m.id === 8);
    const [oversize] = receiver.frames;
    assert.ok(oversize?.type === 'invalid');
    assert.equal(oversize.response.id, 7);
    assert.deepEqual(oversize.discarded, {
      bytes: oversize.discarded?.bytes,
      limit: 64,
      id: 7,
      kind: 'request',
    });
    assert.equal(oversize.response.error.code, -32600);
    assert.match(oversize.response.error.message, /at most 64 bytes, received a line of at least \d+ bytes/);
    await channel.close();
  });

  it('writes each message as one line', async () => {
    const { channel, written } = openChannel();
    channel.open(new RecordingReceiver());
    await channel.send({ jsonrpc: '2.0', id: 1, result: { text: 'a\nb' } });
    await channel.send([{ jsonrpc: '2.0', method: 'n' }]);
    assert.deepEqual(written, [
      '{"jsonrpc":"2.0","id":1,"result":{"text":"a\\nb"}}\n',
      '[{"jsonrpc":"2.0","method":"n"}]\n',
    ]);
    await channel.close();
  });

  it('hands the responses sent in one tick to stdout as one write (a pipelining client: one pipe write, not one each)', async () => {
    const { channel, written } = openChannel();
    channel.open(new RecordingReceiver());
    await Promise.all([1, 2, 3].map((id) => channel.send({ jsonrpc: '2.0', id, result: {} })));
    await channel.send({ jsonrpc: '2.0', id: 4, result: {} });
    assert.deepEqual(written, [
      '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n{"jsonrpc":"2.0","id":3,"result":{}}\n',
      '{"jsonrpc":"2.0","id":4,"result":{}}\n',
    ]);
    await channel.close();
  });

  it("with coalesceUntil 'turn', hands the responses of several ticks of one turn to stdout as one write (issue 25: bridge <url>)", async () => {
    const { channel, written } = openChannel({ coalesceUntil: 'turn' });
    channel.open(new RecordingReceiver());
    // Each answer of a bridge's remote arrives in a tick of its own (a socket read each).
    const sends = [channel.send({ jsonrpc: '2.0', id: 1, result: {} })];
    await new Promise<void>((resolve) => process.nextTick(resolve));
    sends.push(channel.send({ jsonrpc: '2.0', id: 2, result: {} }));
    await new Promise<void>((resolve) => process.nextTick(resolve));
    assert.deepEqual(written, [], 'nothing written before the turn ends');
    await Promise.all(sends);
    assert.deepEqual(written, [
      '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","id":2,"result":{}}\n',
    ]);
    // A notification still goes out at once, with the responses held before it.
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 3, progress: 1 },
    } as const;
    const last = [channel.send({ jsonrpc: '2.0', id: 3, result: {} }), channel.send(progress)];
    assert.equal(written.length, 2);
    await Promise.all(last);
    await channel.close();
  });

  it('writes a notification at once, with the responses held before it: only responses wait for the end of the tick', async () => {
    const { channel, written } = openChannel();
    channel.open(new RecordingReceiver());
    const sends = [
      channel.send({ jsonrpc: '2.0', id: 1, result: {} }),
      channel.send({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 2, progress: 50 },
      }),
    ];
    // An official SDK client drops a progress notification read together with its response
    // (modelcontextprotocol/typescript-sdk#2580): notifications are not held for the response.
    assert.deepEqual(written, [
      '{"jsonrpc":"2.0","id":1,"result":{}}\n{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":2,"progress":50}}\n',
    ]);
    sends.push(channel.send({ jsonrpc: '2.0', id: 2, result: {} }));
    assert.equal(written.length, 1, 'a response waits for the end of the tick');
    await Promise.all(sends);
    assert.deepEqual(written.slice(1), ['{"jsonrpc":"2.0","id":2,"result":{}}\n']);
    await channel.close();
  });

  it('closes once on stdin EOF, stops reading, and rejects later sends', async () => {
    const { stdin, channel } = openChannel();
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    stdin.end('{"jsonrpc":"2.0","method":"last"}');
    assert.equal(await receiver.waitForClose(), null);
    assert.equal(receiver.frames.length, 1, 'an unterminated last line is still delivered');
    assert.equal(stdin.listenerCount('data'), 0);
    await assert.rejects(channel.send({ jsonrpc: '2.0', method: 'x' }), ConnectionClosedError);
    await channel.close();
    assert.equal(receiver.closes.length, 1);
  });

  it('reports a close() that happened before open when opened', async () => {
    const { channel } = openChannel();
    await channel.close();
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    assert.deepEqual(receiver.closes, [undefined]);
  });

  it('honours backpressure: queues while stdout is full and resolves each send once written', async () => {
    const stdout = new ManualWritable();
    const channel = createStdioServerChannel({ stdin: new PassThrough(), stdout });
    channel.open(new RecordingReceiver());
    const settled: number[] = [];
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    // One send per turn of the loop: the sends of one tick would be joined into one write.
    const sends: Array<Promise<unknown>> = [];
    for (const id of [1, 2, 3]) {
      sends.push(channel.send({ jsonrpc: '2.0', id, result: {} }).then(() => settled.push(id)));
      await nextTurn();
    }
    assert.equal(stdout.chunks.length, 1, 'the second and third wait for drain');
    stdout.complete();
    await nextTurn();
    assert.equal(stdout.chunks.length, 2, 'after drain, what waited goes out');
    stdout.complete();
    await Promise.all(sends);
    assert.deepEqual(settled, [1, 2, 3]);
    const ids = stdout.chunks.map((chunk) =>
      chunk
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => (JSON.parse(line) as { id: number }).id),
    );
    assert.deepEqual(ids, [[1], [2, 3]], 'the two that waited for drain go out together');
    await channel.close();
  });

  it('LIFE-13: requests read before stdin ends are still answered, then the channel closes', async () => {
    const { stdin, written, channel } = openChannel();
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0","id":"two","method":"b"}\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(receiver.closes.length, 0, 'open while two requests wait for their answers');
    await channel.send({ jsonrpc: '2.0', id: 1, result: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(receiver.closes.length, 0, 'one still unanswered');
    await channel.send({ jsonrpc: '2.0', id: 'two', error: { code: -32601, message: 'no' } });
    assert.equal(await receiver.waitForClose(), null);
    assert.deepEqual(
      written.map((line) => (JSON.parse(line) as { id: unknown }).id),
      [1, 'two'],
    );
  });

  it('LIFE-13: a request answered while it is delivered is not waited for; a duplicate id answered so keeps the first', async () => {
    // Were request 1 (answered within its delivery) counted as unanswered, this channel would wait ten minutes.
    const { stdin, written, channel } = openChannel({ endDrainIdleMs: 600_000 });
    let isFirstTwo = true;
    const receiver = new (class extends RecordingReceiver {
      override handleFrame(frame: Frame): void {
        super.handleFrame(frame);
        if (frame.type !== 'message' || !('id' in frame.message)) return;
        const { id } = frame.message;
        // Request 2 is left waiting; its duplicate is refused at once, as the Peer refuses an id in use.
        if (id === 2 && isFirstTwo) isFirstTwo = false;
        else if (id === 2)
          void channel.send({ jsonrpc: '2.0', id, error: { code: -32600, message: 'in use' } });
        else void channel.send({ jsonrpc: '2.0', id: id!, result: {} });
      }
    })();
    channel.open(receiver);
    stdin.end(
      '{"jsonrpc":"2.0","id":1,"method":"a"}\n{"jsonrpc":"2.0","id":2,"method":"b"}\n{"jsonrpc":"2.0","id":2,"method":"b"}\n',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(receiver.closes.length, 0, 'open while request 2 waits for its answer');
    await channel.send({ jsonrpc: '2.0', id: 2, result: {} });
    assert.equal(await receiver.waitForClose(), null);
    assert.deepEqual(
      written
        .flatMap((chunk) => chunk.trim().split('\n'))
        .map((line) => (JSON.parse(line) as { id: unknown }).id),
      [1, 2, 2],
    );
  });

  it('LIFE-13, CANCEL-5: after stdin ends, a cancelled request is not waited for and a stalled one only endDrainIdleMs', async () => {
    {
      // Were the cancellation not counted, this channel would wait ten minutes.
      const { stdin, channel } = openChannel({ endDrainIdleMs: 600_000 });
      const receiver = new RecordingReceiver();
      channel.open(receiver);
      stdin.end(
        '{"jsonrpc":"2.0","id":1,"method":"slow"}\n{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}\n',
      );
      assert.equal(await receiver.waitForClose(), null);
    }
    const { stdin, channel } = openChannel({ endDrainIdleMs: 50 });
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    stdin.end('{"jsonrpc":"2.0","id":1,"method":"stuck"}\n');
    assert.equal(await receiver.waitForClose(), null);
    await assert.rejects(channel.send({ jsonrpc: '2.0', id: 1, result: {} }), ConnectionClosedError);
  });

  it('STDIO-2: stdin ending while stdout is slow still writes every queued response; close() waits for them', async () => {
    const stdout = new ManualWritable();
    const stdin = new PassThrough();
    const channel = createStdioServerChannel({ stdin, stdout });
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    // One send per turn (the sends of one tick would be one write): 2 and 3 queue behind a full stdout.
    const sends: Array<Promise<void>> = [];
    for (const id of [1, 2, 3]) {
      sends.push(channel.send({ jsonrpc: '2.0', id, result: {} }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    stdin.end();
    assert.equal(await receiver.waitForClose(), null);
    let isClosed = false;
    const closing = channel.close().then(() => (isClosed = true));
    for (let written = 1; written <= 2; written++) {
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(stdout.chunks.length, written);
      assert.equal(isClosed, false, 'close() waits for the queued responses');
      stdout.complete();
    }
    await Promise.all([...sends, closing]);
    assert.deepEqual(
      stdout.chunks.map((chunk) =>
        chunk
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => (JSON.parse(line) as { id: number }).id),
      ),
      [[1], [2, 3]],
    );
    await assert.rejects(channel.send({ jsonrpc: '2.0', method: 'x' }), ConnectionClosedError);
  });
  it('turns EPIPE on stdout into a rejected send and a close, never an uncaught error', async () => {
    const stdout = new ManualWritable();
    const channel = createStdioServerChannel({ stdin: new PassThrough(), stdout });
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    const first = channel.send({ jsonrpc: '2.0', id: 1, result: {} });
    await new Promise((resolve) => setImmediate(resolve));
    const queued = channel.send({ jsonrpc: '2.0', id: 2, result: {} });
    stdout.complete(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await assert.rejects(first, /EPIPE/);
    await assert.rejects(queued, ConnectionClosedError);
    const error = await receiver.waitForClose();
    assert.ok(error instanceof ConnectionClosedError);
    assert.match(error.message, /stdout: EPIPE/);
    await assert.rejects(channel.send({ jsonrpc: '2.0', id: 3, result: {} }), ConnectionClosedError);
  });

  it('with the guard on, sends stray stdout writes to stderr and restores stdout on close', async (t) => {
    const { stdout, written, channel } = openChannel({ guardStdout: true });
    const diverted: string[] = [];
    // The guard looks up process.stderr.write at each call, so this mock (undone after the test) sees it.
    t.mock.method(process.stderr, 'write', (chunk: string) => diverted.push(chunk) > 0);
    channel.open(new RecordingReceiver());
    stdout.write('stray output\n');
    await channel.send({ jsonrpc: '2.0', method: 'n' });
    assert.deepEqual(written, ['{"jsonrpc":"2.0","method":"n"}\n']);
    assert.deepEqual(diverted, ['stray output\n']);
    await channel.close();
    assert.equal(Object.hasOwn(stdout, 'write'), false);
    stdout.write('after close\n');
    assert.deepEqual(written.at(-1), 'after close\n');
  });
});

describe('createStdioServerChannel in a real process', { timeout: 30_000 }, () => {
  const channels: StdioClientChannel[] = [];
  after(() => Promise.all(channels.map((channel) => channel.close())));

  it('keeps console.log, console.info and stdout.write off the wire, and exits on stdin EOF', async () => {
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        fileURLToPath(new URL('../../../test/fixtures/stdio/guarded-server.ts', import.meta.url)),
      ],
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stderr: (text) => stderr.push(text),
      shutdownTimeoutMs: 10_000,
    });
    const channel = await transport.connect();
    channels.push(channel);
    const receiver = new RecordingReceiver();
    channel.open(receiver);
    await channel.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await channel.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await receiver.waitForMessage((m) => m.id === 2);
    assert.deepEqual(receiver.frames, [
      { type: 'message', message: { jsonrpc: '2.0', id: 1, result: { method: 'tools/list' } } },
      { type: 'message', message: { jsonrpc: '2.0', id: 2, result: { method: 'ping' } } },
    ]);
    await channel.close();
    assert.deepEqual(channel.exitStatus, { code: 0, signal: null });
    const log = stderr.join('');
    assert.match(log, /guarded: console\.log before open/);
    assert.match(log, /guarded: console\.log while serving tools\/list/);
    assert.match(log, /guarded: console\.info while serving/);
    assert.match(log, /guarded: process\.stdout\.write while serving/);
    assert.match(log, /guarded: closed \(stdin ended\)/);
  });
});

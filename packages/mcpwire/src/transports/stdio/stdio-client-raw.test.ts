// StdioClientChannel's raw seam against a real child: takeLines (stdout lines before decoding) and
// writeRaw (text to stdin without a promise), beside the receiver and `send`.

import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { RecordingReceiver } from '../../../test/fixtures/stdio/recording-receiver.ts';
import type { StdioClientChannel } from './stdio-client-channel.ts';
import { StdioClientTransport, type StdioClientTransportOptions } from './stdio-client-transport.ts';

const echoServer = fileURLToPath(new URL('../../../test/fixtures/stdio/echo-server.mjs', import.meta.url));

const channels: StdioClientChannel[] = [];
after(() => Promise.all(channels.map((channel) => channel.close())));

async function start(
  options: Partial<StdioClientTransportOptions> = {},
): Promise<{ channel: StdioClientChannel; receiver: RecordingReceiver }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [echoServer],
    stderr: 'ignore',
    shutdownTimeoutMs: 200,
    ...options,
  });
  const channel = await transport.connect();
  channels.push(channel);
  const receiver = new RecordingReceiver();
  channel.open(receiver);
  return { channel, receiver };
}

/** Takes every line into `given`; the result resolves once `count` lines have been taken. */
function takeAll(channel: StdioClientChannel, given: string[]): (count: number) => Promise<void> {
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  channel.takeLines((text) => {
    given.push(text);
    for (const waiter of waiters) if (given.length >= waiter.count) waiter.resolve();
    return true;
  });
  return (count) =>
    given.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }));
}

/** Raw line text of a request to the echo server. */
const request = (id: number, method: string, params: object = {}): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';

describe('StdioClientChannel: raw lines', { timeout: 20_000 }, () => {
  it('gives each line to the listener first: a line taken is not decoded, one not taken reaches the receiver', async () => {
    const { channel, receiver } = await start();
    const given: string[] = [];
    channel.takeLines((text) => {
      given.push(text);
      // Takes the echo server's non-JSON line and the answer to id 1; leaves the answer to id 2.
      return !text.includes('"id":2');
    });
    assert.equal(channel.writeRaw(request(1, 'garbage') + request(2, 'second', { n: '中文 😀' })), true);
    const second = await receiver.waitForMessage((m) => m.id === 2);
    assert.deepEqual(given, [
      'this line is not JSON',
      '{"jsonrpc":"2.0","id":1,"result":{"after":"garbage"}}',
      '{"jsonrpc":"2.0","id":2,"result":{"method":"second","params":{"n":"中文 😀"}}}',
    ]);
    // The non-JSON line was taken, so no -32700 frame: the receiver has the one line left to it.
    assert.deepEqual(receiver.frames, [{ type: 'message', message: second }]);
  });

  it('gives each line as bytes to takeLineBytes first: one taken goes no further, one not taken goes on as text', async () => {
    const { channel, receiver } = await start();
    const bytesGiven: string[] = [];
    const textsGiven: string[] = [];
    channel.takeLineBytes((bytes, start, end) => {
      const text = bytes.toString('utf8', start, end);
      bytesGiven.push(text);
      return text.includes('"id":1,');
    });
    channel.takeLines((text) => {
      textsGiven.push(text);
      return text.includes('"id":2,');
    });
    channel.writeRaw(request(1, 'one') + request(2, 'two') + request(3, 'three', { n: '中文 😀' }));
    const third = await receiver.waitForMessage((m) => m.id === 3);
    assert.deepEqual(bytesGiven, [
      '{"jsonrpc":"2.0","id":1,"result":{"method":"one","params":{}}}',
      '{"jsonrpc":"2.0","id":2,"result":{"method":"two","params":{}}}',
      '{"jsonrpc":"2.0","id":3,"result":{"method":"three","params":{"n":"中文 😀"}}}',
    ]);
    assert.deepEqual(textsGiven, bytesGiven.slice(1));
    assert.deepEqual(receiver.frames, [{ type: 'message', message: third }]);
    channel.takeLineBytes(undefined);
    channel.writeRaw(request(4, 'four'));
    await receiver.waitForMessage((m) => m.id === 4);
    assert.equal(bytesGiven.length, 3);
  });

  it('writes raw text in order with send, and stops giving lines once the listener is removed', async () => {
    const { channel, receiver } = await start();
    const given: string[] = [];
    const taken = takeAll(channel, given);
    const sent = channel.send({ jsonrpc: '2.0', id: 1, method: 'first' });
    assert.equal(channel.writeRaw(request(2, 'second')), true);
    await sent;
    await taken(2);
    assert.deepEqual(
      given.map((text) => (JSON.parse(text) as { id: number }).id),
      [1, 2],
    );
    channel.takeLines(undefined);
    channel.writeRaw(request(3, 'third'));
    await receiver.waitForMessage((m) => m.id === 3);
    assert.equal(given.length, 2);
  });

  it('keeps the line cap: an oversize line is never given to the listener and reaches the receiver as -32600', async () => {
    const { channel, receiver } = await start({ maxMessageBytes: 1000 });
    const given: string[] = [];
    const taken = takeAll(channel, given);
    channel.writeRaw(request(1, 'big', { size: 100_000 }) + request(2, 'small'));
    await taken(1);
    assert.deepEqual(given, ['{"jsonrpc":"2.0","id":2,"result":{"method":"small","params":{}}}']);
    const [oversize, ...rest] = receiver.frames;
    assert.ok(oversize?.type === 'invalid');
    assert.equal(oversize.response.error.code, -32600);
    assert.deepEqual(oversize.discarded?.id, 1);
    assert.deepEqual(rest, []);
  });

  it('refuses raw writes once the channel is closed', async () => {
    const { channel, receiver } = await start();
    await channel.close();
    await receiver.waitForClose();
    assert.equal(channel.writeRaw(request(1, 'late')), false);
  });
});

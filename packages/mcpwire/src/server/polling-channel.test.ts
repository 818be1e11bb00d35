// Polling is an ability a channel offers beside the transport contract (issue 23): the server finds
// `disconnectForPolling` on the channel it was connected to and hands it to handlers as
// `ctx.disconnectForPolling()` for their own request; a channel without it gets false.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Frame } from '../jsonrpc/codec.ts';
import type { JsonObject, Message, RequestId } from '../jsonrpc/message.ts';
import type { Channel } from '../transports/channel.ts';
import { createMemoryPair } from '../transports/memory.ts';
import { Server } from './server.ts';

/** Connects a Server with one tool that reports what `ctx.disconnectForPolling()` answered. */
function serve(channel: Channel): void {
  const server = new Server({ name: 'polling', version: '1.0.0' });
  server.tool({ name: 'poll_me' }, (_args, ctx) => `disconnected: ${ctx.disconnectForPolling()}`);
  server.connect(channel);
}

/** Initializes over the client end and calls `poll_me` as request `id`; resolves with its text. */
async function callPollMe(client: Channel, id: RequestId): Promise<string> {
  const answers = new Map<RequestId, (message: JsonObject) => void>();
  client.open({
    handleFrame(frame: Frame) {
      if (frame.type !== 'message') return;
      const message = frame.message as unknown as JsonObject & { id?: RequestId };
      if (message.id !== undefined) answers.get(message.id)?.(message);
    },
    handleClose() {},
  });
  const request = (message: Message & { id: RequestId }): Promise<JsonObject> =>
    new Promise((resolve) => {
      answers.set(message.id, resolve);
      void client.send(message);
    });
  const clientInfo = { name: 'raw', version: '1' };
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo };
  await request({ jsonrpc: '2.0', id: 'init', method: 'initialize', params });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const called = await request({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'poll_me' } });
  const content = (called.result as { content: Array<{ text: string }> }).content;
  return content[0]!.text;
}

describe('ctx.disconnectForPolling', () => {
  test("asks the channel's own disconnectForPolling, with the handler's request id", async () => {
    const [clientSide, serverSide] = createMemoryPair();
    const asked: RequestId[] = [];
    const polling = Object.assign(serverSide, {
      disconnectForPolling(requestId: RequestId): boolean {
        asked.push(requestId);
        return true;
      },
    });
    serve(polling);
    assert.equal(await callPollMe(clientSide, 7), 'disconnected: true');
    assert.deepEqual(asked, [7]);
    await clientSide.close();
  });

  test('is false on a channel without the ability (nothing in `info` stands for it)', async () => {
    const [clientSide, serverSide] = createMemoryPair();
    serve(serverSide);
    assert.equal(await callPollMe(clientSide, 8), 'disconnected: false');
    await clientSide.close();
  });
});

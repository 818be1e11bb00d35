// `SendOptions.text` through the HTTP handler, in-process: a server that relays messages it read as
// text (a bridge) gives that text with the response, and a JSON answer's body is the text byte for
// byte; without it the response is encoded as always.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Channel } from '../channel.ts';
import { post } from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';

/** Spacing, an escape and 1.0: what encoding the decoded message would change. */
const spelled = (id: number) => `{ "jsonrpc": "2.0", "id": ${id}, "result": {"text": "\\u0041", "n": 1.0} }`;

/** Answers `initialize` plainly and every other request with `spelled`, given as its text when `withText`. */
function relayServer(withText: boolean) {
  return {
    connect(channel: Channel): void {
      channel.open({
        handleFrame: (frame) => {
          if (frame.type !== 'message' || !('id' in frame.message) || !('method' in frame.message)) return;
          const { id, method } = frame.message;
          if (method === 'initialize') {
            const result = {
              protocolVersion: '2025-11-25',
              capabilities: {},
              serverInfo: { name: 's', version: '1' },
            };
            void channel.send({ jsonrpc: '2.0', id, result });
            return;
          }
          const text = spelled(Number(id));
          void channel.send(JSON.parse(text) as never, withText ? { text } : {});
        },
        handleClose: () => {},
      });
    },
  };
}

async function callThrough(withText: boolean): Promise<string> {
  const handler = createHttpHandler(relayServer(withText), { keepAliveMs: 0 });
  const init = await handler(
    post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  );
  const headers = {
    'Mcp-Session-Id': init.headers.get('mcp-session-id')!,
    'MCP-Protocol-Version': '2025-11-25',
  };
  await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
  const answer = await handler(post({ jsonrpc: '2.0', id: 5, method: 'ping' }, headers));
  assert.equal(answer.headers.get('content-type'), 'application/json');
  return answer.text();
}

test("a response sent with its text: the JSON answer's body is that text", async () => {
  assert.equal(await callThrough(true), spelled(5));
});

test('a response sent without text is encoded', async () => {
  assert.equal(await callThrough(false), '{"jsonrpc":"2.0","id":5,"result":{"text":"A","n":1}}');
});

test("a POST body of one message reaches the server's channel with its text, as the client wrote it", async () => {
  const texts: Array<string | undefined> = [];
  const handler = createHttpHandler(
    {
      connect(channel: Channel): void {
        channel.open({
          handleFrame: (frame) => {
            if (frame.type !== 'message') return;
            texts.push(frame.text);
            const { message } = frame;
            if ('method' in message && message.method === 'initialize' && 'id' in message) {
              const result = {
                protocolVersion: '2025-11-25',
                capabilities: {},
                serverInfo: { name: 's', version: '1' },
              };
              void channel.send({ jsonrpc: '2.0', id: message.id, result });
            }
          },
          handleClose: () => {},
        });
      },
    },
    { keepAliveMs: 0 },
  );
  const body =
    '{"id": 0, "method": "initialize", "jsonrpc": "2.0", "params": {"protocolVersion": "2025-11-25",' +
    ' "capabilities": {}, "clientInfo": {"name": "\\u0074", "version": "1.0"}, "x": 1e2}}';
  const init = await handler(post(body));
  assert.equal(init.status, 200);
  assert.deepEqual(texts, [body]);
});

// The tasks extension's wrap of tools/call has a plain twin (`plainWraps`), so a call that is not a task
// takes the serve path's fast path; any other wrap of tools/call must still get a promise from `next`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JsonObject } from '../../jsonrpc/message.ts';
import { defineExtension } from '../../protocol/extension.ts';
import type { ServerMethodHandler } from '../../server/method-handlers.ts';
import { Server } from '../../server/server.ts';
import { callInBothEras } from '../../../test/support/task-peer.ts';
import { tasks } from './tasks-server.ts';

/** An extension whose wrap of tools/call records whether `next` answered with a promise. */
function recordingWrap(fromNext: boolean[]) {
  return defineExtension({
    id: 'com.example/wrap',
    methods: {},
    server: {
      handlers: {},
      settings: () => ({}),
      wraps: {
        'tools/call':
          (next: ServerMethodHandler): ServerMethodHandler =>
          (params, ctx, origin) => {
            const result = next(params, ctx, origin);
            fromNext.push(result instanceof Promise);
            return result;
          },
      },
    },
  });
}

function textOf(result: JsonObject): unknown {
  return (result.content as Array<{ text?: unknown }>)[0]?.text;
}

test('a wrap of tools/call gets a promise from next for a synchronous tool, alone or with the tasks extension', async () => {
  for (const order of ['wrap alone', 'wrap first', 'tasks first'] as const) {
    const fromNext: boolean[] = [];
    const wrap = recordingWrap(fromNext);
    const extensions =
      order === 'wrap alone' ? [wrap] : order === 'wrap first' ? [wrap, tasks()] : [tasks(), wrap];
    const server = new Server({ name: 'plain', version: '1' }, { extensions });
    server.tool({ name: 'echo', inputSchema: { type: 'object' } }, (args) => ({
      content: [{ type: 'text', text: String(args.message) }],
    }));
    const { handshake, stateless } = await callInBothEras(server, 'echo');
    assert.equal(textOf(handshake), 'a', order);
    assert.equal(textOf(stateless), 'b', order);
    assert.deepEqual(fromNext, [true, true], order);
    await server.close();
  }
});

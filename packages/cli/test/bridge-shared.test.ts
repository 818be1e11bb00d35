// `mcpwire bridge --http 0 --shared -- <stdio server>`: several handshake-era sessions over one child
// (real processes: the bridge from source, the hand-written child). Both clients use the same request
// ids and progress tokens (our Client numbers them from the same start), so each answer, progress
// notification, elicitation and cancellation reaching the right session shows the remapping; a list
// change reaches both; the child's crash ends every session.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { BridgeProcess, isAlive, waitGone } from './support/bridge-process.ts';
import {
  callBody,
  deleteSession,
  initializeBody,
  openSession,
  post,
  resultText,
  REVISION,
} from './support/raw-bridge-rpc.ts';

/** The first text content of a tool result. */
function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  assert.equal(first?.type, 'text', JSON.stringify(result));
  return first.text!;
}

/** A handshake-era Client of ours that answers elicitations with `name`. */
async function connectClient(url: string, name: string): Promise<Client> {
  const client = new Client(
    { name: `bridge-shared-${name}`, version: '1.0.0' },
    { era: 'handshake', handlers: { elicitation: () => ({ action: 'accept', content: { name } }) } },
  );
  await client.connect(new StreamableHttpClientTransport(url));
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  textOf(await client.callTool({ name, arguments: args }));

/** Resolves with the next notification `method` that reaches `client`. */
function nextNotification(client: Client, method: string): Promise<string> {
  return new Promise((resolve) => {
    const off = client.on('notification', (notification) => {
      if (notification.method !== method) return;
      off();
      resolve(notification.method);
    });
  });
}

/**
 * POSTs a `slow` call (id 1, progress token "t") in `sessionId` and resolves once its progress has come,
 * so the call is surely at the child; `rest` is the JSON-RPC response that ends its stream.
 */
async function slowCall(url: string, sessionId: string): Promise<{ rest: Promise<string> }> {
  const body = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'slow', _meta: { progressToken: 't' } },
  };
  const reply = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'Mcp-Session-Id': sessionId,
      'MCP-Protocol-Version': REVISION,
    },
    body: JSON.stringify(body),
  });
  const reader = reply.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  while (!text.includes('notifications/progress')) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the stream ended before progress: ${text}`);
    text += value;
  }
  const rest = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    const data = text.split('\n').filter((line) => line.startsWith('data: ') && line.includes('"id"'));
    return data.at(-1)!.slice(6);
  })();
  return { rest };
}

describe('mcpwire bridge --http --shared', { concurrency: 2 }, () => {
  test('two sessions, one child: answers, progress, elicitations and cancellations each reach their own session; a list change both', async () => {
    const { bridge, url } = await BridgeProcess.start(['--shared']);
    await using _bridge = bridge;
    const ada = await connectClient(url, 'ada');
    const bob = await connectClient(url, 'bob');
    try {
      // One child serves both sessions.
      const [pidA, pidB] = await Promise.all([call(ada, 'pid'), call(bob, 'pid')]);
      assert.equal(pidA, pidB);
      assert.equal(bridge.childPids.length, 1, bridge.stderr);

      // Concurrent calls with colliding ids: each answer to its own caller.
      const texts = Array.from({ length: 10 }, (_, i) => i);
      const answers = await Promise.all(
        texts.flatMap((i) => [call(ada, 'echo', { text: `a${i}` }), call(bob, 'echo', { text: `b${i}` })]),
      );
      assert.deepEqual(
        answers,
        texts.flatMap((i) => [`a${i}`, `b${i}`]),
      );

      // Progress by token to its own session only, then both calls cancelled.
      const progress = { ada: [] as number[], bob: [] as number[] };
      const controllers = { ada: new AbortController(), bob: new AbortController() };
      const slow = (client: Client, who: 'ada' | 'bob') =>
        client.callTool(
          { name: 'slow', arguments: {} },
          {
            signal: controllers[who].signal,
            onProgress: (update) => {
              progress[who].push(update.progress);
              controllers[who].abort();
            },
          },
        );
      await Promise.all([assert.rejects(slow(ada, 'ada')), assert.rejects(slow(bob, 'bob'))]);
      const cancelled = JSON.parse(await call(ada, 'cancelled')) as unknown[];
      assert.deepEqual(progress, { ada: [1], bob: [1] });
      assert.equal(cancelled.length, 2, `the child got both cancellations, as two ids: ${String(cancelled)}`);
      assert.notEqual(cancelled[0], cancelled[1]);

      // The child's elicitation goes to the session whose call asked for it.
      assert.deepEqual(JSON.parse(await call(bob, 'ask')), { action: 'accept', content: { name: 'bob' } });
      assert.deepEqual(JSON.parse(await call(ada, 'ask')), { action: 'accept', content: { name: 'ada' } });

      // A list change is every session's.
      const changed = [
        nextNotification(ada, 'notifications/tools/list_changed'),
        nextNotification(bob, 'notifications/tools/list_changed'),
      ];
      assert.equal(await call(bob, 'grow'), 'grown');
      assert.deepEqual(await Promise.all(changed), [
        'notifications/tools/list_changed',
        'notifications/tools/list_changed',
      ]);
      assert.equal(bridge.childPids.length, 1);
    } finally {
      await Promise.all([ada.close(), bob.close()]);
    }
  });

  test("a later session's initialize is answered with the child's own result; the child is initialized once", async () => {
    const { bridge, url } = await BridgeProcess.start(['--shared']);
    await using _bridge = bridge;
    const first = await post(url, initializeBody(1));
    const second = await post(url, initializeBody('two'));
    assert.equal(second.status, 200, second.text);
    assert.notEqual(first.sessionId, second.sessionId);
    assert.equal(first.status, 200, first.text);
    assert.deepEqual(second.response?.result?.capabilities?.experimental, {
      'x.bridge/kept': { order: ['b', 'a'], n: 2.5 },
    });
    assert.deepEqual(second.response, { ...first.response!, id: 'two' });
    assert.equal(bridge.childPids.length, 1);
  });

  test("a session's DELETE cancels its call on the child; the other session and the child go on", async () => {
    const { bridge, url } = await BridgeProcess.start(['--shared']);
    await using _bridge = bridge;
    const [a, b] = await Promise.all([openSession(url), openSession(url)]);
    const pid = resultText(await post(url, callBody(1, 'pid'), b));
    const waiting = await slowCall(url, a);
    // The stream ends without an answer: the session is gone.
    const ended = waiting.rest.catch(() => 'ended');
    assert.equal(await deleteSession(url, a), 204);
    assert.equal(await ended, 'ended');
    assert.equal(
      (JSON.parse(resultText(await post(url, callBody(2, 'cancelled'), b))) as unknown[]).length,
      1,
    );
    assert.equal(resultText(await post(url, callBody(3, 'pid'), b)), pid);
    assert.equal((await post(url, callBody(4, 'pid'), a)).status, 404);
  });

  test("the child's crash ends every session with an error naming the exit; the ids are then 404; a new session gets a new child", async () => {
    const { bridge, url } = await BridgeProcess.start(['--shared']);
    await using _bridge = bridge;
    const [a, b] = await Promise.all([openSession(url), openSession(url)]);
    const pid = Number(resultText(await post(url, callBody(1, 'pid'), a)));
    assert.ok(isAlive(pid));
    const waiting = await slowCall(url, b);
    const crashed = await post(url, callBody(1, 'crash'), a);
    assert.match(String(crashed.response?.error?.message), /exited with code 3/, crashed.text);
    const text = await waiting.rest;
    const other = JSON.parse(text) as { id?: unknown; error?: { message?: unknown; data?: unknown } };
    assert.equal(other.id, 1, text);
    assert.match(String(other.error?.message), /exited with code 3/, text);
    assert.deepEqual(other.error?.data, { exitCode: 3, signal: null });
    await waitGone(pid);
    for (const sessionId of [a, b]) {
      const after = await post(url, callBody(3, 'echo', { text: 'x' }), sessionId);
      assert.equal(after.status, 404, after.text);
    }
    const again = await openSession(url);
    assert.notEqual(Number(resultText(await post(url, callBody(4, 'pid'), again))), pid);
  });
});

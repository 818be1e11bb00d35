// A raw 2026-07-28 `subscriptions/listen` stream that follows one task, for the node-death tests.

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { TestContext } from 'node:test';
import { STATELESS_VERSION, type Loose } from '../../../../test/support/raw-mcp-http.ts';
import { SseFrames } from './sse.ts';

/** The JSON-RPC id of the listen request, which the server names the subscription by. */
export const LISTEN_ID = 9;

/** The client capabilities of a request that may create or follow a task. */
export const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/**
 * Opens a 2026-07-28 `subscriptions/listen` stream on `url` for `notifications`; resolves with its
 * acknowledgement and the frames that follow.
 */
export async function openListen(
  url: string,
  notifications: object,
  signal: AbortSignal,
): Promise<{ ack: Loose; frames: SseFrames }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': STATELESS_VERSION,
      'Mcp-Method': 'subscriptions/listen',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: LISTEN_ID,
      method: 'subscriptions/listen',
      params: {
        notifications,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
          'io.modelcontextprotocol/clientCapabilities': WITH_TASKS,
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
        },
      },
    }),
    signal,
  });
  assert.equal(response.status, 200);
  const frames = new SseFrames(response);
  const ack = (await frames.nextMessage()) as Loose;
  assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
  return { ack, frames };
}

/** The task notifications a listen stream on `url` gets for `taskId`, until the task is terminal. */
export async function followTask(url: string, taskId: string, signal: AbortSignal): Promise<Loose[]> {
  const { ack, frames } = await openListen(url, { taskIds: [taskId] }, signal);
  assert.deepEqual(ack.params.notifications, { taskIds: [taskId] });
  const seen: Loose[] = [];
  for (;;) {
    const message = (await frames.nextMessage()) as Loose;
    if (message.method !== 'notifications/tasks') continue;
    seen.push(message.params);
    if (['completed', 'failed', 'cancelled'].includes(message.params.status as string)) return seen;
  }
}

/**
 * SIGKILLs the node `worker` running `taskId` and waits for it to exit, then follows the task on a
 * listen stream on `url` (another node) until it is terminal; the stream ends with the test.
 */
export async function killWorkerAndFollow(
  t: TestContext,
  worker: { child: ChildProcess },
  url: string,
  taskId: string,
): Promise<Loose[]> {
  const exited = once(worker.child, 'exit');
  worker.child.kill('SIGKILL');
  await exited;
  const stop = new AbortController();
  t.after(() => stop.abort());
  return followTask(url, taskId, stop.signal);
}

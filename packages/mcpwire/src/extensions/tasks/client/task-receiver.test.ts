// The client as the receiver of handshake-era tasks: a raw server session (our Session, the peer a
// server would be) sends a task-augmented elicitation/create and drives tasks/get, tasks/result,
// tasks/list and tasks/cancel against a Client that took the tasks extension (TASK-1..18).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Client } from '../../../client/client.ts';
import { defineExtension } from '../../../protocol/extension.ts';
import type { JsonObject } from '../../../jsonrpc/message.ts';
import { RpcError } from '../../../jsonrpc/rpc-error.ts';
import { Session } from '../../../protocol/session.ts';
import { createMemoryPair } from '../../../transports/memory.ts';
import type { ElicitResult } from '../../../protocol/types/index.ts';
import { TASKS_EXTENSION_ID } from '../tasks-protocol.ts';
import { tasksClientPart } from './tasks-client-part.ts';

const FORM = { message: 'Delete it?', requestedSchema: { type: 'object', properties: {} } };

/** A server session that has answered initialize at 2025-11-25 and waits for `initialized`. */
async function connect(
  elicitation: () => Promise<ElicitResult>,
): Promise<{ server: Session; client: Client; clientCapabilities: JsonObject }> {
  const [clientEnd, serverEnd] = createMemoryPair();
  let clientCapabilities: JsonObject = {};
  let initialized!: () => void;
  const operating = new Promise<void>((resolve) => (initialized = resolve));
  const server: Session = new Session({
    role: 'server',
    channel: serverEnd,
    handleRequest: (request) => {
      clientCapabilities = request.params.capabilities as JsonObject;
      server.protocolVersion = '2025-11-25';
      server.peerCapabilities = clientCapabilities;
      server.setState('initializing');
      return { protocolVersion: '2025-11-25', capabilities: {}, serverInfo: { name: 'raw', version: '1' } };
    },
    handleNotification: (method) => {
      if (method !== 'notifications/initialized') return;
      server.setState('operating');
      initialized();
    },
  });
  server.start();
  const extension = defineExtension({ id: TASKS_EXTENSION_ID, methods: {}, client: tasksClientPart() });
  const client = new Client(
    { name: 'receiver', version: '1' },
    { era: 'handshake', eraCache: false, extensions: [extension], handlers: { elicitation } },
  );
  await client.connect(clientEnd);
  await operating;
  return { server, client, clientCapabilities };
}

test('the client declares tasks for elicitation and sampling, runs a task-augmented elicitation as a task, and serves its result (TASK-1, TASK-5, TASK-12)', async () => {
  let answer!: (result: ElicitResult) => void;
  const { server, client, clientCapabilities } = await connect(
    () => new Promise<ElicitResult>((resolve) => (answer = resolve)),
  );
  assert.deepEqual(clientCapabilities.tasks, {
    list: {},
    cancel: {},
    requests: { elicitation: { create: {} }, sampling: { createMessage: {} } },
  });
  const created = await server.request('elicitation/create', { ...FORM, task: { ttl: 60_000 } });
  const task = created.task as JsonObject;
  assert.equal(task.status, 'working', 'TASK-7: a task starts in working');
  assert.equal(typeof task.taskId, 'string');
  assert.equal(task.ttl, 60_000);
  const taskId = task.taskId as string;
  assert.equal((await server.request('tasks/get', { taskId })).status, 'working');
  const listed = (await server.request('tasks/list', {})).tasks as JsonObject[];
  assert.deepEqual(
    listed.map((entry) => entry.taskId),
    [taskId],
  );
  const result = server.request('tasks/result', { taskId });
  answer({ action: 'accept', content: {} });
  const payload = await result;
  assert.equal(payload.action, 'accept', 'TASK-12: exactly what elicitation/create would have returned');
  assert.deepEqual((payload._meta as JsonObject)['io.modelcontextprotocol/related-task'], { taskId });
  assert.equal((await server.request('tasks/get', { taskId })).status, 'completed');
  await client.close();
});

test('tasks/cancel cancels a running task, a terminal one and an unknown id are -32602 (TASK-17, TASK-18); a request without task runs as before (TASK-4)', async () => {
  const { server, client } = await connect(() => new Promise<ElicitResult>(() => {}));
  const created = await server.request('elicitation/create', { ...FORM, task: {} });
  const taskId = (created.task as JsonObject).taskId as string;
  const cancelled = await server.request('tasks/cancel', { taskId });
  assert.equal(cancelled.status, 'cancelled');
  await assert.rejects(server.request('tasks/cancel', { taskId }), (error: unknown) => {
    assert.ok(error instanceof RpcError);
    assert.equal(error.code, -32602);
    return true;
  });
  await assert.rejects(server.request('tasks/get', { taskId: 'no-such-task' }), { code: -32602 });
  await client.close();

  const plain = await connect(() => Promise.resolve({ action: 'decline' }));
  assert.deepEqual(await plain.server.request('elicitation/create', FORM), { action: 'decline' });
  await plain.client.close();
});

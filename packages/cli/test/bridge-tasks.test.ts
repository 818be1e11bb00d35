// `mcpwire bridge --http 0 -- mcpwire serve everything --era handshake`, 2026-07-28 clients with the
// tasks extension: the child's 2025-11-25 tasks through the bridge's translation (era-tasks.ts):
// server-directed creation, `tasks/get` with the outcome inlined, a task that needs input answered
// by `tasks/update`, cancellation, `notifications/tasks` on a listen stream, and ids that are not the
// child's.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RpcError, type JsonObject } from 'mcpwire';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { tasksForClient, TASKS_EXTENSION_ID } from 'mcpwire/extensions/tasks';
import { BridgeProcess } from './support/bridge-process.ts';
import { MCPWIRE_ARGV } from '../../../test/support/cli-child.ts';
import { statelessRequest } from '../../../test/support/raw-mcp-http.ts';

/** `mcpwire serve everything` restricted to the handshake era: a 2025-only stdio server. */
const HANDSHAKE_EVERYTHING = [...MCPWIRE_ARGV, 'serve', 'everything', '--era', 'handshake'];

async function connect(url: string, withTasks: boolean): Promise<Client> {
  // The first request starts the shared child: longer than the default timeouts on a loaded machine.
  const client = new Client(
    { name: 'bridge-tasks-test', version: '1.0.0' },
    {
      era: 'stateless',
      eraCache: false,
      probeTimeoutMs: 60_000,
      initializeTimeoutMs: 60_000,
      extensions: withTasks ? [tasksForClient()] : [],
    },
  );
  await client.connect(new StreamableHttpClientTransport(url));
  return client;
}

const TERMINAL = ['completed', 'failed', 'cancelled'];

/**
 * The task as `tasks/get` shows it once terminal: awaited on a listen stream for its id (the
 * bridge sends the current state right after the acknowledgement, then each change).
 */
async function settled(client: Client, taskId: string): Promise<JsonObject> {
  let off: () => void = () => {};
  const heard = new Promise<void>((resolve) => {
    off = client.on('notification', ({ method, params }) => {
      if (
        method === 'notifications/tasks' &&
        params.taskId === taskId &&
        TERMINAL.includes(params.status as string)
      )
        resolve();
    });
  });
  const subscription = client.listen({ taskIds: [taskId] } as never);
  try {
    await heard;
  } finally {
    off();
    subscription.close();
  }
  return client.request('tasks/get', { taskId });
}

/** An ack as S26-TASK-10/11 want it: `resultType: "complete"` and nothing of a task (its `_meta` aside). */
function assertAck(result: JsonObject): void {
  const { _meta: _, ...rest } = result;
  assert.deepEqual(rest, { resultType: 'complete' });
}

async function rejection(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof RpcError, `expected an RpcError, got ${String(error)}`);
  return error;
}

describe(
  'bridge --http: 2025-11-25 tasks of the child as the 2026-07-28 tasks extension',
  { concurrency: 1 },
  () => {
    test('creation, tasks/get with the outcome inlined, a tool error, a protocol error, cancellation', async () => {
      const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
      await using _bridge = bridge;
      const client = await connect(url, true);
      try {
        const extensions = client.serverCapabilities?.extensions ?? {};
        assert.deepEqual(extensions[TASKS_EXTENSION_ID], {}, JSON.stringify(client.serverCapabilities));
        assert.equal(client.serverCapabilities?.tasks, undefined, 'no 2025-11-25 tasks capability');
        // A sync tool stays sync, even with a v1 `task` hint.
        const greeted = await client.request('tools/call', {
          name: 'greet',
          arguments: { name: 'Ada' },
          task: {},
        });
        assert.equal(greeted.resultType, 'complete');
        assert.equal('taskId' in greeted, false);

        const created = await client.request('tools/call', {
          name: 'slow_compute',
          arguments: { seconds: 0 },
        });
        assert.equal(created.resultType, 'task', JSON.stringify(created));
        assert.equal('task' in created, false, 'flat, no nested task');
        assert.equal('ttl' in created || 'pollInterval' in created, false, 'no v1 keys');
        assert.match(
          created.taskId as string,
          /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/,
          'a front id, not the child id',
        );
        const done = await settled(client, created.taskId as string);
        assert.equal(done.status, 'completed', JSON.stringify(done));
        assert.deepEqual((done.result as { content: unknown }).content, [
          { type: 'text', text: 'Computed result after 0s' },
        ]);
        assert.equal(JSON.stringify(done).includes('related-task'), false);

        const failing = await client.request('tools/call', { name: 'failing_job', arguments: {} });
        const toolError = await settled(client, failing.taskId as string);
        assert.equal(toolError.status, 'completed', 'a tool error completes (S26-TASK-8)');
        assert.equal((toolError.result as { isError?: boolean }).isError, true);

        const broken = await client.request('tools/call', { name: 'protocol_error_job', arguments: {} });
        const failed = await settled(client, broken.taskId as string);
        assert.equal(failed.status, 'failed', JSON.stringify(failed));
        assert.equal(typeof (failed.error as { code?: unknown }).code, 'number');
        assert.equal('result' in failed, false);

        const slow = await client.request('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
        const ack = await client.request('tasks/cancel', { taskId: slow.taskId as string });
        assertAck(ack as unknown as JsonObject);
        assert.equal((await settled(client, slow.taskId as string)).status, 'cancelled');
        assertAck(
          (await client.request('tasks/cancel', { taskId: slow.taskId as string })) as unknown as JsonObject,
        );

        // v1 methods are gone in the stateless era (our Client refuses to send them: a raw request).
        const capabilities = { extensions: { [TASKS_EXTENSION_ID]: {} } };
        for (const method of ['tasks/result', 'tasks/list']) {
          const answer = await statelessRequest(url, method, { taskId: slow.taskId }, { capabilities });
          assert.equal(answer.message.error?.code, -32601, JSON.stringify(answer.message));
        }
      } finally {
        await client.close();
      }
    });

    test("a task's elicitation is its input_required, answered by tasks/update; listen streams hear each status", async () => {
      const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
      await using _bridge = bridge;
      const client = await connect(url, true);
      try {
        const created = await client.request('tools/call', {
          name: 'confirm_delete',
          arguments: { filename: 'notes.txt' },
        });
        const taskId = created.taskId as string;
        assert.equal(created.resultType, 'task', JSON.stringify(created));
        const heard: JsonObject[] = [];
        let onHeard: () => void = () => {};
        client.on('notification', ({ method, params }) => {
          if (method !== 'notifications/tasks') return;
          heard.push(params);
          onHeard();
        });
        const heardStatus = (status: string): Promise<void> =>
          new Promise((resolve) => {
            onHeard = () => heard.some((task) => task.status === status) && resolve();
            onHeard();
          });
        const subscription = client.listen({ taskIds: [taskId] } as never);
        try {
          const acknowledged = (await subscription.acknowledged) as { taskIds?: string[] };
          assert.deepEqual(acknowledged.taskIds, [taskId]);
          await heardStatus('input_required');
          const waiting = await client.request('tasks/get', { taskId });
          assert.equal(waiting.status, 'input_required', JSON.stringify(waiting));
          const requests = Object.entries(waiting.inputRequests as Record<string, JsonObject>);
          assert.equal(requests.length, 1, JSON.stringify(waiting));
          const [key, request] = requests[0]!;
          assert.equal(request.method, 'elicitation/create');
          assert.equal((request.params as { message?: string }).message, 'Delete notes.txt?');
          assert.equal(JSON.stringify(request).includes('related-task'), false);
          assertAck(
            await client.request('tasks/update', {
              taskId,
              inputResponses: { [key]: { action: 'accept', content: { confirm: true } } },
            }),
          );
          await heardStatus('completed');
          const last = heard.at(-1)!;
          assert.equal(last.taskId, taskId);
          assert.equal('resultType' in last, false);
          assert.deepEqual((last.result as { content: unknown }).content, [
            { type: 'text', text: 'Deleted notes.txt' },
          ]);
        } finally {
          subscription.close();
        }
      } finally {
        await client.close();
      }
    });

    test('a task id is not the child id and reaches only through the bridge; the extension is required', async () => {
      const { bridge, url } = await BridgeProcess.start([], HANDSHAKE_EVERYTHING);
      await using _bridge = bridge;
      const client = await connect(url, true);
      const plain = await connect(url, false);
      try {
        const created = await client.request('tools/call', {
          name: 'slow_compute',
          arguments: { seconds: 0 },
        });
        const taskId = created.taskId as string;
        const [encoded] = taskId.split('.') as [string];
        const childId = Buffer.from(encoded, 'base64url').toString('utf8');
        // The child's own id, and the id with another MAC, are unknown tasks (-32602), as a foreign one.
        for (const forged of [childId, `${encoded}.${'A'.repeat(22)}`]) {
          const error = await rejection(client.request('tasks/get', { taskId: forged }));
          assert.equal(error.code, -32602, error.message);
        }
        // Without the extension on the request: -32021, for the tasks methods and a task-only tool.
        for (const method of ['tasks/get', 'tasks/cancel'])
          assert.equal((await rejection(plain.request(method, { taskId }))).code, -32021);
        const required = await rejection(plain.request('tools/call', { name: 'failing_job', arguments: {} }));
        assert.equal(required.code, -32021);
        assert.deepEqual((required.data as JsonObject).requiredCapabilities, {
          extensions: { [TASKS_EXTENSION_ID]: {} },
        });
        // A task-capable tool called without the extension runs at once.
        const sync = await plain.request('tools/call', { name: 'slow_compute', arguments: { seconds: 0 } });
        assert.equal(sync.resultType, 'complete');
      } finally {
        await plain.close();
        await client.close();
      }
    });
  },
);

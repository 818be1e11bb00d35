// The official v1 client's experimental tasks API (@modelcontextprotocol/sdk 1.x,
// `client.experimental.tasks`) against `mcpwire serve everything` over a real stdio child process, in
// the handshake era (2025-11-25, TASK-*): a task-capable tool streamed to its result, a tool error and
// a protocol error as failed tasks, an input round through the client's elicitation handler, get,
// list, result and cancel.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { OUR_EVERYTHING_SERVER, StderrTail } from './stdio-peers.ts';

const stderr = new StderrTail();
const client = new Client(
  { name: 'interop-official-v1-tasks', version: '1.0.0' },
  { capabilities: { elicitation: { form: {} } } },
);
const asked: string[] = [];
client.setRequestHandler(ElicitRequestSchema, (request) => {
  asked.push(request.params.message);
  return { action: 'accept', content: { confirm: true } };
});

before(async () => {
  const transport = new StdioClientTransport({ ...OUR_EVERYTHING_SERVER, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.write(chunk.toString('utf8')));
  await client.connect(transport);
  // The v1 client adds `task` to calls of tools it has seen listed as task-capable.
  await client.listTools();
});
after(() => client.close());

/** Every message of one callToolStream, as `type status-or-text` strings, and the last message. */
async function stream(name: string, args: Record<string, unknown>) {
  const seen: string[] = [];
  let taskId: string | undefined;
  let last: unknown;
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args })) {
    if (message.type === 'taskCreated') taskId = message.task.taskId;
    seen.push(
      message.type === 'taskCreated' || message.type === 'taskStatus'
        ? `${message.type} ${message.task.status}`
        : message.type,
    );
    last = message;
  }
  return { seen, taskId, last };
}

test('our server declares handshake-era tasks for tools/call, list and cancel (TASK-1) and lists slow_compute as optional (TASK-3)', async () => {
  assert.deepEqual(
    client.getServerCapabilities()?.tasks,
    {
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    },
    String(stderr),
  );
  const { tools } = await client.listTools();
  assert.equal(tools.find((tool) => tool.name === 'slow_compute')?.execution?.taskSupport, 'optional');
  assert.equal(tools.find((tool) => tool.name === 'failing_job')?.execution?.taskSupport, 'required');
});

test('callToolStream: taskCreated (working), status updates, then the tool result (TASK-5, TASK-7, TASK-12)', async () => {
  const { seen, taskId, last } = await stream('slow_compute', { seconds: 0.3, label: 'v1' });
  assert.equal(seen[0], 'taskCreated working');
  assert.equal(seen.at(-2), 'taskStatus completed');
  assert.equal(seen.at(-1), 'result');
  const result = (last as { result: { content: Array<{ text: string }> } }).result;
  assert.equal(result.content[0]?.text, 'Computed v1 after 0.3s');
  assert.ok(taskId);
  const task = await client.experimental.tasks.getTask(taskId);
  assert.equal(task.status, 'completed');
  assert.equal(typeof task.createdAt, 'string', 'TASK-10: createdAt in every task response');
  const payload = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
  assert.deepEqual(payload.content, result.content, 'TASK-12: tasks/result is the same result again');
  const { tasks } = await client.experimental.tasks.listTasks();
  assert.ok(
    tasks.some((entry) => entry.taskId === taskId),
    'TASK-16: a task the client can get is listed',
  );
});

test('a tool error and a protocol error end as failed tasks, which the v1 stream reports as errors (TASK-13)', async () => {
  for (const name of ['failing_job', 'protocol_error_job']) {
    const { seen, taskId } = await stream(name, {});
    assert.deepEqual(
      [seen[0], seen.at(-2), seen.at(-1)],
      ['taskCreated working', 'taskStatus failed', 'error'],
      name,
    );
    const task = await client.experimental.tasks.getTask(taskId!);
    assert.equal(task.status, 'failed');
    assert.match(task.statusMessage ?? '', /failing_job failed|protocol_error_job hit an internal error/);
  }
});

test("a task's elicitation reaches the v1 client's handler, and the task completes with the answer (TASK-9)", async () => {
  const { seen, last } = await stream('confirm_delete', { filename: 'notes.txt' });
  assert.equal(seen[0], 'taskCreated working');
  assert.equal(seen.at(-1), 'result', seen.join(', '));
  assert.deepEqual(asked, ['Delete notes.txt?']);
  const result = (last as { result: { content: Array<{ text: string }> } }).result;
  assert.equal(result.content[0]?.text, 'Deleted notes.txt');
});

test('cancelTask cancels a running task: cancelled at once, and a second cancel is -32602 (TASK-17)', async () => {
  const created = await client.request(
    {
      method: 'tools/call',
      params: { name: 'slow_compute', arguments: { seconds: 120 }, task: { ttl: 60_000 } },
    },
    CallToolResultSchema.passthrough(),
  );
  const taskId = (created as unknown as { task: { taskId: string } }).task.taskId;
  const cancelled = await client.experimental.tasks.cancelTask(taskId);
  assert.equal(cancelled.status, 'cancelled');
  assert.equal((await client.experimental.tasks.getTask(taskId)).status, 'cancelled');
  await assert.rejects(client.experimental.tasks.cancelTask(taskId), { code: -32602 });
});

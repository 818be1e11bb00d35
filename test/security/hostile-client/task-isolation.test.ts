// Tasks of unauthenticated clients (issue 21, "state"): without a principal a handshake-era task
// belongs to the session that created it, so another client of the same real `mcpwire serve
// everything --http` neither lists it nor reads, waits for or cancels it; a stateless-era task is
// reachable only by its unguessable id and is never listed. Over stdio there is one session.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RawServerProcess } from '../../support/raw-server-process.ts';
import { statelessRequest, RawHttpSession, spawnHttpServer, type Loose } from '../../support/raw-mcp-http.ts';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
/** crypto.randomUUID(): version 4, variant 10, 122 random bits. */
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const SECRET = { name: 'slow_compute', arguments: { seconds: 0, label: 'secret-of-A' } };

/** -32602 "no task": what an unknown task id gets (TASK-18). */
function assertUnknownTask(response: Loose, what: string): void {
  assert.equal(response.result, undefined, `${what}: no result, got ${JSON.stringify(response.result)}`);
  assert.equal(response.error?.code, -32602, `${what}: ${JSON.stringify(response.error)}`);
  assert.match(response.error.message, /no task/);
}

describe('tasks of clients without a principal', { timeout: 120_000 }, () => {
  test('handshake era over HTTP: session B neither lists nor reads, waits for or cancels session A’s task', async () => {
    await using server = await spawnHttpServer(['everything']);
    const a = await RawHttpSession.open(server.url);
    const b = await RawHttpSession.open(server.url);
    const created = await a.request('tools/call', { ...SECRET, task: { ttl: 60_000 } });
    const taskId = created.result?.task?.taskId as string;
    assert.match(taskId, UUID_V4, JSON.stringify(created));
    // A's own view: its task is listed and its result readable.
    const mine = await a.request('tasks/result', { taskId });
    assert.match(JSON.stringify(mine.result), /secret-of-A/);
    const listedToA = await a.request('tasks/list');
    assert.ok(listedToA.result.tasks.some((task: Loose) => task.taskId === taskId));

    const listedToB = await b.request('tasks/list');
    assert.deepEqual(listedToB.result?.tasks, [], `B's list: ${JSON.stringify(listedToB)}`);
    assertUnknownTask(await b.request('tasks/get', { taskId }), 'tasks/get from B');
    assertUnknownTask(await b.request('tasks/result', { taskId }), 'tasks/result from B');
    assertUnknownTask(await b.request('tasks/cancel', { taskId }), 'tasks/cancel from B');
    // A still owns it, unchanged by B's attempts.
    assert.equal((await a.request('tasks/get', { taskId })).result?.status, 'completed');
  });

  test('stateless era over HTTP: a task is reachable by its unguessable id only, and listed to no session', async () => {
    await using server = await spawnHttpServer(['everything']);
    const created = await statelessRequest(server.url, 'tools/call', SECRET, { capabilities: TASKS });
    assert.equal(created.message?.result?.resultType, 'task', JSON.stringify(created.message));
    const taskId = created.message.result.taskId as string;
    assert.match(taskId, UUID_V4);
    // Another client that knows the id reaches it (S26-TASK-15: the id is the capability).
    const got = await statelessRequest(server.url, 'tasks/get', { taskId }, { id: 2, capabilities: TASKS });
    assert.equal(got.message?.result?.taskId, taskId, JSON.stringify(got.message));
    // No handshake-era session lists it, and the stateless era has no tasks/list at all.
    const session = await RawHttpSession.open(server.url);
    assert.deepEqual((await session.request('tasks/list')).result?.tasks, []);
    const listed = await statelessRequest(server.url, 'tasks/list', {}, { id: 3, capabilities: TASKS });
    assert.equal(listed.message?.error?.code, -32601, JSON.stringify(listed.message));
  });

  test('stdio: the one session lists, reads and cancels its own tasks', async () => {
    await using server = new RawServerProcess(['serve', 'everything']);
    await server.initialize();
    const created = await server.request('tools/call', {
      name: 'slow_compute',
      arguments: { seconds: 600, label: 'long' },
      task: { ttl: 60_000 },
    });
    const taskId = created.result?.task?.taskId as string;
    assert.match(taskId, UUID_V4, JSON.stringify(created));
    const listed = await server.request('tasks/list');
    assert.ok(
      listed.result.tasks.some((task: Loose) => task.taskId === taskId),
      JSON.stringify(listed),
    );
    assert.equal((await server.request('tasks/get', { taskId })).result?.status, 'working');
    assert.equal((await server.request('tasks/cancel', { taskId })).result?.status, 'cancelled');
  });
});

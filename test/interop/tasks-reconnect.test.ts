// A task made by our client survives the client reconnecting (issue 12, "What it must show" 2), in
// the stateless era, and in the handshake era only for its principal (issue 21: without one, a
// new session of the same unauthenticated client is refused like any other): over Streamable HTTP (our everything server on a real socket, a new Client and
// transport resume it by id) and over stdio, where each connection is a new server process, so the
// task lives in a durable store (fixtures/tasks-durable-server.ts); and what happens without one.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { Client } from 'mcpwire/client';
import { tasks, TaskDetachedError, TasksClient, type TaskHandle } from 'mcpwire/extensions/tasks';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { StdioClientTransport } from 'mcpwire/stdio';
import { CHILD_STARTUP_WAIT, sourceCommand } from '../support/node-options.ts';
import { startOurHttpServer } from './http/http-hosts.ts';
import { OUR_EVERYTHING_SERVER, REPO_ROOT, StderrTail, type StdioCommand } from './stdio-peers.ts';

const ERAS = ['handshake', 'stateless'] as const;
const work = mkdtempSync(join(tmpdir(), 'mcpwire-tasks-reconnect-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** The durable-store fixture over stdio, keeping its tasks in `store`. */
function durableServer(store: string): StdioCommand {
  return sourceCommand(join(REPO_ROOT, 'test', 'interop', 'fixtures', 'tasks-durable-server.ts'), store);
}

/** A new Client declaring the tasks extension, connected over `transport`. */
async function connect(
  era: (typeof ERAS)[number],
  transport: StreamableHttpClientTransport | StdioClientTransport,
): Promise<Client> {
  const client = new Client(
    { name: 'interop-tasks-reconnect', version: '1.0.0' },
    { era, eraCache: false, extensions: [tasks()], ...CHILD_STARTUP_WAIT },
  );
  await client.connect(transport);
  return client;
}

/** Resolves once the handle has seen `completed` (it polls at the server's interval). */
function completed(handle: TaskHandle): Promise<void> {
  if (handle.status === 'completed') return Promise.resolve();
  return new Promise((resolve) => {
    const off = handle.onStatus((task) => {
      if (task.status !== 'completed') return;
      off();
      resolve();
    });
  });
}

describe('a task survives its client reconnecting', { concurrency: 2 }, () => {
  for (const era of ERAS) {
    test(`${era}, Streamable HTTP: a new connection resumes the task by id and fetches its result`, async () => {
      const http = await startOurHttpServer();
      try {
        const first = await connect(era, new StreamableHttpClientTransport(http.url));
        const handle = await new TasksClient(first).callToolAsTask('slow_compute', {
          seconds: 1,
          label: 'resumed',
        });
        const taskId = handle.id;
        assert.equal(typeof taskId, 'string', 'slow_compute ran as a task');
        await first.close();
        await assert.rejects(handle.result(), TaskDetachedError);

        const second = await connect(era, new StreamableHttpClientTransport(http.url));
        if (era === 'handshake') {
          // Without a principal a handshake-era task belongs to the session that made it (issue 21).
          await assert.rejects(new TasksClient(second).task(taskId!), { code: -32602 });
          await second.close();
          return;
        }
        const resumed = await new TasksClient(second).task(taskId!);
        assert.equal(resumed.id, taskId);
        const result = await resumed.result();
        assert.deepEqual(result.content, [{ type: 'text', text: 'Computed resumed after 1s' }]);
        assert.equal(resumed.status, 'completed');
        await second.close();
      } finally {
        await http.close();
      }
    });

    test(`${era}, stdio with a durable store: the next server process serves the task and its result`, async () => {
      const store = join(work, `${era}-store.json`);
      const stderr = new StderrTail();
      const first = await connect(
        era,
        new StdioClientTransport({ ...durableServer(store), stderr: stderr.write }),
      );
      const handle = await new TasksClient(first).callToolAsTask('square', { n: 7 });
      const taskId = handle.id;
      assert.equal(typeof taskId, 'string', String(stderr));
      // Over stdio the work runs in the server process, which ends with the connection: let it finish.
      await completed(handle);
      await first.close();

      const second = await connect(
        era,
        new StdioClientTransport({ ...durableServer(store), stderr: stderr.write }),
      );
      if (era === 'handshake') {
        // Without a principal a handshake-era task belongs to the session that made it (issue 21).
        await assert.rejects(new TasksClient(second).task(taskId!), { code: -32602 });
        await second.close();
        return;
      }
      const resumed = await new TasksClient(second).task(taskId!);
      assert.equal(resumed.status, 'completed');
      assert.deepEqual((await resumed.result()).content, [{ type: 'text', text: '49' }], String(stderr));
      await second.close();
    });

    test(`${era}, stdio with the in-memory store: a task ends with its server process, and resuming it is -32602 (TASK-18, S26-TASK-12)`, async () => {
      const first = await connect(era, new StdioClientTransport(OUR_EVERYTHING_SERVER));
      const handle = await new TasksClient(first).callToolAsTask('slow_compute', { seconds: 0 });
      const taskId = handle.id!;
      await first.close();
      const second = await connect(era, new StdioClientTransport(OUR_EVERYTHING_SERVER));
      await assert.rejects(new TasksClient(second).task(taskId), { code: -32602 });
      await second.close();
    });
  }
});

// Our client as the receiver of a handshake-era task (2025-11-25, TASK-1..12 the other way round):
// the official v1 server (fixtures/official-v1-task-requestor.mjs, over stdio) sends a task-augmented
// elicitation/create with its experimental `elicitInputStream`; our client declares
// `tasks.requests.elicitation.create`, answers with a task, runs its elicitation handler in the
// background and serves the server's tasks/get and tasks/result.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';

import { Client } from 'mcpwire/client';
import { tasks } from 'mcpwire/extensions/tasks';
import { StdioClientTransport } from 'mcpwire/stdio';
import { CHILD_STARTUP_WAIT } from '../support/node-options.ts';
import { REPO_ROOT, StderrTail } from './stdio-peers.ts';

test('the official v1 server runs an elicitation as a task on our client and gets the answer through tasks/result (TASK-5, TASK-12, TASK-15)', async () => {
  const stderr = new StderrTail();
  const inbound: string[] = [];
  const client = new Client(
    { name: 'interop-task-receiver', version: '1.0.0' },
    {
      era: 'handshake',
      eraCache: false,
      extensions: [tasks()],
      ...CHILD_STARTUP_WAIT,
      // The user takes a moment: the server sees the task working before it completes.
      handlers: {
        elicitation: async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return { action: 'accept', content: { name: 'Ada' } };
        },
      },
    },
  );
  // The app's middleware sees every server request, the ones the extension serves included.
  client.use((request, next) => {
    if (request.direction === 'inbound') inbound.push(request.method);
    return next();
  });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [join(REPO_ROOT, 'test', 'interop', 'fixtures', 'official-v1-task-requestor.mjs')],
      cwd: REPO_ROOT,
      stderr: stderr.write,
    }),
  );
  try {
    const result = await client.callTool({ name: 'ask_as_task' });
    const text = (result.content[0] as { text: string }).text;
    const { seen, answer } = JSON.parse(text) as { seen: string[]; answer: Record<string, unknown> };
    assert.equal(seen[0], 'taskCreated:working', `${text}\n${String(stderr)}`);
    assert.deepEqual(seen.slice(-2), ['taskStatus:completed', 'result']);
    assert.equal(answer.action, 'accept');
    assert.deepEqual(answer.content, { name: 'Ada' });
    const related = (answer._meta as Record<string, { taskId?: unknown }>)[
      'io.modelcontextprotocol/related-task'
    ];
    assert.equal(typeof related?.taskId, 'string', 'TASK-12: the result carries the related task');
    // The extension serves tasks/get and tasks/result behind the app's middleware, as handlers are.
    assert.equal(inbound[0], 'elicitation/create');
    assert.ok(inbound.includes('tasks/get'), inbound.join(', '));
    assert.equal(inbound.at(-1), 'tasks/result');
  } finally {
    await client.close();
  }
});

// Tasks over real transports, once per era: the handshake era's core tasks over stdio with a child
// process (input through real elicitation requests tagged with the task, TASK-9/15; the result
// through blocking tasks/result), and the stateless era's extension over HTTP on 127.0.0.1
// (CreateTaskResult, tasks/get with its Mcp-Name header, S26-TASK-14; tasks/update; the result;
// `notifications/tasks` on a listen stream's SSE, S26-TASK-13).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/message.ts';
import { tasks } from '../src/extensions/tasks/index.ts';
import { Server } from '../src/server/index.ts';
import { createHttpHandler } from '../src/transports/http/index.ts';
import { serveHttp } from '../src/transports/http/node.ts';
import { SseReader, sseMessages, type Loose } from './support/http-kit.ts';
import { statelessMeta, WITH_TASKS } from './support/task-peer.ts';

const RELATED = 'io.modelcontextprotocol/related-task';

/** Stateless-era POSTs declaring the tasks extension: `post` gives the response, `call` its last message. */
function httpCaller(url: string) {
  let id = 0;
  const post = (method: string, params: JsonObject, name?: string): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': method,
        ...(name === undefined ? {} : { 'Mcp-Name': name }),
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: ++id,
        method,
        params: { ...params, _meta: statelessMeta(WITH_TASKS) },
      }),
    });
  const call = async (
    method: string,
    params: JsonObject,
    name?: string,
  ): Promise<{ status: number; body: Loose }> => {
    const response = await post(method, params, name);
    const isSse = response.headers.get('content-type')?.startsWith('text/event-stream') === true;
    const body: Loose = isSse ? (await sseMessages(response)).at(-1) : await response.json();
    return { status: response.status, body };
  };
  return { post, call };
}

test('handshake era over stdio: a task asks twice with tagged requests, then tasks/result returns its result', async () => {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures/tasks/stdio-tasks-server.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const send = (message: JsonObject) => child.stdin.write(`${JSON.stringify(message)}\n`);
  /** The next message from the server; tasks' status notifications are collected on the way. */
  const statuses: string[] = [];
  const next = async (): Promise<Loose> => {
    for (;;) {
      const { value, done } = await lines.next();
      assert.equal(done, false, 'the server closed stdout');
      const message = JSON.parse(value as string) as Loose;
      if (message.method !== 'notifications/tasks/status') return message;
      statuses.push(message.params.status as string);
    }
  };
  try {
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 't', version: '1' },
      },
    });
    assert.ok((await next()).result.capabilities.tasks.requests.tools.call);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'ask_twice', arguments: {}, task: { ttl: 60_000 } },
    });
    const created = await next();
    assert.equal(created.id, 2);
    const { taskId } = created.result.task as { taskId: string };
    send({ jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } });
    for (const action of ['accept', 'decline']) {
      const asked = await next();
      assert.equal(asked.method, 'elicitation/create');
      assert.deepEqual(asked.params._meta[RELATED], { taskId });
      send({
        jsonrpc: '2.0',
        id: asked.id,
        result: { action, ...(action === 'accept' ? { content: { confirm: true } } : {}) },
      });
    }
    const result = await next();
    assert.equal(result.id, 3);
    assert.deepEqual(result.result.content, [{ type: 'text', text: 'accept, then decline' }]);
    assert.deepEqual(result.result._meta[RELATED], { taskId });
    assert.deepEqual(statuses, ['input_required', 'working', 'input_required', 'working', 'completed']);
  } finally {
    child.stdin.end();
    child.kill();
  }
});

/** A stateless-era server with the tasks extension and a `confirm` tool that asks once (key `sure`). */
function confirmServer(name: string) {
  const extension = tasks({ pollIntervalMs: 100 });
  const server = new Server({ name, version: '1' }, { extensions: [extension] });
  server.tool({ name: 'confirm', execution: { taskSupport: 'optional' } }, async (_args, ctx) => {
    const answer = await ctx.elicit(
      { mode: 'form', message: 'Sure?', requestedSchema: { type: 'object', properties: {} } },
      { key: 'sure' },
    );
    return `answered ${answer.action}`;
  });
  return { extension, server };
}

test('stateless era over HTTP: CreateTaskResult, tasks/get with Mcp-Name, input by tasks/update, the result inlined', async () => {
  const { extension, server } = confirmServer('http-tasks');
  const http = await serveHttp(createHttpHandler(server), { port: 0 });
  const { call } = httpCaller(http.url);
  /**
   * Reads the task over HTTP until it has `status`, reading again after each change the runner
   * makes to it (the listener is set before each read, so no change is missed; no timing).
   */
  const reach = async (taskId: string, status: string): Promise<Loose> => {
    for (;;) {
      let off!: () => void;
      const changed = new Promise<void>((resolve) => {
        off = extension.runner.onChange((changedId) => changedId === taskId && resolve());
      });
      const task = (await call('tasks/get', { taskId }, taskId)).body.result;
      if (task.status === status) {
        off();
        return task;
      }
      await changed;
      off();
    }
  };
  try {
    const created = await call('tools/call', { name: 'confirm', arguments: {} }, 'confirm');
    assert.equal(created.body.result.resultType, 'task');
    const taskId = created.body.result.taskId as string;
    const mismatch = await call('tasks/get', { taskId }, 'some-other-task');
    assert.equal(mismatch.status, 400);
    assert.equal(mismatch.body.error.code, -32020);
    const parked = await reach(taskId, 'input_required');
    assert.deepEqual(Object.keys(parked.inputRequests), ['sure']);
    const ack = await call(
      'tasks/update',
      { taskId, inputResponses: { sure: { action: 'accept', content: {} } } },
      taskId,
    );
    assert.equal(ack.body.result.resultType, 'complete');
    const task = await reach(taskId, 'completed');
    assert.deepEqual(task.result.content, [{ type: 'text', text: 'answered accept' }]);
  } finally {
    await http.close();
    await server.close();
    await extension.runner.close();
  }
});

test('stateless era over HTTP: a listen stream for taskIds carries notifications/tasks up to the terminal status (S26-TASK-13)', async () => {
  const { extension, server } = confirmServer('http-tasks-listen');
  const http = await serveHttp(createHttpHandler(server), { port: 0 });
  const { post, call } = httpCaller(http.url);
  let reader: SseReader | undefined;
  try {
    const created = await call('tools/call', { name: 'confirm', arguments: {} }, 'confirm');
    const taskId = created.body.result.taskId as string;
    const listen = await post('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    assert.equal(listen.status, 200);
    reader = new SseReader(listen);
    const ack = (await reader.nextMessage()) as Loose;
    assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
    assert.deepEqual(ack.params.notifications, { taskIds: [taskId] });
    /** The stream's next notifications/tasks, checked to be tagged with the subscription. */
    const nextTask = async (): Promise<Loose> => {
      const message = (await reader!.nextMessage()) as Loose;
      assert.equal(message.method, 'notifications/tasks');
      assert.equal(
        message.params._meta['io.modelcontextprotocol/subscriptionId'],
        ack.params._meta['io.modelcontextprotocol/subscriptionId'],
      );
      return message.params;
    };
    let task = await nextTask();
    while (task.status !== 'input_required') task = await nextTask();
    assert.deepEqual(Object.keys(task.inputRequests), ['sure']);
    await call(
      'tasks/update',
      { taskId, inputResponses: { sure: { action: 'accept', content: {} } } },
      taskId,
    );
    while (task.status !== 'completed') task = await nextTask();
    assert.equal(task.taskId, taskId);
    assert.deepEqual(task.result.content, [{ type: 'text', text: 'answered accept' }]);
  } finally {
    await reader?.cancel();
    await http.close();
    await server.close();
    await extension.runner.close();
  }
});

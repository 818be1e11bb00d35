// Our client's tasks over Streamable HTTP and real sockets, in both eras, against our everything
// server and the official one: input a task needs reaches the client's handlers (handshake era: a
// real elicitation/create tagged with the task, delivered while tasks/result waits, TASK-9/15;
// stateless era: the task's inputRequests answered with tasks/update, S26-TASK-10), once per key.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { Client, type ClientRequestContext } from 'mcpwire/client';
import type { ElicitRequestParams, ElicitResult } from 'mcpwire';
import { tasks, TasksClient } from 'mcpwire/extensions/tasks';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import {
  startOurHttpServer,
  startServerEverything,
  type OurHttpServer,
  type ServerEverythingProcess,
} from './http/http-hosts.ts';

const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** The elicitations a client was asked, with the related task each carried. */
class Asked {
  readonly questions: Array<{ message: string; relatedTask: unknown }> = [];

  readonly handler = (params: ElicitRequestParams, ctx: ClientRequestContext): ElicitResult => {
    this.questions.push({ message: params.message, relatedTask: ctx.meta[RELATED_TASK] });
    const properties = 'requestedSchema' in params ? params.requestedSchema.properties : {};
    // Every form field answered by its type: a boolean yes, a string's first choice, else a name.
    const content = Object.fromEntries(
      Object.entries(properties).map(([key, schema]) => [key, answerFor(schema as FieldSchema)]),
    );
    return { action: 'accept', content };
  };
}

interface FieldSchema {
  type?: string;
  enum?: string[];
  oneOf?: Array<{ const?: string }>;
}

function answerFor(schema: FieldSchema): string | boolean {
  if (schema.type === 'boolean') return true;
  return schema.enum?.[0] ?? schema.oneOf?.[0]?.const ?? 'Ada';
}

async function connect(url: string, era: 'handshake' | 'stateless', asked: Asked): Promise<Client> {
  const client = new Client(
    { name: 'interop-tasks-http', version: '1.0.0' },
    { era, eraCache: false, extensions: [tasks()], handlers: { elicitation: asked.handler } },
  );
  await client.connect(new StreamableHttpClientTransport(url));
  return client;
}

describe('our client runs tasks that need input, over Streamable HTTP', { concurrency: 2 }, () => {
  let ours: OurHttpServer;
  let official: ServerEverythingProcess;
  before(async () => {
    [ours, official] = await Promise.all([startOurHttpServer(), startServerEverything('streamableHttp')]);
  });
  after(async () => {
    await Promise.all([ours.close(), official.close()]);
  });

  for (const era of ['handshake', 'stateless'] as const) {
    test(`${era}: our server's confirm_delete and multi_input ask through the handlers and complete with the answers`, async () => {
      const asked = new Asked();
      const client = await connect(ours.url, era, asked);
      const taskClient = new TasksClient(client, { defaultPollIntervalMs: 100 });
      const confirm = await taskClient.callToolAsTask('confirm_delete', { filename: 'notes.txt' });
      assert.equal(typeof confirm.id, 'string');
      assert.deepEqual((await confirm.result()).content, [{ type: 'text', text: 'Deleted notes.txt' }]);
      const multi = await taskClient.callToolAsTask('multi_input');
      const multiResult = await multi.result();
      assert.equal(multiResult.isError, undefined, JSON.stringify(multiResult));
      assert.equal(asked.questions.length, 3, JSON.stringify(asked.questions));
      // TASK-15: the handshake era tags a task's requests with it; the stateless era's input requests
      // are the task's own (no related-task _meta).
      const expected = era === 'handshake' ? { taskId: confirm.id } : undefined;
      assert.deepEqual(asked.questions[0]?.relatedTask, expected);
      await client.close();
    });
  }

  test("handshake: the official everything server's research task asks for clarification and completes", async () => {
    const asked = new Asked();
    const client = await connect(`${official.origin}/mcp`, 'handshake', asked);
    const research = await new TasksClient(client).callToolAsTask('simulate-research-query', {
      topic: 'tides',
      ambiguous: true,
    });
    assert.equal(typeof research.id, 'string');
    const statuses: string[] = [];
    research.onStatus((task) => statuses.push(task.status));
    const result = await research.result();
    assert.match(JSON.stringify(result.content), /Research Report/);
    assert.equal(asked.questions.length, 1, JSON.stringify(asked.questions));
    assert.deepEqual(asked.questions[0]?.relatedTask, { taskId: research.id });
    assert.equal(statuses.at(-1), 'completed');
    await client.close();
  });
});

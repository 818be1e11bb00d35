// Two clients sharing one server instance under concurrent load each receive only their own
// responses and notifications (issue 13; the CVE-2026-25536 class, where responses leaked between
// clients of one server). Over real sockets on 127.0.0.1: two handshake-era sessions and two
// stateless-era clients send the same request ids at once, with progress tokens and echoed text
// that name the sender, and every message each receives is checked to be its own.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { statelessMeta, sseMessages, type Loose } from '../../../test/support/http-kit.ts';
import type { JsonObject } from '../../jsonrpc/message.ts';
import { createHttpHandler } from './handler.ts';
import { serveHttp } from './node.ts';

const CALLS = 40;
const ACCEPT = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** How one client sends: its headers, and the `_meta` its requests carry. */
interface ClientShape {
  name: string;
  headers: Record<string, string>;
  meta(extra: JsonObject): JsonObject;
}

async function openSession(url: string, name: string): Promise<ClientShape> {
  const init = await fetch(url, {
    method: 'POST',
    headers: ACCEPT,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } },
    }),
  });
  await init.text();
  const headers = {
    'Mcp-Session-Id': init.headers.get('mcp-session-id') ?? '',
    'MCP-Protocol-Version': '2025-11-25',
  };
  const done = await fetch(url, {
    method: 'POST',
    headers: { ...ACCEPT, ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  assert.equal(done.status, 202);
  return { name, headers, meta: (extra) => extra };
}

function statelessClient(name: string): ClientShape {
  return { name, headers: { 'MCP-Protocol-Version': '2026-07-28' }, meta: (extra) => statelessMeta(extra) };
}

/** Calls a tool with request id `id`; resolves with every message of the answer (JSON or SSE). */
async function call(url: string, client: ClientShape, id: number): Promise<Loose[]> {
  const isProgress = id % 2 === 0;
  const token = `${client.name}-${id}`;
  const name = isProgress ? 'test_tool_with_progress' : 'echo';
  const params = {
    name,
    arguments: isProgress ? {} : { message: token },
    _meta: client.meta({ progressToken: token }),
  };
  const stateless = client.headers['MCP-Protocol-Version'] === '2026-07-28';
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...ACCEPT,
      ...client.headers,
      ...(stateless ? { 'Mcp-Method': 'tools/call', 'Mcp-Name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
  });
  assert.equal(response.status, 200);
  if (response.headers.get('content-type') === 'application/json') return [await response.json()];
  return sseMessages(response);
}

test(
  'two sessions and two stateless clients with colliding request ids each receive only their own messages',
  { timeout: 60_000 },
  async () => {
    const handler = createHttpHandler(createFixtureServer(), { keepAliveMs: 0 });
    await using handle = await serveHttp(handler, { port: 0 });
    const clients = [
      await openSession(handle.url, 'session-a'),
      await openSession(handle.url, 'session-b'),
      statelessClient('stateless-c'),
      statelessClient('stateless-d'),
    ];
    const calls = clients.flatMap((client) =>
      Array.from({ length: CALLS }, (_v, i) => i + 2).map(async (id) => ({
        client,
        id,
        messages: await call(handle.url, client, id),
      })),
    );
    const answers = await Promise.all(calls);
    let progressSeen = 0;
    for (const { client, id, messages } of answers) {
      const token = `${client.name}-${id}`;
      const where = `${client.name} request ${id}`;
      const responses = messages.filter((message) => 'result' in message || 'error' in message);
      assert.equal(responses.length, 1, `${where}: exactly one response`);
      assert.equal(responses[0].id, id, `${where}: the response has its id`);
      assert.deepEqual(
        responses[0].result.content,
        [{ type: 'text', text: token }],
        `${where}: its own result`,
      );
      for (const message of messages.filter((m) => m.method === 'notifications/progress')) {
        assert.equal(message.params.progressToken, token, `${where}: only its own progress`);
        progressSeen++;
      }
      assert.ok(
        messages.every((m) => 'result' in m || m.method === 'notifications/progress'),
        `${where}: nothing else on its stream: ${JSON.stringify(messages.map((m) => m.method ?? m.id))}`,
      );
    }
    // Half the calls report progress 0, 50 and 100 (the fixture's tool): none was lost either.
    assert.equal(progressSeen, ((clients.length * CALLS) / 2) * 3);
  },
);

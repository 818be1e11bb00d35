// createSessionlessHandler, the HTTP endpoint without handshake-era sessions, for runtimes whose
// requests share no memory: `initialize` issues no Mcp-Session-Id (HTTP-26 makes the id optional),
// every POST is served on its own in the revision its MCP-Protocol-Version names (2025-03-26 when
// absent, HTTP-34), GET and DELETE get 405 (HTTP-19), nothing is kept for resumption, and a client
// that goes away cancels its request. Served through `serveRequest`, for a ServerCore and a Server alike.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from '../src/client/client.ts';
import type { JsonObject } from '../src/jsonrpc/message.ts';
import { createSessionlessHandler } from '../src/transports/http/index.ts';
import { ServerCore } from '../src/server/server-core.ts';
import { createFixtureServer } from './support/fixture-server.ts';
import { ENDPOINT, post, SseReader, type Loose } from './support/http-kit.ts';

function setup(server: ServerCore = createFixtureServer()) {
  return { handler: createSessionlessHandler(server, { keepAliveMs: 0 }) };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

const call = (id: number, name: string, args: JsonObject = {}, meta?: JsonObject) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: meta ? { name, arguments: args, _meta: meta } : { name, arguments: args },
});

const textOf = (body: Loose): string => body.result.content[0].text;

/** Lets the handler's end-of-POST work (closing the session) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('HTTP without handshake-era sessions', () => {
  test('initialize is answered without Mcp-Session-Id; later POSTs need none', async () => {
    const { handler } = setup();
    const opened = await handler(post(INITIALIZE));
    assert.equal(opened.status, 200);
    assert.equal(opened.headers.get('mcp-session-id'), null);
    assert.equal(((await opened.json()) as Loose).result.protocolVersion, '2025-11-25');
    const version = { 'MCP-Protocol-Version': '2025-11-25' };
    const initialized = await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, version));
    assert.equal(initialized.status, 202);
    const listed = await handler(post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, version));
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('mcp-session-id'), null);
    assert.ok(((await listed.json()) as Loose).result.tools.some((tool: Loose) => tool.name === 'echo'));
    const echoed = await handler(post(call(2, 'echo', { message: 'hi' }), version));
    assert.match(textOf(await echoed.json()), /hi/);
  });

  test('a session id the client sends anyway is ignored, not looked up', async () => {
    const { handler } = setup();
    const listed = await handler(
      post({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'Mcp-Session-Id': 'from-elsewhere' }),
    );
    assert.equal(listed.status, 200);
  });

  test('GET and DELETE get 405 with Allow: POST', async () => {
    const { handler } = setup();
    const get = await handler(new Request(ENDPOINT, { headers: { Accept: 'text/event-stream' } }));
    assert.equal(get.status, 405);
    assert.equal(get.headers.get('allow'), 'POST');
    const deleted = await handler(new Request(ENDPOINT, { method: 'DELETE' }));
    assert.equal(deleted.status, 405);
    assert.equal(deleted.headers.get('allow'), 'POST');
  });

  test('each POST is served in the revision its MCP-Protocol-Version names, 2025-03-26 when absent', async () => {
    const server = new ServerCore({ name: 'versions', version: '1' });
    server.tool({ name: 'version' }, (_args, ctx) => ctx.protocolVersion);
    const { handler } = setup(server);
    const versionOf = async (headers: Record<string, string>) =>
      textOf(await (await handler(post(call(1, 'version'), headers))).json());
    assert.equal(await versionOf({}), '2025-03-26');
    assert.equal(await versionOf({ 'MCP-Protocol-Version': '2025-06-18' }), '2025-06-18');
    assert.equal(await versionOf({ 'MCP-Protocol-Version': '2025-11-25' }), '2025-11-25');
    const unknown = await handler(post(call(1, 'version'), { 'MCP-Protocol-Version': '2024-01-01' }));
    assert.equal(unknown.status, 400);
  });

  test('a batch is served in 2025-03-26 and refused in later revisions', async () => {
    const { handler } = setup();
    const batch = [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, call(2, 'echo', { message: 'b' })];
    const served = await handler(post(batch, { 'MCP-Protocol-Version': '2025-03-26' }));
    assert.equal(served.status, 200);
    const answers = (await served.json()) as Loose[];
    assert.deepEqual(answers.map((answer) => answer.id).sort(), [1, 2]);
    const refused = await handler(post(batch, { 'MCP-Protocol-Version': '2025-06-18' }));
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as Loose).error.message, /batches exist only in .*2025-03-26/);
  });

  test('progress streams on the POST, with no event ids: there is nothing to resume', async () => {
    const { handler } = setup();
    const response = await handler(
      post(call(7, 'test_tool_with_progress', {}, { progressToken: 'p' }), {
        'MCP-Protocol-Version': '2025-11-25',
      }),
    );
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    const frames = await new SseReader(response).rest();
    assert.ok(frames.every((frame) => frame.id === undefined));
    const messages = frames.map((frame) => JSON.parse(frame.data) as Loose);
    assert.deepEqual(
      messages.filter((message) => message.method === 'notifications/progress').map((m) => m.params.progress),
      [0, 50, 100],
    );
    assert.equal(messages.at(-1).id, 7);
    assert.equal(textOf(messages.at(-1)), 'p');
  });

  test('the server cannot ask a client it has no session with: the tool fails and says why', async () => {
    const { handler } = setup();
    const response = await handler(
      post(call(3, 'test_elicitation', { message: 'Name?' }), { 'MCP-Protocol-Version': '2025-11-25' }),
    );
    assert.equal(response.headers.get('content-type'), 'application/json');
    const answer = (await response.json()) as Loose;
    assert.equal(answer.result.isError, true);
    assert.equal(
      textOf(answer),
      'Cannot send "elicitation/create": the client capability "elicitation" was not negotiated',
    );
  });

  test('a client that goes away cancels its request', async () => {
    const server = new ServerCore({ name: 'slow', version: '1' });
    let resolveAborted!: (reason: unknown) => void;
    const aborted = new Promise((resolve) => (resolveAborted = resolve));
    server.tool({ name: 'wait' }, (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => resolveAborted(ctx.signal.reason), { once: true });
      return new Promise<string>(() => {});
    });
    const { handler } = setup(server);
    const controller = new AbortController();
    const pending = handler(
      post(call(1, 'wait'), { 'MCP-Protocol-Version': '2025-11-25' }, controller.signal),
    );
    await settle();
    controller.abort();
    await aborted;
    await pending.catch(() => {});
  });

  test('our client completes a handshake-era session, with no session id to keep', async () => {
    const { handler } = setup();
    const seen: Array<{ method: string; sessionId: string | null }> = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const request = new Request(input, init);
      seen.push({ method: request.method, sessionId: request.headers.get('mcp-session-id') });
      return handler(request);
    };
    const { StreamableHttpClientTransport } = await import('../src/transports/http/index.ts');
    const client = new Client({ name: 'c', version: '1' }, { era: 'handshake', eraCache: false });
    await client.connect(new StreamableHttpClientTransport(ENDPOINT, { fetch }));
    try {
      assert.equal(client.era, 'handshake');
      const tools = await client.listAllTools();
      assert.ok(tools.some((tool) => tool.name === 'echo'));
      const echoed = await client.callTool({ name: 'echo', arguments: { message: 'x' } });
      assert.match(JSON.stringify(echoed.content), /x/);
    } finally {
      await client.close();
    }
    assert.ok(seen.length >= 4);
    assert.ok(seen.every((entry) => entry.sessionId === null));
    assert.ok(!seen.some((entry) => entry.method === 'DELETE'));
  });
});

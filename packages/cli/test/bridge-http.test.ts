// `mcpwire bridge --http 0 -- <stdio server>` as a process between real clients (ours, the official
// v1 SDK's) and a hand-written stdio server: a session per client with its own child, the child's
// messages relayed both ways (a tool call, an elicitation the child asks mid-call, progress,
// cancellation, a list change), its initialize result as it wrote it.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { BridgeProcess, isAlive } from './support/bridge-process.ts';
import {
  callBody,
  initializeBody,
  openSession,
  post,
  resultText,
  REVISION,
} from './support/raw-bridge-rpc.ts';

/** The first text content of a tool result. */
function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  assert.equal(first?.type, 'text', JSON.stringify(result));
  return first.text!;
}

describe('mcpwire bridge --http', { concurrency: 2 }, () => {
  test("initialize gets a fresh session id and the child's result as it wrote it; stdout stays empty", async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    assert.match(bridge.stderr, /^mcpwire: bridging http:\/\/127\.0\.0\.1:\d+\/mcp to /m);
    const first = await post(url, initializeBody(7));
    const second = await post(url, initializeBody(7));
    assert.equal(first.status, 200, first.text);
    assert.match(first.sessionId ?? '', /^[0-9a-f-]{36}$/);
    assert.notEqual(first.sessionId, second.sessionId);
    assert.deepEqual(first.response, {
      jsonrpc: '2.0',
      id: 7,
      result: {
        protocolVersion: REVISION,
        capabilities: {
          tools: { listChanged: true },
          experimental: { 'x.bridge/kept': { order: ['b', 'a'], n: 2.5 } },
        },
        serverInfo: { name: 'bridge-child', version: '1.0.0' },
      },
    });
    // One child per session, each with its own pid.
    await bridge.waitUntil('two children', () => bridge.childPids.length === 2);
    assert.notEqual(bridge.childPids[0], bridge.childPids[1]);
    assert.equal(bridge.stdout, '');
  });

  test("a response of the child's is the HTTP body byte for byte (no decode and encode again)", async () => {
    // --sse-after far away: the answer is JSON however loaded the machine is.
    const { bridge, url } = await BridgeProcess.start(['--sse-after', '600000']);
    await using _bridge = bridge;
    const sessionId = await openSession(url);
    const answer = await post(url, callBody(12, 'spelled'), sessionId);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(
      answer.text,
      '{ "id": 12, "jsonrpc": "2.0", "result": {"content": [{"type": "text", "text": "\\u0041"}], "n": 1.0} }',
    );
  });

  test('our Client: a tool call, an elicitation the child asks mid-call, progress, cancellation, a list change', async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const asked: string[] = [];
    const client = new Client(
      { name: 'bridge-test', version: '1.0.0' },
      {
        era: 'handshake',
        handlers: {
          elicitation: (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { name: 'ada' } };
          },
        },
      },
    );
    await client.connect(new StreamableHttpClientTransport(url));
    try {
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hello' } })), 'hello');
      const answered = JSON.parse(textOf(await client.callTool({ name: 'ask', arguments: {} })));
      assert.deepEqual(answered, { action: 'accept', content: { name: 'ada' } });
      assert.deepEqual(asked, ['Who are you?']);

      const controller = new AbortController();
      const progress: number[] = [];
      const slow = client.callTool(
        { name: 'slow', arguments: {} },
        {
          signal: controller.signal,
          onProgress: (update) => {
            progress.push(update.progress);
            controller.abort();
          },
        },
      );
      await assert.rejects(slow);
      assert.deepEqual(progress, [1]);
      const cancelled = JSON.parse(textOf(await client.callTool({ name: 'cancelled', arguments: {} })));
      assert.equal(cancelled.length, 1, 'the child got notifications/cancelled for the slow call');

      const changed = new Promise<string>((resolve) => {
        const off = client.on('notification', ({ method }) => {
          if (method !== 'notifications/tools/list_changed') return;
          off();
          resolve(method);
        });
      });
      assert.equal(textOf(await client.callTool({ name: 'grow', arguments: {} })), 'grown');
      assert.equal(await changed, 'notifications/tools/list_changed');
    } finally {
      await client.close();
    }
  });

  test('the official v1 client: a tool call, an elicitation, progress, cancellation, a list change', async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const client = new V1Client(
      { name: 'bridge-test-v1', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'grace' } }));
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const echoed = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
      assert.equal(textOf(echoed), 'hi');
      const answered = await client.callTool({ name: 'ask', arguments: {} });
      assert.deepEqual(JSON.parse(textOf(answered)), { action: 'accept', content: { name: 'grace' } });

      const controller = new AbortController();
      const progress: number[] = [];
      const slow = client.callTool({ name: 'slow', arguments: {} }, CallToolResultSchema, {
        signal: controller.signal,
        onprogress: (update) => {
          progress.push(update.progress);
          controller.abort();
        },
      });
      await assert.rejects(slow);
      assert.deepEqual(progress, [1]);
      const cancelled = JSON.parse(textOf(await client.callTool({ name: 'cancelled', arguments: {} })));
      assert.equal(cancelled.length, 1, 'the child got notifications/cancelled for the slow call');

      assert.equal(textOf(await client.callTool({ name: 'grow', arguments: {} })), 'grown');
      await changed;
    } finally {
      await client.close();
    }
  });

  test("the child's stderr reaches ours a line at a time, prefixed with its pid, its control characters escaped", async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const sessionId = await openSession(url);
    assert.equal(resultText(await post(url, callBody(2, 'stderr'), sessionId)), 'written');
    await bridge.waitForStderr(/half line/);
    const [pid] = bridge.childPids;
    assert.ok(bridge.stderr.includes(`[server ${pid}] evil \\x1b]52;c;AAAA\\x07 half line\n`), bridge.stderr);
    assert.doesNotMatch(bridge.stderr, /\x1b/);
  });

  test('a command that cannot start: initialize gets an error saying so, and the session is over (404)', async () => {
    const { bridge, url } = await BridgeProcess.start([], ['mcpwire-test-no-such-command']);
    await using _bridge = bridge;
    const answer = await post(url, initializeBody(1));
    assert.equal(answer.status, 200, answer.text);
    assert.match(
      String(answer.response?.error?.message),
      /^mcpwire bridge: Cannot start server process "mcpwire-test-no-such-command": .*ENOENT/,
    );
    const after = await post(url, callBody(2, 'echo', { text: 'x' }), answer.sessionId ?? 'none');
    assert.equal(after.status, 404, after.text);
    await bridge.waitForStderr(/^mcpwire bridge: Cannot start server process/m);
  });

  test('our Client in auto era: its server/discover probe reaches the 2026-07-28 front, served by one shared child', async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    // The probe starts the shared child: longer than the default 4 s on a loaded machine.
    const client = new Client(
      { name: 'bridge-auto', version: '1.0.0' },
      { eraCache: false, probeTimeoutMs: 60_000 },
    );
    await client.connect(new StreamableHttpClientTransport(url));
    try {
      assert.equal(client.era, 'stateless');
      assert.equal(client.serverInfo?.name, 'bridge-child');
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'auto' } })), 'auto');
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'again' } })), 'again');
      // Every 2026-07-28 request went to the one child the front started.
      assert.equal(bridge.childPids.length, 1);
      assert.equal(isAlive(bridge.childPids[0]!), true);
    } finally {
      await client.close();
    }
  });

  test("after a cancelled call, a list change the child sends with nothing pending reaches the client (not the cancelled call's stream)", async () => {
    const { bridge, url } = await BridgeProcess.start();
    await using _bridge = bridge;
    const client = new Client({ name: 'bridge-test', version: '1.0.0' }, { era: 'handshake' });
    await client.connect(new StreamableHttpClientTransport(url));
    try {
      const controller = new AbortController();
      const slow = client.callTool(
        { name: 'slow', arguments: {} },
        { signal: controller.signal, onProgress: () => controller.abort() },
      );
      await assert.rejects(slow);
      const changed = new Promise<void>((resolve) => {
        const off = client.on('notification', ({ method }) => {
          if (method !== 'notifications/tools/list_changed') return;
          off();
          resolve();
        });
      });
      assert.equal(textOf(await client.callTool({ name: 'grow_after', arguments: {} })), 'grown');
      await changed;
    } finally {
      await client.close();
    }
  });
});

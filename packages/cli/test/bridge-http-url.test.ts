// `mcpwire bridge --http 0 <url>`: HTTP to HTTP, translating eras (issue 25). Real processes on real
// sockets: `mcpwire serve everything --http 0` restricted to one era behind the bridge, driven by our
// Client and the official v1 client. A handshake-era client in front of a 2026-07-28-only server, a
// 2026-07-28 client in front of a handshake-only server, same-era pass-through, 404 and Origin checks.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { after, before, describe, test } from 'node:test';
import { Client, type ClientOptions } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { BridgeProcess } from './support/bridge-process.ts';
import { childEnv, MCPWIRE, ROOT } from './support/cli-process.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';
import { callBody, initializeBody, openSession, post } from './support/raw-bridge-rpc.ts';
import { freePort } from '../../../test/support/free-port.ts';

const info = { name: 'bridge-http-url-test', version: '1.0.0' };
const LONG = { timeout: 120_000 };

function textOf(result: object): string {
  const [first] = ((result as { content?: unknown }).content ?? []) as Array<{ type: string; text?: string }>;
  assert.equal(first?.type, 'text', JSON.stringify(result));
  return first.text!;
}

/** `mcpwire bridge --http 0 <options> <url>`; resolves once it has said the URL it serves. */
async function startUrlBridge(
  remote: string,
  options: readonly string[] = [],
): Promise<{ bridge: BridgeProcess; url: string }> {
  const bridge = new BridgeProcess(['--http', '0', ...options, remote]);
  try {
    // The URL it serves, in its banner (the remote's URL is on stderr too).
    const [, url] = await bridge.waitForStderr(/bridging (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    return { bridge, url: url! };
  } catch (error) {
    await bridge[Symbol.asyncDispose]();
    throw error;
  }
}

async function connect(url: string, options: ClientOptions): Promise<Client> {
  const client = new Client(info, {
    eraCache: false,
    requestTimeoutMs: 60_000,
    probeTimeoutMs: 60_000,
    initializeTimeoutMs: 60_000,
    ...options,
  });
  await client.connect(new StreamableHttpClientTransport(url));
  return client;
}

/** Tools, a resource, a prompt, an elicitation and a list change through `client`. */
async function driveEverything(client: Client, asked: string[]): Promise<void> {
  const tools = await client.listAllTools();
  assert.ok(tools.some((tool) => tool.name === 'echo'));
  assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { message: 'across' } })), 'across');
  const read = await client.readResource({ uri: 'test://static-text' });
  assert.equal(read.contents[0]?.uri, 'test://static-text');
  const prompt = await client.getPrompt({ name: 'test_simple_prompt' });
  assert.ok(prompt.messages.length > 0);
  const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
  assert.deepEqual(asked, ['who?']);
  assert.match(textOf(elicited), /ada@example\.com/);
}

const elicitation = (asked: string[]): NonNullable<NonNullable<ClientOptions['handlers']>['elicitation']> => {
  return (params) => {
    asked.push(params.message);
    return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
  };
};

describe('bridge --http <port> <url>: a handshake-era client in front of a 2026-07-28-only server', () => {
  let remote: HttpServer;
  before(async () => {
    remote = await startOurHttpServer(['everything', '--era', 'stateless']);
  });
  after(async () => {
    await remote?.[Symbol.asyncDispose]();
  });

  test(
    'our Client (handshake era): tools, a resource, a prompt, an elicitation, a list change',
    LONG,
    async () => {
      const { bridge, url } = await startUrlBridge(remote.url);
      await using _bridge = bridge;
      const asked: string[] = [];
      const client = await connect(url, { era: 'handshake', handlers: { elicitation: elicitation(asked) } });
      try {
        assert.equal(client.era, 'handshake', bridge.stderr);
        assert.equal(client.serverInfo?.name, 'mcpwire-everything');
        await driveEverything(client, asked);
        const changed = new Promise<void>((resolve) => client.on('toolsListChanged', () => resolve()));
        await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
        await changed;
        assert.ok((await client.listAllTools()).some((tool) => tool.name === 'test_dynamic_tool'));
      } finally {
        await client.close();
      }
      assert.equal(bridge.stdout, '');
    },
  );

  test('the official v1 client: a tool, an elicitation, a list change', LONG, async () => {
    const { bridge, url } = await startUrlBridge(remote.url);
    await using _bridge = bridge;
    const client = new V1Client(info, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: { username: 'grace', email: 'grace@example.com' } };
    });
    const changed = new Promise<void>((resolve) =>
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const echoed = await client.callTool({ name: 'echo', arguments: { message: 'v1' } });
      assert.equal(textOf(echoed), 'v1');
      const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
      assert.deepEqual(asked, ['who?']);
      assert.match(textOf(elicited), /grace@example\.com/);
      await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
      await changed;
    } finally {
      await client.close();
    }
  });

  test('a 2026-07-28 client passes through to the same-era server', LONG, async () => {
    const { bridge, url } = await startUrlBridge(remote.url);
    await using _bridge = bridge;
    const asked: string[] = [];
    const client = await connect(url, { era: 'stateless', handlers: { elicitation: elicitation(asked) } });
    try {
      assert.equal(client.era, 'stateless', bridge.stderr);
      await driveEverything(client, asked);
    } finally {
      await client.close();
    }
  });
});

describe('bridge --http <port> <url>: a 2026-07-28 client in front of a handshake-only server', () => {
  let remote: HttpServer;
  before(async () => {
    remote = await startOurHttpServer(['everything', '--era', 'handshake']);
  });
  after(async () => {
    await remote?.[Symbol.asyncDispose]();
  });

  test(
    'our Client (2026-07-28): tools, a resource, a prompt, an elicitation round, a list change on listen',
    LONG,
    async () => {
      const { bridge, url } = await startUrlBridge(remote.url);
      await using _bridge = bridge;
      const asked: string[] = [];
      const client = await connect(url, { era: 'stateless', handlers: { elicitation: elicitation(asked) } });
      try {
        assert.equal(client.era, 'stateless', bridge.stderr);
        assert.equal(client.protocolVersion, '2026-07-28');
        assert.equal(client.serverInfo?.name, 'mcpwire-everything');
        await driveEverything(client, asked);
        const changed = new Promise<void>((resolve) => client.on('toolsListChanged', () => resolve()));
        const subscription = client.listen({ toolsListChanged: true });
        assert.deepEqual(await subscription.acknowledged, { toolsListChanged: true });
        await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
        await changed;
        subscription.close();
      } finally {
        await client.close();
      }
    },
  );

  test('a handshake-era client passes through to the same-era server', LONG, async () => {
    const { bridge, url } = await startUrlBridge(remote.url);
    await using _bridge = bridge;
    const asked: string[] = [];
    const client = await connect(url, { era: 'handshake', handlers: { elicitation: elicitation(asked) } });
    try {
      await driveEverything(client, asked);
    } finally {
      await client.close();
    }
  });

  test('an unknown session gets 404; a cross-origin request is refused', LONG, async () => {
    const { bridge, url } = await startUrlBridge(remote.url);
    await using _bridge = bridge;
    const unknown = await post(url, initializeBody(2).replace('"initialize"', '"ping"'), 'no-such-session');
    assert.equal(unknown.status, 404, unknown.text);
    const reply = await fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        Origin: 'http://evil.example',
      },
      body: initializeBody(1),
    });
    await reply.body?.cancel();
    assert.equal(reply.status, 403);
  });
});

/** `mcpwire serve everything --http <port>` on a port of our choosing; resolves once it listens. */
async function serveOnPort(port: number): Promise<AsyncDisposable> {
  const child = spawn(MCPWIRE[0]!, [...MCPWIRE.slice(1), 'serve', 'everything', '--http', String(port)], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = once(child, 'exit');
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.includes(`127.0.0.1:${port}/mcp`)) resolve();
    });
    void exited.then(() => reject(new Error(`serve exited before listening: ${stderr}`)));
  });
  return {
    [Symbol.asyncDispose]: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

describe('bridge --http <port> <url>: the remote session ends', () => {
  test(
    'the remote restarted (its session unknown, 404): the request gets an error naming it, the session id then 404, a new session works',
    LONG,
    async () => {
      const port = await freePort();
      let remote = await serveOnPort(port);
      try {
        const { bridge, url } = await startUrlBridge(`http://127.0.0.1:${port}/mcp`);
        await using _bridge = bridge;
        const sessionId = await openSession(url);
        await remote[Symbol.asyncDispose]();
        remote = await serveOnPort(port);
        const failed = await post(url, callBody(3, 'echo', { message: 'x' }), sessionId);
        assert.equal(failed.response?.id, 3, failed.text);
        assert.equal(failed.response?.error?.code, -32001, failed.text);
        // Over HTTP the client initializes again: no bridge to restart, unlike on stdio.
        assert.match(String(failed.response?.error?.message), /remote session ended.*initialize again/);
        assert.doesNotMatch(String(failed.response?.error?.message), /restart the bridge/);
        await bridge.waitForStderr(/its client session is over/);
        let after = await post(url, callBody(4, 'echo', { message: 'x' }), sessionId);
        // The session is forgotten once its relay has ended, just after the error was sent.
        while (after.status !== 404)
          after = await post(url, callBody(4, 'echo', { message: 'x' }), sessionId);
        assert.equal(after.status, 404);
        const again = await openSession(url);
        const echoed = await post(url, callBody(5, 'echo', { message: 'again' }), again);
        assert.equal(echoed.response?.result?.content?.[0]?.text, 'again', echoed.text);
      } finally {
        await remote[Symbol.asyncDispose]();
      }
    },
  );
});

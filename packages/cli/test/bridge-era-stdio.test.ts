// `mcpwire bridge <url>` in front of a server that speaks 2026-07-28 only: a handshake-era host on
// stdio gets `initialize`, a session and server-to-client requests made from the remote's
// `input_required` rounds (issue 25). The real command runs as a child process in front of a real
// HTTP server (the everything server, `initialize` refused); our Client in the handshake era drives it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { JsonObject } from 'mcpwire';
import { after, before, describe, test } from 'node:test';
import { Client, RequestCancelledError, RpcError } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { StdioClientTransport } from 'mcpwire/stdio';
import { ourCliCommand, sourceCommand } from '../../../test/support/node-options.ts';
import { FIXTURES } from './support/cli-process.ts';

const info = { name: 'bridge-era-stdio-test', version: '1.0.0' };
const LONG = { timeout: 90_000 };

function textOf(result: object): string {
  const [first] = (result as { content: Array<{ type: string; text: string }> }).content;
  return first!.text;
}

/** The 2026-07-28-only everything server as a child process; resolves with its URL once it listens. */
async function startStatelessOnlyServer(): Promise<{ url: string } & AsyncDisposable> {
  const { command, args, cwd, env } = sourceCommand(`${FIXTURES}stateless-only-http-server.ts`);
  const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const lines = createInterface({ input: child.stdout });
  const [url] = (await Promise.race([once(lines, 'line'), exited.then(() => [undefined])])) as [string?];
  if (url === undefined) throw new Error('the 2026-07-28-only server exited before listening');
  return { url, [Symbol.asyncDispose]: stop };
}

describe('mcpwire bridge <url>: a handshake-era host in front of a 2026-07-28-only server', () => {
  let remote: { url: string } & AsyncDisposable;

  before(async () => {
    remote = await startStatelessOnlyServer();
  });

  after(async () => {
    await remote?.[Symbol.asyncDispose]();
  });

  test(
    'our client (handshake era): initialize, tools, resources, prompts, elicitation, sampling, roots, a list change, the log level',
    LONG,
    async () => {
      let stderr = '';
      const elicited: string[] = [];
      const sampled: string[] = [];
      const logs: string[] = [];
      const client = new Client(info, {
        requestTimeoutMs: 60_000,
        eraCache: false,
        era: 'handshake',
        roots: [{ uri: 'file:///work/project', name: 'project' }],
        handlers: {
          elicitation: (params) => {
            elicited.push(params.message);
            return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
          },
          sampling: (params) => {
            const content = params.messages[0]?.content;
            sampled.push(content !== undefined && 'text' in content ? String(content.text) : '?');
            return { role: 'assistant', model: 'bridge-test', content: { type: 'text', text: 'hello' } };
          },
        },
      });
      client.on('log', (params) => logs.push(String(params.level)));
      await client.connect(
        new StdioClientTransport({
          ...ourCliCommand('bridge', remote.url),
          stderr: (text: string) => (stderr += text),
        }),
      );
      try {
        assert.equal(client.era, 'handshake', stderr);
        assert.equal(client.protocolVersion, '2025-11-25');
        assert.equal(client.serverInfo?.name, 'mcpwire-everything');
        assert.ok(client.serverCapabilities?.tools, 'the remote capabilities reach the host');

        const tools = await client.listAllTools();
        assert.ok(tools.some((tool) => tool.name === 'echo'));
        const echo = await client.callTool({ name: 'echo', arguments: { message: 'across eras' } });
        assert.equal(textOf(echo), 'across eras');

        const resources = await client.listAllResources();
        assert.ok(resources.some((resource) => resource.uri === 'test://static-text'));
        const read = await client.readResource({ uri: 'test://static-text' });
        assert.equal(read.contents[0]?.uri, 'test://static-text');

        const prompt = await client.getPrompt({ name: 'test_simple_prompt' });
        assert.ok(prompt.messages.length > 0);

        const elicit = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
        assert.deepEqual(elicited, ['who?']);
        assert.match(textOf(elicit), /action=accept.*ada@example\.com/);

        const sample = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'say hello' } });
        assert.deepEqual(sampled, ['say hello']);
        assert.equal(textOf(sample), 'LLM response: hello');

        const roots = await client.callTool({ name: 'test_list_roots', arguments: {} });
        assert.match(textOf(roots), /file:\/\/\/work\/project \(project\)/);

        const changed = new Promise<void>((resolve) => client.on('toolsListChanged', () => resolve()));
        await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
        await changed;
        assert.ok((await client.listAllTools()).some((tool) => tool.name === 'test_dynamic_tool'));

        await client.setLoggingLevel({ level: 'error' });
        await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
        assert.deepEqual(logs, ['error'], 'only the error-level entry passes the level the host set');
        logs.length = 0;
        await client.setLoggingLevel({ level: 'debug' });
        await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
        assert.equal(logs.length, 5, `every entry at debug: ${logs.join(', ')}`);
      } finally {
        await client.close();
      }
    },
  );

  test(
    'errors keep their code, message and data; progress reaches the host token; a resource subscription; cancellation',
    LONG,
    async () => {
      let stderr = '';
      const direct = new Client(info, { era: 'stateless', eraCache: false });
      await direct.connect(new StreamableHttpClientTransport(remote.url));
      const client = new Client(info, { requestTimeoutMs: 60_000, eraCache: false, era: 'handshake' });
      await client.connect(
        new StdioClientTransport({
          ...ourCliCommand('bridge', remote.url),
          stderr: (text: string) => (stderr += text),
        }),
      );
      try {
        const failure = (promise: Promise<unknown>) =>
          promise.then(
            () => assert.fail('the call should have failed'),
            (error: unknown) => {
              assert.ok(error instanceof RpcError, String(error));
              return { code: error.code, message: error.message, data: error.data };
            },
          );
        const expected = await failure(direct.callTool({ name: 'no_such_tool', arguments: {} }));
        const bridged = await failure(client.callTool({ name: 'no_such_tool', arguments: {} }));
        assert.deepEqual(bridged, expected, stderr);

        const progress: number[] = [];
        await client.callTool(
          { name: 'test_tool_with_progress', arguments: {} },
          { onProgress: (step) => progress.push(step.progress) },
        );
        assert.deepEqual(progress, [0, 50, 100]);

        const updated = new Promise<string>((resolve) =>
          client.on('resourceUpdated', (params) => resolve(params.uri)),
        );
        await client.subscribeResource({ uri: 'test://watched-resource' });
        // The listen stream's acknowledgement is not visible to the host: the update is retried until it arrives.
        let uri: string | undefined;
        while (uri === undefined) {
          await client.callTool({ name: 'test_update_watched_resource', arguments: {} });
          uri = await Promise.race([updated, client.ping().then(() => undefined)]);
        }
        assert.equal(uri, 'test://watched-resource');

        const controller = new AbortController();
        const slow = client.callTool(
          { name: 'test_tool_slow', arguments: { durationMs: 600_000 } },
          { signal: controller.signal, onProgress: () => controller.abort() },
        );
        await assert.rejects(slow, RequestCancelledError);
        const after = await client.callTool({ name: 'echo', arguments: { message: 'still here' } });
        assert.equal(textOf(after), 'still here');
      } finally {
        await client.close();
        await direct.close();
      }
    },
  );

  test('a request the host cancels gets no response (raw JSON-RPC on the bridge stdio)', LONG, async () => {
    const { command, args, cwd, env } = ourCliCommand('bridge', remote.url);
    const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = once(child, 'exit');
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const seen: JsonObject[] = [];
    const waiters: Array<{ test: (message: JsonObject) => boolean; resolve: (message: JsonObject) => void }> =
      [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as JsonObject;
      seen.push(message);
      for (const waiter of [...waiters]) if (waiter.test(message)) waiter.resolve(message);
    });
    const next = (test: (message: JsonObject) => boolean) =>
      new Promise<JsonObject>((resolve) => waiters.push({ test, resolve }));
    const send = (message: object) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    try {
      const initialized = next((message) => message.id === 1);
      send({
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-11-25',
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        },
      });
      assert.equal(((await initialized).result as JsonObject)?.protocolVersion, '2025-11-25', stderr);
      send({ method: 'notifications/initialized' });
      const progressed = next((message) => message.method === 'notifications/progress');
      send({
        id: 7,
        method: 'tools/call',
        params: {
          name: 'test_tool_slow',
          arguments: { durationMs: 600_000 },
          _meta: { progressToken: 'p7' },
        },
      });
      assert.equal(((await progressed).params as JsonObject).progressToken, 'p7');
      send({ method: 'notifications/cancelled', params: { requestId: 7, reason: 'the user gave up' } });
      // A round trip to the remote after the cancellation: any answer to 7 would be written before it.
      const echoed = next((message) => message.id === 8);
      send({ id: 8, method: 'tools/call', params: { name: 'echo', arguments: { message: 'after' } } });
      await echoed;
      assert.deepEqual(
        seen.filter((message) => message.id === 7),
        [],
        'a cancelled request is not answered (the receiver of notifications/cancelled sends no response)',
      );
    } finally {
      child.stdin.end();
      await exited;
    }
  });
});

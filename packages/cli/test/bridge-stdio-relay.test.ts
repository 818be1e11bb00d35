// `mcpwire bridge <url>` as a child process, seen from the host: a 2026-07-28 host, a 2024 HTTP+SSE
// remote, the official v1 client, and raw lines (members and ids as sent, the DELETE on stdin's end),
// against real servers on 127.0.0.1 (`mcpwire serve everything --http 0`, the library's handlers, or a
// hand-written one). bridge-stdio.test.ts and bridge-stdio-session-end.test.ts cover the rest.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, test } from 'node:test';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createEverythingServer } from '@mcpwire/server-everything';
import { Client } from 'mcpwire/client';
import { createLegacySseHandler } from 'mcpwire/http';
import { serveHttp } from 'mcpwire/node';
import { StdioClientTransport } from 'mcpwire/stdio';
import { childEnv, MCPWIRE, ROOT } from './support/cli-process.ts';
import { startOurHttpServer } from './support/http-servers.ts';

const BRIDGE = (url: string): string[] => [...MCPWIRE.slice(1), 'bridge', url, '--no-auth'];

/** The bridge as a raw child: lines in, lines out. */
function startBridge(url: string) {
  const child = spawn(MCPWIRE[0]!, BRIDGE(url), { cwd: ROOT, env: childEnv(), stdio: 'pipe' });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    exited,
    stderr: () => stderr,
    send: (text: string) => child.stdin.write(`${text}\n`),
    next: async (): Promise<string> => {
      const line = await lines.next();
      assert.equal(line.done, false, `stdout ended; stderr:\n${stderr}`);
      return line.value as string;
    },
    [Symbol.asyncDispose]: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

const INITIALIZE =
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}';

describe(
  'mcpwire bridge <url>: the relay seen from the host (more eras and transports, the bytes, the DELETE)',
  { concurrency: 2 },
  () => {
    test('our Client over stdio: tools/call, elicitation, progress, cancellation, a list change, a dropped stream resumed', async () => {
      await using server = await startOurHttpServer();
      const asked: string[] = [];
      const client = new Client(
        { name: 'bridge-host', version: '1.0.0' },
        {
          era: 'handshake',
          handlers: {
            elicitation: (params) => {
              asked.push(params.message);
              return { action: 'accept', content: { username: 'ada' } };
            },
          },
        },
      );
      let stderr = '';
      const transport = new StdioClientTransport({
        command: MCPWIRE[0]!,
        args: BRIDGE(server.url),
        cwd: ROOT,
        env: childEnv(),
        stderr: (text) => (stderr += text),
      });
      await client.connect(transport);
      try {
        assert.equal(client.serverInfo?.name, 'mcpwire-everything');
        const echoed = await client.callTool({ name: 'echo', arguments: { message: 'über \u2028 bridge' } });
        assert.deepEqual(echoed.content, [{ type: 'text', text: 'über \u2028 bridge' }]);

        const progress: number[] = [];
        await client.callTool(
          { name: 'test_tool_with_progress', arguments: {} },
          { onProgress: (update) => progress.push(update.progress) },
        );
        assert.deepEqual(progress, [0, 50, 100]);

        const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } });
        assert.match(JSON.stringify(elicited.content), /ada/);
        assert.deepEqual(asked, ['Who?']);

        // The server closes the POST's stream after its priming event; the result comes on the resumed one.
        const resumed = await client.callTool({ name: 'test_reconnection', arguments: {} });
        assert.match(JSON.stringify(resumed.content), /properly reconnected/);

        // A list change arrives on the session's GET stream.
        const changed = new Promise<void>((resolve) => client.on('toolsListChanged', () => resolve()));
        await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
        await changed;
        const tools = await client.listTools();
        assert.ok(tools.tools.some((tool) => tool.name === 'test_dynamic_tool'));

        // Cancellation: the slow call is abandoned after its first progress; the session goes on.
        const controller = new AbortController();
        const slow = client.callTool(
          { name: 'test_tool_slow', arguments: { durationMs: 600000 } },
          { signal: controller.signal, onProgress: () => controller.abort('enough') },
        );
        await assert.rejects(slow);
        const after = await client.callTool({ name: 'echo', arguments: { message: 'still here' } });
        assert.deepEqual(after.content, [{ type: 'text', text: 'still here' }]);
      } finally {
        await client.close();
      }
      assert.equal(stderr, '');
    });

    test('a 2026-07-28 host: server/discover, a call, an input_required round and progress pass unchanged', async () => {
      await using server = await startOurHttpServer();
      const asked: string[] = [];
      const client = new Client(
        { name: 'bridge-host-2026', version: '1.0.0' },
        {
          era: 'stateless',
          handlers: {
            elicitation: (params) => {
              asked.push(params.message);
              return { action: 'accept', content: { username: 'lin' } };
            },
          },
        },
      );
      let stderr = '';
      await client.connect(
        new StdioClientTransport({
          command: MCPWIRE[0]!,
          args: BRIDGE(server.url),
          cwd: ROOT,
          env: childEnv(),
          stderr: (text) => (stderr += text),
        }),
      );
      try {
        assert.equal(client.protocolVersion, '2026-07-28');
        assert.equal(client.serverInfo?.name, 'mcpwire-everything');
        const echoed = await client.callTool({ name: 'echo', arguments: { message: 'stateless' } });
        assert.deepEqual(echoed.content, [{ type: 'text', text: 'stateless' }]);
        const elicited = await client.callTool({
          name: 'test_elicitation',
          arguments: { message: 'Who, 2026?' },
        });
        assert.match(JSON.stringify(elicited.content), /lin/);
        assert.deepEqual(asked, ['Who, 2026?']);
        const progress: number[] = [];
        await client.callTool(
          { name: 'test_tool_with_progress', arguments: {} },
          { onProgress: (update) => progress.push(update.progress) },
        );
        assert.deepEqual(progress, [0, 50, 100]);
      } finally {
        await client.close();
      }
      assert.equal(stderr, '');
    });

    test('a 2024 HTTP+SSE server (found as the other commands find it): a call and an elicitation pass', async () => {
      const sseHandler = createLegacySseHandler(createEverythingServer());
      await using remote = await serveHttp(
        async (request) => (await sseHandler(request)) ?? new Response('not found', { status: 404 }),
        { port: 0, path: '/sse' },
      );
      const client = new Client(
        { name: 'bridge-host-sse', version: '1.0.0' },
        {
          era: 'handshake',
          handlers: { elicitation: () => ({ action: 'accept', content: { username: 'sse' } }) },
        },
      );
      let stderr = '';
      await client.connect(
        new StdioClientTransport({
          command: MCPWIRE[0]!,
          args: BRIDGE(remote.url),
          cwd: ROOT,
          env: childEnv(),
          stderr: (text) => (stderr += text),
        }),
      );
      try {
        assert.equal(client.serverInfo?.name, 'mcpwire-everything');
        const echoed = await client.callTool({ name: 'echo', arguments: { message: 'sse' } });
        assert.deepEqual(echoed.content, [{ type: 'text', text: 'sse' }]);
        const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'SSE?' } });
        assert.match(JSON.stringify(elicited.content), /sse/);
      } finally {
        await client.close();
        await sseHandler.close();
      }
      assert.equal(stderr, '');
    });

    test('the official v1 client over stdio: a call and an elicitation answered by the host', async () => {
      await using server = await startOurHttpServer();
      const client = new V1Client(
        { name: 'v1-host', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler(ElicitRequestSchema, () => ({
        action: 'accept',
        content: { username: 'grace' },
      }));
      const transport = new V1StdioClientTransport({
        command: MCPWIRE[0]!,
        args: BRIDGE(server.url),
        cwd: ROOT,
        env: childEnv(),
        stderr: 'pipe',
      });
      await client.connect(transport);
      try {
        const echoed = await client.callTool({ name: 'echo', arguments: { message: 'v1' } });
        assert.deepEqual(echoed.content, [{ type: 'text', text: 'v1' }]);
        const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Name?' } });
        assert.match(JSON.stringify(elicited.content), /grace/);
      } finally {
        await client.close();
      }
    });

    test('stdout carries only the wire, every member and id as sent; stdin closed: the session is DELETEd and the bridge exits 0', async () => {
      const seen: string[] = [];
      const remote = createServer((request: IncomingMessage, response) => {
        let body = '';
        request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        request.on('end', () => {
          seen.push(`${request.method} ${request.headers['mcp-session-id'] ?? '-'} ${body}`);
          if (request.method === 'DELETE') return void response.writeHead(204).end();
          if (request.method === 'GET') return void response.writeHead(405).end();
          const message = JSON.parse(body) as { id?: unknown; method: string };
          if (message.id === undefined) return void response.writeHead(202).end();
          const result =
            message.method === 'initialize'
              ? {
                  protocolVersion: '2025-11-25',
                  capabilities: {},
                  serverInfo: { name: 'hand', version: '1' },
                }
              : { content: [], extra: { n: 1.5, s: 'é\u0000' } };
          response.writeHead(200, { 'Content-Type': 'application/json', 'Mcp-Session-Id': 'S1' });
          response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        });
      });
      remote.listen(0, '127.0.0.1');
      await once(remote, 'listening');
      try {
        const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/mcp`;
        await using bridge = startBridge(url);
        bridge.send(INITIALIZE);
        assert.deepEqual(JSON.parse(await bridge.next()), {
          jsonrpc: '2.0',
          id: 1,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            serverInfo: { name: 'hand', version: '1' },
          },
        });
        bridge.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
        const call =
          '{"jsonrpc":"2.0","id":"x-7","method":"tools/call","params":{"name":"t","arguments":{},"_meta":{"k":[1,2]}}}';
        bridge.send(call);
        assert.equal(
          await bridge.next(),
          '{"jsonrpc":"2.0","id":"x-7","result":{"content":[],"extra":{"n":1.5,"s":"é\\u0000"}}}',
        );
        bridge.child.stdin.end();
        assert.deepEqual(await bridge.exited, [0, null]);
        assert.equal(bridge.stderr(), '');
        assert.ok(seen.includes(`POST S1 ${call}`), seen.join('\n'));
        assert.equal(seen.at(-1), 'DELETE S1 ');
      } finally {
        remote.close();
        remote.closeAllConnections();
      }
    });
  },
);

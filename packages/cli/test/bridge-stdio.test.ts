// `mcpwire bridge <url>`: a remote Streamable HTTP server offered on stdio, byte-exact (same era).
// The real command runs as a child process in front of a real `mcpwire serve everything --http 0`;
// our Client and the official v1 client drive it over stdio.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as OfficialStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from 'mcpwire/client';
import { StdioClientTransport } from 'mcpwire/stdio';
import { ourCliCommand } from '../../../test/support/node-options.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';

const info = { name: 'bridge-stdio-test', version: '1.0.0' };
const LONG = { timeout: 60_000 };

function textOf(result: object): string {
  const [first] = (result as { content: Array<{ type: string; text: string }> }).content;
  return first!.text;
}

describe('mcpwire bridge <url>: a remote server on stdio, byte-exact', { concurrency: 2 }, () => {
  let remote: HttpServer;

  before(async () => {
    remote = await startOurHttpServer();
  });

  after(async () => {
    await remote[Symbol.asyncDispose]();
  });

  test(
    'our client: tools/call, an elicitation answered by the host, progress, a list change, cancellation, a dropped stream resumed',
    LONG,
    async () => {
      const stderr = new StderrTail();
      const elicited: string[] = [];
      const client = new Client(info, {
        requestTimeoutMs: 50_000,
        eraCache: false,
        era: 'handshake',
        handlers: {
          elicitation: (params) => {
            elicited.push(params.message);
            return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
          },
        },
      });
      await client.connect(
        new StdioClientTransport({ ...ourCliCommand('bridge', remote.url), stderr: stderr.write }),
      );
      try {
        const echo = await client.callTool({ name: 'echo', arguments: { message: 'through the bridge' } });
        assert.equal(textOf(echo), 'through the bridge', String(stderr));
        const elicit = await client.callTool({ name: 'test_elicitation', arguments: { message: 'who?' } });
        assert.deepEqual(elicited, ['who?']);
        assert.match(textOf(elicit), /ada/);
        const progress: number[] = [];
        await client.callTool(
          { name: 'test_tool_with_progress', arguments: {} },
          { onProgress: (update) => progress.push(update.progress) },
        );
        assert.ok(progress.length > 0, 'no progress notification reached the host');
        const changed = new Promise<void>((resolve) => client.on('toolsListChanged', () => resolve()));
        await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
        await changed;
        // Cancellation: notifications/cancelled goes to the remote as any notification does.
        const controller = new AbortController();
        const slow = client.callTool(
          { name: 'test_tool_slow', arguments: { durationMs: 600_000 } },
          { signal: controller.signal, onProgress: () => controller.abort() },
        );
        await assert.rejects(slow, { name: 'RequestCancelledError' });
        const after = await client.callTool({ name: 'echo', arguments: { message: 'after the cancel' } });
        assert.equal(textOf(after), 'after the cancel');
        const resumed = await client.callTool({ name: 'test_reconnection', arguments: {} });
        assert.match(textOf(resumed), /properly reconnected/);
      } finally {
        await client.close();
      }
    },
  );

  test('the official v1 client: tools/call and an elicitation', LONG, async () => {
    const client = new OfficialClient(info, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({
      action: 'accept',
      content: { username: 'grace', email: 'grace@example.com' },
    }));
    await client.connect(
      new OfficialStdioClientTransport({ ...ourCliCommand('bridge', remote.url), stderr: 'ignore' }),
    );
    try {
      const echo = await client.callTool({ name: 'echo', arguments: { message: 'v1 over the bridge' } });
      assert.equal(textOf(echo), 'v1 over the bridge');
      const elicit = await client.callTool({ name: 'test_elicitation', arguments: { message: 'name?' } });
      assert.match(textOf(elicit), /grace/);
    } finally {
      await client.close();
    }
  });

  test(
    'stdin closed: the bridge ends the remote session and exits 0; stdout holds only the wire',
    LONG,
    async () => {
      const command = ourCliCommand('bridge', remote.url);
      const child = spawn(command.command, command.args, { cwd: command.cwd, env: command.env });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const exited = once(child, 'exit');
      const init = {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: info },
      };
      child.stdin.write(JSON.stringify(init) + '\n');
      const firstLine = new Promise<void>((resolve, reject) => {
        child.stdout.on('data', () => stdout.includes('\n') && resolve());
        child.once('exit', (exitCode) =>
          reject(new Error(`the bridge exited (${exitCode}) before answering`)),
        );
      });
      await firstLine;
      child.stdin.end();
      const [code] = (await exited) as [number | null];
      assert.equal(code, 0);
      const lines = stdout.trimEnd().split('\n');
      assert.equal(lines.length, 1);
      const answer = JSON.parse(lines[0]!) as { id: number; result: { protocolVersion: string } };
      assert.deepEqual([answer.id, answer.result.protocolVersion], [1, '2025-06-18']);
    },
  );
});

/** The last 4 KiB of a child's stderr, for a failing assertion's message. */
class StderrTail {
  #text = '';

  /** Appends a chunk of decoded text. */
  readonly write = (text: string): void => {
    this.#text = (this.#text + text).slice(-4096);
  };

  /** What was kept, or a note that nothing was written. */
  toString(): string {
    return this.#text === '' ? '(no stderr output)' : this.#text;
  }
}

// `mcpwire bridge <url>` with a pipelining host: the answers of many calls in flight share stdout
// writes (held to the end of a turn of the event loop, issue 25 point 5), and none is lost, doubled or
// reordered against the notifications of its call. The real command in front of a real
// `mcpwire serve everything --http 0`; the host is this test, writing lines on the bridge's stdin.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import { ourCliCommand } from '../../../test/support/node-options.ts';
import { startOurHttpServer, type HttpServer } from './support/http-servers.ts';

const CALLS = 16;

interface Line {
  id?: number;
  method?: string;
  result?: { content?: Array<{ text: string }> };
  error?: unknown;
  params?: { progressToken?: unknown };
}

describe('mcpwire bridge <url>: a pipelining host', () => {
  let remote: HttpServer;

  before(async () => {
    remote = await startOurHttpServer();
  });

  after(async () => {
    await remote[Symbol.asyncDispose]();
  });

  test(
    '16 calls in one write: each answered once with its own result; progress before its response',
    { timeout: 60_000 },
    async () => {
      const command = ourCliCommand('bridge', remote.url);
      const child = spawn(command.command, command.args, { cwd: command.cwd, env: command.env });
      const exited = once(child, 'exit');
      const lines: Line[] = [];
      let partial = '';
      let onLine = (): void => {};
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        const parts = (partial + chunk).split('\n');
        partial = parts.pop() ?? '';
        for (const part of parts) lines.push(JSON.parse(part) as Line);
        onLine();
      });
      const until = (isDone: () => boolean): Promise<void> =>
        new Promise((resolve, reject) => {
          onLine = () => isDone() && resolve();
          child.once('exit', (code) =>
            reject(new Error(`the bridge exited (${code}); lines: ${JSON.stringify(lines)}`)),
          );
          onLine();
        });
      try {
        const write = (message: object): boolean => child.stdin.write(JSON.stringify(message) + '\n');
        write({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'pipelined', version: '1.0.0' },
          },
        });
        await until(() => lines.some((line) => line.id === 0));
        write({ jsonrpc: '2.0', method: 'notifications/initialized' });
        // One write: the progress call first, then the echo calls behind it.
        let text = JSON.stringify({
          jsonrpc: '2.0',
          id: 100,
          method: 'tools/call',
          params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'p' } },
        });
        for (let id = 1; id <= CALLS; id++)
          text += `\n${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { message: `m${id}` } } })}`;
        child.stdin.write(`${text}\n`);
        const answered = (id: number) => lines.some((line) => line.id === id && line.method === undefined);
        await until(() => answered(100) && Array.from({ length: CALLS }, (_, i) => i + 1).every(answered));
        for (let id = 1; id <= CALLS; id++) {
          const answers = lines.filter((line) => line.id === id);
          assert.equal(answers.length, 1, `call ${id} answered ${answers.length} times`);
          assert.equal(answers[0]!.result?.content?.[0]?.text, `m${id}`, JSON.stringify(answers[0]));
        }
        const progress = lines.flatMap((line, index) =>
          line.method === 'notifications/progress' && line.params?.progressToken === 'p' ? [index] : [],
        );
        const response = lines.findIndex((line) => line.id === 100);
        assert.equal(progress.length, 3, JSON.stringify(lines));
        assert.ok(
          progress.every((index) => index < response),
          `progress at lines ${progress.join(', ')}, the response at ${response}`,
        );
        child.stdin.end();
        const [code] = (await exited) as [number | null];
        assert.equal(code, 0);
      } finally {
        child.kill();
      }
    },
  );
});

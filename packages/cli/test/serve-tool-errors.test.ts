// `mcpwire serve`: a tool handler that throws is an isError result for the client AND one line on the
// server's stderr for the operator (issue 22 item 12); over stdio, stdout still carries only JSON-RPC.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { childEnv, MCPWIRE, ROOT, runCli } from './support/cli-process.ts';
import { startOurHttpServer } from './support/http-servers.ts';

const LOGGED =
  /^\[mcpwire server\] Tool "test_error_handling" failed: This tool intentionally returns an error for testing/m;

test('serve over stdio: the thrown error is logged on stderr, stdout has only the wire', async () => {
  const child = spawn(MCPWIRE[0]!, [...MCPWIRE.slice(1), 'serve', 'everything'], {
    cwd: ROOT,
    env: childEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const closed = once(child, 'close');
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const answered = new Promise<void>((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('"id":2')) resolve();
    });
  });
  const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'test_error_handling' } });
  await answered;
  child.stdin.end();
  await closed;
  const lines = stdout.trimEnd().split('\n');
  const messages = lines.map((line) => JSON.parse(line) as { id?: number; result?: { isError?: boolean } });
  assert.equal(messages.find((message) => message.id === 2)?.result?.isError, true, stdout);
  assert.match(stderr, LOGGED);
});

test('serve --http: the thrown error is logged on the server terminal', async () => {
  await using server = await startOurHttpServer();
  const from = server.pty.text.length;
  const called = await runCli(['call', server.url, 'test_error_handling']);
  assert.equal(called.code, 1, called.stderr);
  await server.pty.waitFor(LOGGED, from);
});

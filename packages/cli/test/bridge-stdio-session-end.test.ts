// `mcpwire bridge <url>` when the remote ends the session: a 404 to a POST carrying the session id.
// A small remote on a 127.0.0.1 port opens the session at initialize and forgets it at once.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { ourCliCommand } from '../../../test/support/node-options.ts';

const SESSION = 'forgotten-session';

function handle(request: IncomingMessage, response: ServerResponse, body: string): void {
  if (request.method !== 'POST') return void response.writeHead(405).end();
  const message = JSON.parse(body) as { id?: number; method: string };
  if (message.method === 'initialize') {
    const result = {
      protocolVersion: '2025-06-18',
      capabilities: { tools: {} },
      serverInfo: { name: 'forgetful', version: '1.0.0' },
    };
    response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': SESSION });
    return void response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
  }
  if (message.id === undefined) return void response.writeHead(202).end();
  response.writeHead(404).end();
}

test(
  'a 404 on a POST: the pending request is answered -32001 naming it, and the bridge exits 3',
  { timeout: 30_000 },
  async () => {
    const remote = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => handle(request, response, body));
    });
    remote.listen(0, '127.0.0.1');
    await once(remote, 'listening');
    const url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/mcp`;
    const command = ourCliCommand('bridge', url, '--no-auth');
    const child = spawn(command.command, command.args, { cwd: command.cwd, env: command.env });
    try {
      const lines: string[] = [];
      let buffered = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        buffered += chunk;
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        lines.push(...parts);
      });
      const exited = once(child, 'exit');
      const clientInfo = { name: 'host', version: '1.0.0' };
      const params = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo };
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params }) + '\n');
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
      const call = { name: 'anything', arguments: {} };
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call }) + '\n');
      const [code] = (await exited) as [number | null];
      assert.equal(code, 3, stderr);
      const answers = lines.map(
        (line) => JSON.parse(line) as { id: number; error?: { code: number; message: string } },
      );
      assert.deepEqual(
        answers.map((answer) => answer.id),
        [1, 2],
      );
      assert.equal(answers[1]!.error?.code, -32001);
      assert.match(answers[1]!.error!.message, /remote session ended .*restart the bridge/);
      assert.match(stderr, /the host must start the bridge again \(exit 3\)/);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      remote.close();
      remote.closeAllConnections();
    }
  },
);

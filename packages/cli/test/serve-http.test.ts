// `mcpwire serve everything --http 0` as a process: it prints its URL on stderr, answers both eras
// on that endpoint over a real socket, and exits 0 on SIGTERM.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { CLI, ROOT } from '../../../test/support/raw-server-process.ts';

test('serve everything --http 0 serves http://127.0.0.1:<port>/mcp until SIGTERM', async () => {
  const child = spawn(process.execPath, [...CLI, 'serve', 'everything', '--http', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let stderr = '';
    child.stderr.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL on stderr within 30 s: ${stderr}`)), 30_000);
      child.stderr.on('data', (chunk: string) => {
        stderr += chunk;
        const found = /http:\/\/127\.0\.0\.1:\d+\/mcp/.exec(stderr);
        if (found) {
          clearTimeout(timer);
          resolve(found[0]);
        }
      });
    });
    const headers = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'server/discover',
    };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const discover = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }),
    });
    assert.equal(discover.status, 200);
    const body = (await discover.json()) as { result: { supportedVersions: string[] } };
    assert.deepEqual(body.result.supportedVersions, ['2026-07-28']);
    const init = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'cli-test', version: '1' },
        },
      }),
    });
    assert.equal(init.status, 200);
    assert.ok(init.headers.get('mcp-session-id'));
    await init.body?.cancel();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 0);
    assert.equal(child.stdout.read(), null, 'nothing on stdout');
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

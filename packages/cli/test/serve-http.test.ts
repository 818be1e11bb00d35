// `mcpwire serve <server> --http <port>` as a process: it says where it listens on stderr, terminal or not,
// answers both eras on that endpoint over a real socket, keeps the Host check on, and exits 0 on SIGTERM.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { test } from 'node:test';
import { MCPWIRE, childEnv, ROOT, runCli } from './support/cli-process.ts';
import { freePort } from '../../../test/support/free-port.ts';
import { PtyProcess } from './support/pty-process.ts';

const STATELESS_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': 'server/discover',
};

const DISCOVER = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cli-test', version: '1' } },
});

test('on a terminal it prints its URL; both eras answer there; SIGTERM exits 0', async () => {
  await using server = new PtyProcess([...MCPWIRE, 'serve', 'everything', '--http', '0']);
  const url = await server.waitFor(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
  assert.match(
    server.text,
    /^mcpwire: serving MCP over Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp \(HTTP\+SSE at \/sse\); Ctrl-C stops\n$/,
  );
  const discover = await fetch(url, { method: 'POST', headers: STATELESS_HEADERS, body: DISCOVER });
  assert.equal(discover.status, 200);
  const body = (await discover.json()) as { result: { supportedVersions: string[] } };
  assert.deepEqual(body.result.supportedVersions, ['2026-07-28']);
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: INITIALIZE,
  });
  assert.equal(init.status, 200);
  assert.ok(init.headers.get('mcp-session-id'));
  await init.body?.cancel();
  server.kill('SIGTERM');
  assert.equal((await server.exited).exitCode, 0);
});

test('off a terminal it prints its URL on stderr all the same (a script reads it), nothing on stdout; --host binds elsewhere and only allowed Host headers pass', async () => {
  const port = await freePort();
  const child = spawn(
    MCPWIRE[0]!,
    [...MCPWIRE.slice(1), 'serve', 'everything', '--http', String(port), '--host', '127.0.0.2'],
    {
      cwd: ROOT,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const url = `http://127.0.0.2:${port}/mcp`;
    const discover = await fetchWhenListening(url, {
      method: 'POST',
      headers: STATELESS_HEADERS,
      body: DISCOVER,
    });
    assert.equal(discover.status, 200);
    await discover.body?.cancel();
    // DNS rebinding protection stays on: a Host that names neither loopback nor --host is refused.
    assert.equal(await statusWithHost(url, 'attacker.example'), 403);
    assert.equal(await statusWithHost(url, `127.0.0.2:${port}`), 200);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null]);
    assert.equal(stdout, '');
    assert.equal(
      stderr,
      `mcpwire: serving MCP over Streamable HTTP at ${url} (HTTP+SSE at /sse); Ctrl-C stops\n`,
    );
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test('--no-sessions: initialize gets no session id, each POST stands alone, GET and /sse are not served', async () => {
  const port = await freePort();
  const child = spawn(
    MCPWIRE[0]!,
    [...MCPWIRE.slice(1), 'serve', 'everything', '--http', String(port), '--no-sessions'],
    { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    const handshake = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const init = await fetchWhenListening(url, { method: 'POST', headers: handshake, body: INITIALIZE });
    assert.equal(init.status, 200);
    assert.equal(init.headers.get('mcp-session-id'), null);
    await init.body?.cancel();
    const listed = await fetch(url, {
      method: 'POST',
      headers: { ...handshake, 'MCP-Protocol-Version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    assert.equal(listed.status, 200);
    const body = (await listed.json()) as { result: { tools: unknown[] } };
    assert.ok(body.result.tools.length > 0);
    const get = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    assert.equal(get.status, 405);
    await get.body?.cancel();
    const sse = await fetch(`http://127.0.0.1:${port}/sse`, { headers: { Accept: 'text/event-stream' } });
    assert.equal(sse.status, 404);
    await sse.body?.cancel();
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null]);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test('--max-sessions and --max-sessions-per-client: a client past its cap loses its own oldest session, not another client’s', async () => {
  const port = await freePort();
  const child = spawn(
    MCPWIRE[0]!,
    [
      ...MCPWIRE.slice(1),
      ...['serve', 'everything', '--http', String(port)],
      ...['--max-sessions', '3', '--max-sessions-per-client', '2'],
    ],
    { cwd: ROOT, env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const url = `http://127.0.0.1:${port}/mcp`;
    await (
      await fetchWhenListening(url, { method: 'POST', headers: STATELESS_HEADERS, body: DISCOVER })
    ).text();
    const x = { localAddress: '127.0.0.1' };
    const y = { localAddress: '127.0.0.2' };
    const x1 = await initializeFrom(url, x);
    const y1 = await initializeFrom(url, y);
    const x2 = await initializeFrom(url, x);
    const x3 = await initializeFrom(url, x);
    assert.equal(await pingFrom(url, x1, x), 404, 'x’s third evicted x’s oldest (the per-client cap)');
    for (const [id, from] of [
      [y1, y],
      [x2, x],
      [x3, x],
    ] as const)
      assert.equal(await pingFrom(url, id, from), 200);
    const y2 = await initializeFrom(url, y);
    assert.equal(await pingFrom(url, y1, y), 404, 'at the global cap the longest idle went');
    for (const [id, from] of [
      [x2, x],
      [x3, x],
      [y2, y],
    ] as const)
      assert.equal(await pingFrom(url, id, from), 200);
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null]);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test('--max-sessions-per-client takes a positive whole number, and only with --http', async () => {
  const zero = await runCli(['serve', 'everything', '--http', '0', '--max-sessions-per-client', '0']);
  assert.equal(zero.code, 2);
  assert.match(zero.stderr, /--max-sessions-per-client.*a whole number of at least 1/);
  const stdio = await runCli(['serve', 'everything', '--max-sessions', '5']);
  assert.equal(stdio.code, 2);
  assert.match(
    stdio.stderr,
    /^mcpwire: --max-sessions and --max-sessions-per-client apply with --http <port>/,
  );
});

/** POSTs `body` from `from.localAddress`; resolves with the status, the session id and the body. */
async function postFrom(
  url: string,
  body: string,
  from: { localAddress: string },
  session?: string,
): Promise<{ status: number; session: string | undefined }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (session !== undefined) {
    headers['Mcp-Session-Id'] = session;
    headers['MCP-Protocol-Version'] = '2025-06-18';
  }
  const request = httpRequest(url, {
    method: 'POST',
    headers,
    agent: false,
    localAddress: from.localAddress,
  });
  request.end(body);
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  response.resume();
  await once(response, 'end');
  const id = response.headers['mcp-session-id'];
  return { status: response.statusCode ?? 0, session: typeof id === 'string' ? id : undefined };
}

async function initializeFrom(url: string, from: { localAddress: string }): Promise<string> {
  const reply = await postFrom(url, INITIALIZE, from);
  assert.equal(reply.status, 200);
  assert.ok(reply.session !== undefined, 'initialize answered with a session id');
  return reply.session;
}

async function pingFrom(url: string, session: string, from: { localAddress: string }): Promise<number> {
  return (await postFrom(url, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), from, session))
    .status;
}

test('--no-sessions needs --http', async () => {
  const stdio = await runCli(['serve', 'everything', '--no-sessions']);
  assert.equal(stdio.code, 2);
  assert.match(stdio.stderr, /^mcpwire: --no-sessions applies with --http <port>/);
});

/** The status of a discover POST to `url` with this Host header (fetch does not let a caller set Host). */
async function statusWithHost(url: string, host: string): Promise<number | undefined> {
  const request = httpRequest(url, { method: 'POST', headers: { ...STATELESS_HEADERS, Host: host } });
  request.end(DISCOVER);
  const [response] = (await once(request, 'response')) as [IncomingMessage];
  response.resume();
  return response.statusCode;
}

/** Fetches once the server accepts connections (it says nothing when it is ready off a terminal). */
async function fetchWhenListening(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (error) {
      if (attempt === 600) throw error;
      await delay(50);
    }
  }
}

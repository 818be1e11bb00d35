// `mcpwire serve <server> --http <port> --redis <url>` (issue 24): processes given the same Redis serve
// each other's sessions; the URL's password is never printed; a URL that is not Redis's is a usage
// error (2), a Redis that cannot be reached at start a connection error (3); SIGTERM exits 0.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { runCli } from './support/cli-process.ts';
import { freePort } from '../../../test/support/free-port.ts';
import { postRaw, RawHttpSession, statelessRequest } from '../../../test/support/raw-mcp-http.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';
import { startServeNode } from '../../../test/support/redis-nodes.ts';

const SECRET = 's3cret-pw';

test('two `serve --redis` processes: a session made through one is served by the other, and neither prints the password', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisServer();
  // Redis's default user has no password, so it accepts any: the URL carries one as a real one would.
  // Printed, it is redacted as the CLI redacts every URL (the password replaced, percent-encoded).
  const url = redis.url.replace('redis://', `redis://default:${SECRET}@`);
  await using a = await startServeNode(url);
  await using b = await startServeNode(url);
  const session = await RawHttpSession.open(a.url);
  const headers = { 'Mcp-Session-Id': session.sessionId, 'MCP-Protocol-Version': session.protocolVersion };
  const listed = await postRaw(b.url, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, headers);
  assert.equal(listed.status, 200, JSON.stringify(listed.message));
  assert.ok(Array.isArray(listed.message?.result?.tools), JSON.stringify(listed.message));
  assert.ok(listed.message.result.tools.length > 0);
  // DELETE through b ends the session everywhere: a's next request for it is refused.
  const deleted = await fetch(b.url, { method: 'DELETE', headers });
  assert.equal(deleted.status, 204);
  const after = await postRaw(a.url, { jsonrpc: '2.0', id: 8, method: 'tools/list' }, headers);
  assert.equal(after.status, 404);
  for (const node of [a, b]) {
    assert.match(
      node.stderr(),
      /shared through Redis at redis:\/\/default:%5Bredacted%5D@127\.0\.0\.1:\d+\n/,
    );
    assert.doesNotMatch(node.stderr(), new RegExp(SECRET));
    assert.doesNotMatch(node.stderr(), /HTTP\+SSE/, 'no /sse endpoint: its streams live in one process');
    node.child.kill('SIGTERM');
    const [code] = (await once(node.child, 'exit')) as [number | null];
    assert.equal(code, 0);
  }
});

test('two `serve --redis` nodes: a 2026-07-28 input round sealed by one is opened by the other (one requestState key)', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisServer();
  await using a = await startServeNode(redis.url);
  await using b = await startServeNode(redis.url);
  const capabilities = { elicitation: { form: {} } };
  const params = { name: 'test_input_required_result_request_state', arguments: {} };
  const first = await statelessRequest(a.url, 'tools/call', params, { capabilities });
  assert.equal(first.message?.result?.resultType, 'input_required', JSON.stringify(first.message));
  const { requestState } = first.message.result;
  const retry = await statelessRequest(
    b.url,
    'tools/call',
    { ...params, requestState, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } },
    { capabilities },
  );
  assert.equal(retry.status, 200);
  assert.match(
    JSON.stringify(retry.message),
    /state-ok: the confirmation came back through the sealed requestState/,
    'the retry on the other node opens the state sealed by the first',
  );
});

test('a Redis that cannot be reached at start: exit 3, the URL shown without its password', async () => {
  const port = await freePort();
  const result = await runCli([
    'serve',
    'everything',
    '--http',
    '0',
    '--redis',
    `redis://:${SECRET}@127.0.0.1:${port}`,
  ]);
  assert.equal(result.code, 3, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `^mcpwire: cannot connect to Redis at redis://:%5Bredacted%5D@127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`,
    ),
  );
  assert.doesNotMatch(result.stderr, new RegExp(SECRET));
  assert.doesNotMatch(result.stderr, /serving MCP/);
});

test('--redis misused: a URL that is not redis:// or rediss://, no --http, or --no-sessions: exit 2 and why', async () => {
  const rows: Array<[string[], RegExp]> = [
    [
      ['--http', '0', '--redis', `http://user:${SECRET}@127.0.0.1:6379`],
      /^mcpwire: --redis expects a redis:\/\/ or rediss:\/\/ URL, not http:\/\/user:%5Bredacted%5D@127\.0\.0\.1:6379\/ /,
    ],
    [['--http', '0', '--redis', 'not a url'], /^mcpwire: --redis expects a URL such as redis:\/\//],
    [['--redis', 'redis://127.0.0.1:6379'], /^mcpwire: --redis applies with --http <port>/],
    [
      ['--http', '0', '--no-sessions', '--redis', 'redis://127.0.0.1:6379'],
      /^mcpwire: --redis shares handshake-era sessions, and --no-sessions keeps none/,
    ],
  ];
  for (const [args, stderr] of rows) {
    const result = await runCli(['serve', 'everything', ...args]);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, stderr);
    assert.doesNotMatch(result.stderr, new RegExp(SECRET));
  }
});

test('--help says what --redis shares', async () => {
  const result = await runCli(['serve', '--help']);
  assert.equal(result.code, 0);
  const help = result.stdout.replace(/\s+/g, ' ');
  assert.match(help, /--redis <url> with --http: run as one node of many/);
  assert.match(help, /resumable SSE events in this Redis/);
  assert.match(help, /Redis unreachable at start: exit 3; later: 503 until it is back/);
});

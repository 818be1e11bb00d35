// `mcpwire serve <server> --http <port> --redis-cluster <url>[,<url>]` (issue 24): processes given the
// same real three-master Redis Cluster serve each other's sessions; the URLs' passwords are never
// printed; misuse is a usage error (2), a cluster that cannot be reached at start a connection error (3).

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { test } from 'node:test';
import { runCli } from './support/cli-process.ts';
import { freePort } from '../../../test/support/free-port.ts';
import { postRaw, RawHttpSession } from '../../../test/support/raw-mcp-http.ts';
import { redisSkipReason } from '../../../test/support/redis-server.ts';
import { startRedisCluster } from '../../../test/support/redis-cluster.ts';
import { startServeNode } from '../../../test/support/redis-nodes.ts';

const SECRET = 's3cret-pw';

test('two `serve --redis-cluster` processes: a session made through one is served by the other, and neither prints the password', async (t) => {
  const skip = await redisSkipReason();
  if (skip !== undefined) return t.skip(skip);
  await using cluster = await startRedisCluster();
  // The default user has no password, so it accepts any: the URLs carry one as real ones would.
  const urls = cluster.urls.map((url) => url.replace('redis://', `redis://default:${SECRET}@`));
  // Each node is given one root node of its own: it finds the others from it.
  await using a = await startServeNode({ clusterUrls: [urls[0]!] });
  await using b = await startServeNode({ clusterUrls: [urls[1]!, urls[2]!] });
  const session = await RawHttpSession.open(a.url);
  const headers = { 'Mcp-Session-Id': session.sessionId, 'MCP-Protocol-Version': session.protocolVersion };
  const listed = await postRaw(b.url, { jsonrpc: '2.0', id: 7, method: 'tools/list' }, headers);
  assert.equal(listed.status, 200, JSON.stringify(listed.message));
  assert.ok(Array.isArray(listed.message?.result?.tools), JSON.stringify(listed.message));
  const deleted = await fetch(b.url, { method: 'DELETE', headers });
  assert.equal(deleted.status, 204);
  const after = await postRaw(a.url, { jsonrpc: '2.0', id: 8, method: 'tools/list' }, headers);
  assert.equal(after.status, 404);
  for (const node of [a, b]) {
    assert.match(
      node.stderr(),
      /shared through the Redis Cluster at redis:\/\/default:%5Bredacted%5D@127\.0\.0\.1:\d+(, redis:\/\/default:%5Bredacted%5D@127\.0\.0\.1:\d+)?\n/,
    );
    assert.doesNotMatch(node.stderr(), new RegExp(SECRET));
    assert.doesNotMatch(node.stderr(), /HTTP\+SSE/, 'no /sse endpoint: its streams live in one process');
    node.child.kill('SIGTERM');
    const [code] = (await once(node.child, 'exit')) as [number | null];
    assert.equal(code, 0);
  }
});

test('a Redis Cluster that cannot be reached at start: exit 3, the URLs shown without their passwords', async () => {
  const [one, two] = [await freePort(), await freePort()];
  const result = await runCli([
    'serve',
    'everything',
    '--http',
    '0',
    '--redis-cluster',
    `redis://:${SECRET}@127.0.0.1:${one},redis://:${SECRET}@127.0.0.1:${two}`,
  ]);
  assert.equal(result.code, 3, result.stderr);
  assert.match(
    result.stderr,
    new RegExp(
      `^mcpwire: cannot connect to the Redis Cluster at redis://:%5Bredacted%5D@127\\.0\\.0\\.1:${one}, redis://:%5Bredacted%5D@127\\.0\\.0\\.1:${two}: `,
    ),
  );
  assert.doesNotMatch(result.stderr, new RegExp(SECRET));
  assert.doesNotMatch(result.stderr, /serving MCP/);
});

test('--redis-cluster misused: a URL that is not redis:// or rediss://, none, with --redis, no --http, or --no-sessions: exit 2 and why', async () => {
  const rows: Array<[string[], RegExp]> = [
    [
      ['--http', '0', '--redis-cluster', `redis://127.0.0.1:7000,http://user:${SECRET}@127.0.0.1:7001`],
      /^mcpwire: --redis-cluster expects redis:\/\/ or rediss:\/\/ URLs, not http:\/\/user:%5Bredacted%5D@127\.0\.0\.1:7001\/ /,
    ],
    [['--http', '0', '--redis-cluster', ','], /^mcpwire: --redis-cluster expects the URL of at least one/],
    [
      ['--http', '0', '--redis', 'redis://127.0.0.1:7000', '--redis-cluster', 'redis://127.0.0.1:7001'],
      /^mcpwire: --redis and --redis-cluster name where the nodes share their state: give one or the other/,
    ],
    [['--redis-cluster', 'redis://127.0.0.1:7000'], /^mcpwire: --redis-cluster applies with --http <port>/],
    [
      ['--http', '0', '--no-sessions', '--redis-cluster', 'redis://127.0.0.1:7000'],
      /^mcpwire: --redis-cluster shares handshake-era sessions, and --no-sessions keeps none/,
    ],
  ];
  for (const [args, stderr] of rows) {
    const result = await runCli(['serve', 'everything', ...args]);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, stderr);
    assert.doesNotMatch(result.stderr, new RegExp(SECRET));
  }
});

test('--help says what --redis-cluster is', async () => {
  const result = await runCli(['serve', '--help']);
  assert.equal(result.code, 0);
  const help = result.stdout.replace(/\s+/g, ' ');
  assert.match(help, /--redis-cluster <urls> with --http: as --redis, on a Redis Cluster/);
});

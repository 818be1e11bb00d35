// `mcpwire serve everything --era handshake|stateless` as a real process over stdio and over HTTP:
// a handshake-only server answers a 2026-07-28 request as a 2025 server would (server/discover is an
// unknown method, the envelope is ignored), a 2026-07-28-only server refuses initialize with -32022.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RawServerProcess } from '../../../test/support/raw-server-process.ts';
import {
  postRaw,
  RawHttpSession,
  spawnHttpServer,
  statelessRequest,
  STATELESS_VERSION,
} from '../../../test/support/raw-mcp-http.ts';
import { runCli } from './support/cli-process.ts';

const ENVELOPE = {
  _meta: {
    'io.modelcontextprotocol/protocolVersion': STATELESS_VERSION,
    'io.modelcontextprotocol/clientCapabilities': {},
  },
};

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'era-test', version: '1' } },
};

describe('serve --era', { concurrency: 4 }, () => {
  test('stdio, --era handshake: server/discover is an unknown method; initialize and 2025 follow', async () => {
    await using server = new RawServerProcess(['serve', 'everything', '--era', 'handshake']);
    const discover = await server.request('server/discover', ENVELOPE);
    assert.equal(discover.error?.code, -32601, JSON.stringify(discover));
    // The envelope is ignored: before initialize, a tools/list is a lifecycle error, not a 2026 answer.
    const early = await server.request('tools/list', ENVELOPE);
    assert.equal(early.error?.code, -32600, JSON.stringify(early));
    const result = await server.initialize();
    assert.equal(result.protocolVersion, '2025-11-25');
    const tools = await server.request('tools/list', ENVELOPE);
    assert.ok(Array.isArray(tools.result?.tools), JSON.stringify(tools));
    assert.equal(tools.result.resultType, undefined, 'a 2025 answer has no resultType');
  });

  test('stdio, --era stateless: initialize is refused with -32022 naming 2026-07-28; discover answers', async () => {
    await using server = new RawServerProcess(['serve', 'everything', '--era', 'stateless']);
    const refused = await server.request('initialize', INITIALIZE.params);
    assert.equal(refused.error?.code, -32022, JSON.stringify(refused));
    assert.deepEqual(refused.error.data, { supported: ['2026-07-28'], requested: '2025-11-25' });
    const discover = await server.request('server/discover', ENVELOPE);
    assert.deepEqual(discover.result?.supportedVersions, ['2026-07-28'], JSON.stringify(discover));
  });

  test('HTTP, --era handshake: a 2026-07-28 request gets a 4xx with no 2026 error; a session works', async () => {
    await using server = await spawnHttpServer(['everything', '--era', 'handshake']);
    const discover = await statelessRequest(server.url, 'server/discover', {});
    assert.ok(discover.status >= 400 && discover.status < 500, `status ${discover.status}`);
    const code = (discover.message as { error?: { code?: number } } | undefined)?.error?.code;
    assert.ok(code === undefined || code > -32020 || code < -32099, `a 2026-07-28 error code: ${code}`);
    const session = await RawHttpSession.open(server.url);
    const tools = await session.request('tools/list');
    assert.ok(Array.isArray(tools.result?.tools), JSON.stringify(tools));
  });

  test('HTTP, --era stateless: initialize gets 400 and -32022; server/discover answers', async () => {
    await using server = await spawnHttpServer(['everything', '--era', 'stateless']);
    const refused = await postRaw(server.url, INITIALIZE);
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('mcp-session-id'), null);
    assert.equal(refused.message.error.code, -32022, JSON.stringify(refused.message));
    assert.deepEqual(refused.message.error.data, { supported: ['2026-07-28'], requested: '2025-11-25' });
    assert.match(refused.message.error.message, /only 2026-07-28/);
    const discover = await statelessRequest(server.url, 'server/discover', {});
    assert.equal(discover.status, 200);
    assert.deepEqual(discover.message.result.supportedVersions, ['2026-07-28']);
  });

  test('--era with another value is a usage error naming the choices', async () => {
    const result = await runCli(['serve', 'everything', '--era', '2025']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /both, handshake, stateless/);
  });
});

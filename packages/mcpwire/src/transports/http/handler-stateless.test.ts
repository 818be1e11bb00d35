// The stateless era (2026-07-28) through the HTTP handler, in-process: the validation ladder and its
// order, status codes, JSON vs SSE, listen streams, and cancellation by closing the stream.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import {
  ENDPOINT,
  statelessMeta,
  statelessPost,
  post,
  SseReader,
  type Loose,
} from '../../../test/support/http-kit.ts';
import { createHttpHandler } from './handler.ts';

function setup() {
  const server = createFixtureServer();
  const handler = createHttpHandler(server, { keepAliveMs: 0 });
  return { server, handler };
}

async function json(response: Response): Promise<Record<string, Loose>> {
  assert.equal(response.headers.get('content-type'), 'application/json');
  return (await response.json()) as Record<string, Loose>;
}

describe('stateless era: answers', () => {
  test('server/discover is answered in JSON, with no session id', async () => {
    const { handler } = setup();
    const response = await handler(statelessPost('server/discover', {}, { id: 7 }));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('mcp-session-id'), null);
    const body = await json(response);
    assert.equal(body.id, 7);
    assert.deepEqual(body.result.supportedVersions, ['2026-07-28']);
  });

  test('a request carrying Mcp-Session-Id is served statelessly all the same (S26-HTTP-9)', async () => {
    const { handler } = setup();
    const response = await handler(
      statelessPost('tools/list', {}, { headers: { 'Mcp-Session-Id': 'whatever' } }),
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('mcp-session-id'), null);
    assert.ok(Array.isArray((await json(response)).result.tools));
  });

  test('progress before the response turns the answer into an SSE stream that ends after it', async () => {
    const { handler } = setup();
    const response = await handler(
      statelessPost(
        'tools/call',
        { name: 'test_tool_with_progress', arguments: {} },
        { meta: { progressToken: 'p1' } },
      ),
    );
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    assert.equal(response.headers.get('x-accel-buffering'), 'no');
    const frames = await new SseReader(response).rest();
    assert.ok(
      frames.every((frame) => frame.id === undefined),
      'no event ids in 2026 (S26-HTTP-8)',
    );
    const messages = frames.map((frame) => JSON.parse(frame.data) as Record<string, Loose>);
    assert.deepEqual(
      messages.slice(0, 3).map((m) => [m.method, m.params.progressToken, m.params.progress]),
      [
        ['notifications/progress', 'p1', 0],
        ['notifications/progress', 'p1', 50],
        ['notifications/progress', 'p1', 100],
      ],
    );
    assert.equal(messages.length, 4);
    assert.equal(messages[3]!.id, 1);
    assert.equal(messages[3]!.result.content[0].text, 'p1');
  });

  test('a handler error is in-band (200); -32021 is 400 even from a handler', async () => {
    const { handler } = setup();
    const unknown = await handler(statelessPost('tools/call', { name: 'no_such_tool', arguments: {} }));
    assert.equal(unknown.status, 200);
    assert.equal((await json(unknown)).error.code, -32602);
    const missing = await handler(
      statelessPost('tools/call', { name: 'test_missing_capability', arguments: {} }),
    );
    assert.equal(missing.status, 400);
    const body = await json(missing);
    assert.equal(body.error.code, -32021);
    assert.deepEqual(body.error.data.requiredCapabilities.sampling, {});
  });

  test('removed and unknown methods get 404 with -32601 and the id echoed (S26-HTTP-16)', async () => {
    const { handler } = setup();
    for (const method of [
      'initialize',
      'ping',
      'logging/setLevel',
      'resources/subscribe',
      'resources/unsubscribe',
      'unknown/method',
    ]) {
      const params = method.startsWith('resources/') ? { uri: 'test://static-text' } : {};
      const response = await handler(statelessPost(method, params, { id: `id-${method}` }));
      assert.equal(response.status, 404, method);
      const body = await json(response);
      assert.deepEqual([body.id, body.error.code], [`id-${method}`, -32601], method);
    }
  });

  test('a stateless notification is accepted with 202 and no body', async () => {
    const { handler } = setup();
    const response = await handler(
      post(
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } },
        {
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'notifications/progress',
        },
      ),
    );
    assert.equal(response.status, 202);
    assert.equal(await response.text(), '');
    const mismatch = await handler(
      post(
        { jsonrpc: '2.0', method: 'notifications/progress', params: {} },
        {
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'notifications/message',
        },
      ),
    );
    assert.equal(mismatch.status, 400);
    assert.equal((await json(mismatch)).error.code, -32020);
  });

  test('GET and DELETE naming a stateless-era version get 405 (S26-HTTP-1)', async () => {
    const { handler } = setup();
    for (const method of ['GET', 'DELETE']) {
      const response = await handler(
        new Request(ENDPOINT, {
          method,
          headers: { 'MCP-Protocol-Version': '2026-07-28', Accept: 'text/event-stream' },
        }),
      );
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST');
    }
  });
});

/** Removes the kit's spelling of the standard headers, to send them spelled differently. */
const NO_STANDARD = { 'Mcp-Method': null, 'MCP-Protocol-Version': null };

describe('stateless era: the validation ladder', () => {
  test('a missing envelope is 400 -32602, before any header check', async () => {
    const { handler } = setup();
    const noMeta = await handler(
      post(
        { jsonrpc: '2.0', id: 101, method: 'server/discover', params: {} },
        { 'MCP-Protocol-Version': '2026-07-28' },
      ),
    );
    assert.equal(noMeta.status, 400);
    const body = await json(noMeta);
    assert.deepEqual([body.id, body.error.code], [101, -32602]);
    assert.match(body.error.message, /_meta/);
    const meta = statelessMeta();
    delete meta['io.modelcontextprotocol/clientCapabilities'];
    const noCaps = await handler(
      post(
        { jsonrpc: '2.0', id: 104, method: 'server/discover', params: { _meta: meta } },
        { 'Mcp-Method': 'nope' },
      ),
    );
    assert.equal(noCaps.status, 400);
    assert.deepEqual([(await json(noCaps)).error.code], [-32602]);
    const noInfo = statelessMeta();
    delete noInfo['io.modelcontextprotocol/clientInfo'];
    const fine = await handler(
      post(
        { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: noInfo } },
        {
          'MCP-Protocol-Version': '2026-07-28',
          'Mcp-Method': 'server/discover',
        },
      ),
    );
    assert.equal(fine.status, 200, 'clientInfo is optional');
  });

  test('header/body version mismatch is -32020 before the unsupported version -32022', async () => {
    const { handler } = setup();
    const mismatch = await handler(
      statelessPost(
        'server/discover',
        {},
        { meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } },
      ),
    );
    assert.equal(mismatch.status, 400);
    assert.equal((await json(mismatch)).error.code, -32020);
    const unsupported = await handler(
      statelessPost(
        'server/discover',
        {},
        {
          id: 5,
          meta: { 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' },
          headers: { 'MCP-Protocol-Version': 'v999.0.0' },
        },
      ),
    );
    assert.equal(unsupported.status, 400);
    const body = await json(unsupported);
    assert.deepEqual(
      [body.id, body.error.code, body.error.data],
      [5, -32022, { supported: ['2026-07-28'], requested: 'v999.0.0' }],
    );
  });

  test('a claim naming a handshake-era version is served as stateless: -32022', async () => {
    const { handler } = setup();
    const response = await handler(
      statelessPost(
        'tools/list',
        {},
        {
          meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' },
          headers: { 'MCP-Protocol-Version': '2025-11-25' },
        },
      ),
    );
    assert.equal(response.status, 400);
    assert.equal((await json(response)).error.code, -32022);
  });

  test('standard headers: missing, case-changed or different values are -32020; names and padding are lenient', async () => {
    const { handler } = setup();
    const call = { name: 'echo', arguments: {} };
    const rejected: Array<[string, Request]> = [
      [
        'no MCP-Protocol-Version',
        statelessPost('tools/list', {}, { headers: { 'MCP-Protocol-Version': null } }),
      ],
      ['no Mcp-Method', statelessPost('tools/list', {}, { headers: { 'Mcp-Method': null } })],
      [
        'Mcp-Method of another method',
        statelessPost('tools/list', {}, { headers: { 'Mcp-Method': 'prompts/list' } }),
      ],
      [
        'Mcp-Method in upper case',
        statelessPost('tools/list', {}, { headers: { 'Mcp-Method': 'TOOLS/LIST' } }),
      ],
      ['no Mcp-Name', statelessPost('tools/call', call, { headers: { 'Mcp-Name': null } })],
      [
        'Mcp-Name of another tool',
        statelessPost('tools/call', call, { headers: { 'Mcp-Name': 'wrong_tool_name' } }),
      ],
      ['Mcp-Name non-ASCII', statelessPost('tools/call', call, { headers: { 'Mcp-Name': 'ech\u00f6' } })],
    ];
    for (const [label, request] of rejected) {
      const response = await handler(request);
      assert.equal(response.status, 400, label);
      const body = await json(response);
      assert.deepEqual([body.id, body.error.code], [1, -32020], label);
    }
    const accepted: Array<[string, Request]> = [
      [
        'lower-case names',
        statelessPost(
          'tools/list',
          {},
          { headers: { ...NO_STANDARD, 'mcp-method': 'tools/list', 'mcp-protocol-version': '2026-07-28' } },
        ),
      ],
      [
        'upper-case names',
        statelessPost(
          'tools/list',
          {},
          { headers: { ...NO_STANDARD, 'MCP-METHOD': 'tools/list', 'MCP-PROTOCOL-VERSION': '2026-07-28' } },
        ),
      ],
      ['padded Mcp-Name', statelessPost('tools/call', call, { headers: { 'Mcp-Name': '  echo  ' } })],
      [
        'base64 Mcp-Name',
        statelessPost(
          'resources/read',
          { uri: 'test://static-text' },
          { headers: { 'Mcp-Name': '=?base64?dGVzdDovL3N0YXRpYy10ZXh0?=' } },
        ),
      ],
    ];
    for (const [label, request] of accepted) {
      const response = await handler(request);
      assert.equal(response.status, 200, `${label}: ${JSON.stringify(await response.clone().json())}`);
      assert.equal((await json(response)).error, undefined, label);
    }
  });

  test('Mcp-Param-* headers of x-mcp-header arguments: base64 decoded strictly, missing rejected', async () => {
    const { handler } = setup();
    const call = (region: string | undefined, header: string | null) =>
      handler(
        statelessPost(
          'tools/call',
          { name: 'test_custom_header', arguments: region === undefined ? {} : { region } },
          {
            headers: { 'Mcp-Param-Region': header },
          },
        ),
      );
    const ok = await call('Hello', '=?base64?SGVsbG8=?=');
    assert.equal(ok.status, 200);
    assert.equal((await json(ok)).result.content[0].text, 'Region: Hello');
    for (const bad of ['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?=', 'Goodbye']) {
      const response = await call('Hello', bad);
      assert.equal(response.status, 400, bad);
      assert.equal((await json(response)).error.code, -32020, bad);
    }
    const missing = await call('Hello', null);
    assert.equal(missing.status, 400);
    assert.equal((await json(missing)).error.code, -32020);
    assert.equal((await call('Hello', 'Hello')).status, 200, 'a plain value is a literal');
    assert.equal(
      (await call('=?BASE64?SGVsbG8=?=', '=?BASE64?SGVsbG8=?=')).status,
      200,
      'wrong-case sentinel is a literal',
    );
    // No value in the body: the header is not expected (S26-HDR-5); the tool then reports its own error.
    assert.equal((await call(undefined, null)).status, 200);
  });

  test('a custom toolSchema option replaces the lookup through the server', async () => {
    const server = createFixtureServer();
    const asked: string[] = [];
    const handler = createHttpHandler(server, {
      keepAliveMs: 0,
      toolSchema: (name) => {
        asked.push(name);
        return { type: 'object', properties: { message: { type: 'string', 'x-mcp-header': 'Msg' } } };
      },
    });
    const response = await handler(
      statelessPost('tools/call', { name: 'echo', arguments: { message: 'hi' } }),
    );
    assert.equal(response.status, 400);
    assert.match((await json(response)).error.message, /Mcp-Param-Msg/);
    assert.deepEqual(asked, ['echo']);
  });
});

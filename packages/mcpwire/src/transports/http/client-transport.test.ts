// StreamableHttpClientTransport against in-test fake servers (fetch functions, no sockets): JSON and
// SSE answers, the handshake-era session, the stateless-era headers, tool filtering and HTTP errors.

import assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { describe, it } from 'node:test';
import {
  ChannelLog,
  FakeHttpServer,
  jsonResponse,
  resultFor,
  SseResponder,
  type Received,
} from '../../../test/support/fake-http-server.ts';
import { ConnectionClosedError } from '../../jsonrpc/errors.ts';
import type { JsonObject, JsonRpcRequest, Message } from '../../jsonrpc/message.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';
import {
  FetchFailedError,
  HttpError,
  InvalidToolHeaderError,
  ResponseStreamLostError,
  SessionExpiredError,
} from './http-errors.ts';

const ENDPOINT = 'http://localhost:3000/mcp';
const STATELESS = '2026-07-28';
const SERVER_INFO = { name: 'fake', version: '1.0.0' };

function request(id: number, method: string, params: JsonObject = {}): JsonRpcRequest {
  return { jsonrpc: '2.0', id, method, params };
}

/** A stateless-era request: the `_meta` claim makes it one. */
function statelessRequest(id: number, method: string, params: JsonObject = {}): JsonRpcRequest {
  const _meta = {
    'io.modelcontextprotocol/protocolVersion': STATELESS,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return request(id, method, { ...params, _meta });
}

const INITIALIZE = request(1, 'initialize', {
  protocolVersion: '2025-11-25',
  capabilities: {},
  clientInfo: { name: 'test', version: '1.0.0' },
});

function bodyOf(received: Received): JsonObject {
  return received.body as JsonObject;
}

function connect(server: FakeHttpServer, errors: Error[] = []) {
  const transport = new StreamableHttpClientTransport(ENDPOINT, {
    fetch: server.fetch,
    onError: (error) => errors.push(error),
  });
  return transport.connect();
}

/** A handshake-era server: session `abc`, version 2025-06-18, a 405 to GET, JSON answers. */
function sessionServer(answer: (request: Received) => Response = (r) => jsonResponse(resultFor(r, {}))) {
  return new FakeHttpServer((received) => {
    if (received.method === 'GET') return new Response('Method Not Allowed', { status: 405 });
    if (received.method === 'DELETE') return new Response(null, { status: 200 });
    const body = bodyOf(received);
    if (body.method === 'initialize')
      return jsonResponse(
        resultFor(received, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: SERVER_INFO }),
        { headers: { 'Mcp-Session-Id': 'abc' } },
      );
    if (body.id === undefined) return new Response(null, { status: 202 });
    return answer(received);
  });
}

describe('StreamableHttpClientTransport', () => {
  it('has a key made of the origin and path, and refuses non-HTTP URLs and bad limits', () => {
    assert.equal(
      new StreamableHttpClientTransport(`${ENDPOINT}?x=1#f`).key,
      'http:http://localhost:3000/mcp',
    );
    assert.throws(() => new StreamableHttpClientTransport('ws://localhost/mcp'), TypeError);
    assert.throws(
      () => new StreamableHttpClientTransport(ENDPOINT, { reconnection: { maxAttempts: -1 } }),
      RangeError,
    );
  });

  it('posts what is sent after notifications/initialized only once that POST was accepted, though sent back to back', async () => {
    const server = sessionServer((r) => jsonResponse(resultFor(r, { content: [] })));
    // The initialized notification's POST is slow to reach the server (another socket, a busy
    // proxy): a relay that writes the next request at once must not overtake it.
    const fetch = async (request: Request): Promise<Response> => {
      if ((await request.clone().text()).includes('notifications/initialized'))
        await new Promise((resolve) => setTimeout(resolve, 50));
      return server.fetch(request);
    };
    const channel = await new StreamableHttpClientTransport(ENDPOINT, { fetch, onError: () => {} }).connect();
    const log = new ChannelLog(channel);
    await channel.send(INITIALIZE);
    const sent = [
      channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      channel.send(request(2, 'tools/call', { name: 'echo' })),
      channel.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }),
    ];
    await Promise.all(sent);
    const posted = server.ofMethod('POST').map((received) => String(bodyOf(received).method));
    assert.deepEqual(posted, [
      'initialize',
      'notifications/initialized',
      'tools/call',
      'notifications/roots/list_changed',
    ]);
    assert.deepEqual(log.messages.at(-1), { jsonrpc: '2.0', id: 2, result: { content: [] } });
    await channel.close();
  });

  it('runs a handshake-era session: session id and version on later requests, GET after initialized, DELETE on close', async () => {
    const server = sessionServer((r) => jsonResponse(resultFor(r, { tools: [] })));
    const channel = await connect(server);
    const log = new ChannelLog(channel);

    await channel.send(INITIALIZE);
    const [init] = server.requests;
    assert.equal(init!.method, 'POST');
    assert.equal(init!.headers.get('accept'), 'application/json, text/event-stream');
    assert.equal(init!.headers.get('content-type'), 'application/json');
    assert.equal(init!.headers.get('mcp-session-id'), null);
    assert.equal(init!.headers.get('mcp-protocol-version'), null);
    assert.deepEqual(bodyOf(init!), INITIALIZE);
    assert.deepEqual(channel.info, { isRequestResponse: true, sessionId: 'abc' });

    await channel.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await server.waitForRequests(3);
    const get = server.requests[2]!;
    assert.equal(get.method, 'GET');
    assert.equal(get.headers.get('accept'), 'text/event-stream');

    await channel.send(request(2, 'tools/list'));
    for (const later of server.requests.slice(1)) {
      assert.equal(later.headers.get('mcp-session-id'), 'abc', later.method);
      assert.equal(later.headers.get('mcp-protocol-version'), '2025-06-18', later.method);
    }
    assert.deepEqual(log.messages, [
      resultFor(init!, { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: SERVER_INFO }),
      { jsonrpc: '2.0', id: 2, result: { tools: [] } },
    ]);

    const closing = channel.close();
    assert.equal(channel.close(), closing, 'close is idempotent');
    await closing;
    const deletes = server.ofMethod('DELETE');
    assert.equal(deletes.length, 1);
    assert.equal(deletes[0]!.headers.get('mcp-session-id'), 'abc');
    assert.deepEqual(log.closed, { error: undefined });
    await assert.rejects(channel.send(request(3, 'ping')), ConnectionClosedError);
  });

  it('delivers an SSE answer in order, ignoring the priming event, and resolves send after the response', async () => {
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 1, progress: 1 },
    };
    const server = new FakeHttpServer((received) => {
      const sse = new SseResponder(received.signal);
      sse.send({ id: 'e0', retry: 3000, data: '' });
      sse.write(': keep-alive comment\n\n');
      sse.send({ id: 'e1', data: progress });
      sse.send({ id: 'e2', event: 'message', data: resultFor(received, { content: [] }) });
      sse.close();
      return sse.response;
    });
    const channel = await connect(server);
    const log = new ChannelLog(channel);
    await channel.send(request(7, 'tools/call', { name: 'slow' }));
    assert.deepEqual(log.messages, [progress, { jsonrpc: '2.0', id: 7, result: { content: [] } }]);
    await channel.close();
  });

  it('accepts a 202 for a notification and a response, delivering nothing', async () => {
    const server = new FakeHttpServer(() => new Response(null, { status: 202 }));
    const channel = await connect(server);
    const log = new ChannelLog(channel);
    await channel.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    await channel.send({ jsonrpc: '2.0', id: 'server-1', result: {} });
    assert.equal(server.requests.length, 2);
    assert.deepEqual(log.frames, []);
    await channel.close();
    assert.equal(server.ofMethod('DELETE').length, 0, 'no session, nothing to delete');
  });

  it('sends the stateless-era headers for a claiming request, and never a session id', async () => {
    const server = new FakeHttpServer((received) =>
      jsonResponse(resultFor(received, {}), { headers: { 'Mcp-Session-Id': 'must-be-ignored' } }),
    );
    const channel = await connect(server);
    new ChannelLog(channel);
    await channel.send(statelessRequest(1, 'server/discover'));
    await channel.send(statelessRequest(2, 'tools/call', { name: 'my-hyphenated-tool', arguments: {} }));
    await channel.send(statelessRequest(3, 'resources/read', { uri: 'file:///path/to/file%20name.txt' }));
    await channel.send(statelessRequest(4, 'resources/read', { uri: 'https://example.com/resource?id=123' }));
    await channel.send(statelessRequest(5, 'prompts/get', { name: 'café' }));
    await channel.send(statelessRequest(6, 'tasks/get', { taskId: 'task-1' }));
    const headers = server.requests.map((r) => ({
      version: r.headers.get('mcp-protocol-version'),
      method: r.headers.get('mcp-method'),
      name: r.headers.get('mcp-name'),
      session: r.headers.get('mcp-session-id'),
    }));
    const base = { version: STATELESS, session: null };
    assert.deepEqual(headers, [
      { ...base, method: 'server/discover', name: null },
      { ...base, method: 'tools/call', name: 'my-hyphenated-tool' },
      { ...base, method: 'resources/read', name: 'file:///path/to/file%20name.txt' },
      { ...base, method: 'resources/read', name: 'https://example.com/resource?id=123' },
      { ...base, method: 'prompts/get', name: `=?base64?${Buffer.from('café').toString('base64')}?=` },
      { ...base, method: 'tasks/get', name: 'task-1' },
    ]);
    assert.equal(channel.info.sessionId, undefined);
    await channel.close();
    assert.equal(server.ofMethod('DELETE').length, 0);
  });

  it('mirrors x-mcp-header arguments into Mcp-Param-* headers with the value encoding (S26-HDR-4)', async () => {
    const server = new FakeHttpServer((received) => {
      if (bodyOf(received).method !== 'tools/list') return jsonResponse(resultFor(received, { content: [] }));
      return jsonResponse(resultFor(received, { tools: [CUSTOM_HEADERS_TOOL] }));
    });
    const channel = await connect(server);
    new ChannelLog(channel);
    await channel.send(statelessRequest(1, 'tools/list'));
    await channel.send(
      statelessRequest(2, 'tools/call', { name: 'test_custom_headers', arguments: CUSTOM_ARGUMENTS }),
    );
    await channel.send(
      statelessRequest(3, 'tools/call', {
        name: 'test_custom_headers',
        arguments: { region: 'us-east1', priority: 1, verbose: null, query: 'SELECT 1' },
      }),
    );
    const call = server.requests[1]!.headers;
    const base64 = (text: string) => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
    const expected: Record<string, string> = {
      'mcp-param-region': 'us-west1',
      'mcp-param-priority': '42',
      'mcp-param-verbose': 'false',
      'mcp-param-debug': 'true',
      'mcp-param-emptyval': '',
      'mcp-param-method': 'test-method',
      'mcp-param-nonascii': base64('Hello, 世界'),
      'mcp-param-whitespace': base64(' padded '),
      'mcp-param-leadingspace': base64(' us-west1'),
      'mcp-param-trailingspace': base64('us-west1 '),
      'mcp-param-internalspace': 'us west 1',
      'mcp-param-controlchar': base64('line1\nline2'),
      'mcp-param-crlf': base64('line1\r\nline2'),
      'mcp-param-tab': base64('\tindented'),
      'mcp-param-lookalike': base64('=?base64?SGk=?='),
      'mcp-param-zone': 'eu-1',
    };
    const actual = Object.fromEntries([...call.entries()].filter(([name]) => name.startsWith('mcp-param-')));
    assert.deepEqual(actual, expected);
    assert.equal(
      call.get('mcp-method'),
      'tools/call',
      'x-mcp-header "Method" is Mcp-Param-Method, not Mcp-Method',
    );
    const withNull = server.requests[2]!.headers;
    assert.equal(withNull.get('mcp-param-verbose'), null, 'null: no header');
    assert.equal(withNull.get('mcp-param-debug'), null, 'absent: no header');
    assert.equal(withNull.get('mcp-param-priority'), '1');
    await channel.close();
  });

  it('drops tools with invalid x-mcp-header annotations from tools/list results and reports each', async () => {
    const server = new FakeHttpServer((received) => {
      if (bodyOf(received).method === 'tools/list')
        return jsonResponse(resultFor(received, { tools: [...INVALID_TOOLS, VALID_TOOL], nextCursor: 'c' }));
      return jsonResponse(resultFor(received, { content: [] }));
    });
    const errors: Error[] = [];
    const channel = await connect(server, errors);
    const log = new ChannelLog(channel);
    await channel.send(statelessRequest(1, 'tools/list'));
    assert.deepEqual(log.messages, [
      { jsonrpc: '2.0', id: 1, result: { tools: [VALID_TOOL], nextCursor: 'c' } },
    ]);
    assert.deepEqual(
      errors.map((error) => (error instanceof InvalidToolHeaderError ? error.tool : error.message)),
      INVALID_TOOLS.map((tool) => tool.name),
    );
    await channel.send(
      statelessRequest(2, 'tools/call', { name: 'valid_tool', arguments: { region: 'us' } }),
    );
    assert.equal(server.requests[1]!.headers.get('mcp-param-region'), 'us');
    await channel.close();
  });

  it('delivers a 4xx whose body is a JSON-RPC error for the request, so the peer sees an RpcError', async () => {
    const error = {
      code: -32022,
      message: 'Unsupported protocol version',
      data: { supported: [STATELESS], requested: 'x' },
    };
    const server = new FakeHttpServer((received) =>
      jsonResponse({ jsonrpc: '2.0', id: bodyOf(received).id, error }, { status: 400 }),
    );
    const channel = await connect(server);
    const log = new ChannelLog(channel);
    await channel.send(statelessRequest(1, 'server/discover'));
    assert.deepEqual(log.messages, [{ jsonrpc: '2.0', id: 1, error }]);
    await channel.close();
  });

  it('rejects 401, 403, 5xx and id-less errors with HttpError, keeping status, body and headers', async () => {
    const answers: Array<() => Response> = [
      () =>
        jsonResponse(
          { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Unauthorized' } },
          { status: 401, headers: { 'WWW-Authenticate': 'Bearer resource_metadata="x"' } },
        ),
      () => new Response('Forbidden origin', { status: 403 }),
      () =>
        jsonResponse({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'boom' } }, { status: 500 }),
      () =>
        jsonResponse(
          {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32000, message: 'Bad Request: Unsupported protocol version' },
          },
          { status: 400 },
        ),
    ];
    let next = 0;
    const server = new FakeHttpServer(() => answers[next++]!());
    const channel = await connect(server);
    const log = new ChannelLog(channel);
    const failures: HttpError[] = [];
    for (let i = 0; i < answers.length; i++) {
      await channel.send(statelessRequest(1, 'server/discover')).then(
        () => assert.fail('expected a rejection'),
        (error: unknown) => {
          assert.ok(error instanceof HttpError);
          failures.push(error);
        },
      );
    }
    assert.deepEqual(
      failures.map((f) => [f.code, f.status, f.requestMethod, f.method]),
      [401, 403, 500, 400].map((status) => ['HTTP_ERROR', status, 'POST', 'server/discover']),
    );
    assert.equal(failures[0]!.headers.get('www-authenticate'), 'Bearer resource_metadata="x"');
    assert.equal(failures[1]!.body, 'Forbidden origin');
    assert.match(failures[1]!.message, /answered 403 .*"server\/discover".*Forbidden origin/);
    assert.equal(failures[3]!.error?.code, -32000);
    assert.deepEqual(log.frames, []);
    await channel.close();
  });

  it('names a network failure FetchFailedError', async () => {
    const channel = await connect(
      new FakeHttpServer(() => {
        throw new TypeError('fetch failed');
      }),
    );
    new ChannelLog(channel);
    await assert.rejects(channel.send(request(1, 'ping')), FetchFailedError);
    await channel.close();
  });

  it('rejects a 200 that carries no response to the request', async () => {
    const channel = await connect(
      new FakeHttpServer(() => jsonResponse({ jsonrpc: '2.0', id: 99, result: {} })),
    );
    const log = new ChannelLog(channel);
    await assert.rejects(channel.send(request(1, 'ping')), ResponseStreamLostError);
    assert.equal(log.frames.length, 1, 'the stray response is still delivered');
    await channel.close();
  });

  it('reports an ended session (404 with the session id) and starts the next initialize without one', async () => {
    let isExpired = false;
    const server = sessionServer((received) =>
      isExpired ? new Response('Session not found', { status: 404 }) : jsonResponse(resultFor(received, {})),
    );
    const channel = await connect(server);
    new ChannelLog(channel);
    await channel.send(INITIALIZE);
    await channel.send(request(2, 'ping'));
    isExpired = true;
    const error = await channel.send(request(3, 'ping')).then(
      () => assert.fail('expected SessionExpiredError'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof SessionExpiredError);
    assert.equal(error.sessionId, 'abc');
    assert.equal(channel.info.sessionId, undefined);
    isExpired = false;
    await channel.send({ ...INITIALIZE, id: 4 });
    const reinit = server.requests.at(-1)!;
    assert.equal(bodyOf(reinit).method, 'initialize');
    assert.equal(reinit.headers.get('mcp-session-id'), null);
    assert.equal(channel.info.sessionId, 'abc');
    await channel.close();
  });

  it('cancels a stateless-era request by closing its stream, posting nothing (S26-HTTP-10)', async () => {
    let stream: SseResponder | undefined;
    const server = new FakeHttpServer((received) => {
      stream = new SseResponder(received.signal);
      return stream.response;
    });
    const channel = await connect(server);
    const log = new ChannelLog(channel);
    const sending = channel.send(statelessRequest(5, 'tools/call', { name: 'slow' }));
    await server.waitForRequests(1);
    await channel.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    await sending;
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.signal.aborted, true);
    stream!.send({ data: { jsonrpc: '2.0', id: 5, result: {} } });
    assert.deepEqual(log.frames, []);
    await channel.close();
  });

  it('posts a handshake-era cancellation, then stops reading the request stream', async () => {
    const streams: SseResponder[] = [];
    const server = sessionServer((received) => {
      const sse = new SseResponder(received.signal);
      streams.push(sse);
      return sse.response;
    });
    const channel = await connect(server);
    new ChannelLog(channel);
    await channel.send(INITIALIZE);
    const sending = channel.send(request(2, 'tools/call', { name: 'slow' }));
    await server.waitForRequests(2);
    const cancel = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId: 2 } };
    await channel.send(cancel);
    await sending;
    assert.deepEqual(bodyOf(server.requests[2]!), cancel);
    assert.equal(server.requests[2]!.headers.get('mcp-session-id'), 'abc');
    assert.equal(server.requests[1]!.signal.aborted, true);
    await channel.close();
  });

  it('merges requestInit and headers under the protocol headers, and honours requestInit.signal', async () => {
    const server = new FakeHttpServer((received) => jsonResponse(resultFor(received, {})));
    const controller = new AbortController();
    const transport = new StreamableHttpClientTransport(ENDPOINT, {
      fetch: server.fetch,
      requestInit: { headers: { 'X-From-Init': 'i', Accept: 'text/plain' }, signal: controller.signal },
      headers: { Authorization: 'Bearer t', 'X-From-Init': 'overridden' },
    });
    const channel = await transport.connect();
    new ChannelLog(channel);
    await channel.send(request(1, 'ping'));
    const headers = server.requests[0]!.headers;
    assert.equal(headers.get('authorization'), 'Bearer t');
    assert.equal(headers.get('x-from-init'), 'overridden');
    assert.equal(headers.get('accept'), 'application/json, text/event-stream');
    controller.abort();
    await assert.rejects(channel.send(request(2, 'ping')), FetchFailedError);
    await channel.close();
  });

  it('closes with requests in flight: their streams are aborted and their sends reject', async () => {
    const server = sessionServer((received) => new SseResponder(received.signal).response);
    const channel = await connect(server);
    const log = new ChannelLog(channel);
    await channel.send(INITIALIZE);
    const sending = channel.send(request(2, 'tools/call', { name: 'slow' }));
    await server.waitForRequests(2);
    await channel.close();
    await assert.rejects(sending, ConnectionClosedError);
    assert.equal(server.requests[1]!.signal.aborted, true);
    assert.equal(server.requests.at(-1)!.method, 'DELETE');
    assert.deepEqual(log.closed, { error: undefined });
  });

  it('delivers a batch answer (2025-03-26) and rejects all of its requests together on failure', async () => {
    let isFailing = false;
    const server = new FakeHttpServer((received) => {
      if (isFailing) return new Response('nope', { status: 500 });
      const batch = received.body as JsonObject[];
      return jsonResponse(batch.map((item) => ({ jsonrpc: '2.0', id: item.id, result: {} })));
    });
    const channel = await connect(server);
    const log = new ChannelLog(channel);
    const batch: Message[] = [request(1, 'ping'), request(2, 'ping')];
    await channel.send(batch);
    assert.equal(log.frames[0]!.type, 'batch');
    isFailing = true;
    await assert.rejects(channel.send([request(3, 'ping')]), HttpError);
    await channel.close();
  });
});

/** The tool of the conformance scenario `http-custom-headers`, plus a nested and a look-alike case. */
const CUSTOM_HEADERS_TOOL = {
  name: 'test_custom_headers',
  inputSchema: {
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
      debug: { type: 'boolean', 'x-mcp-header': 'Debug' },
      empty_val: { type: 'string', 'x-mcp-header': 'EmptyVal' },
      method_val: { type: 'string', 'x-mcp-header': 'Method' },
      float_val: { type: 'number' },
      non_ascii_val: { type: 'string', 'x-mcp-header': 'NonAscii' },
      whitespace_val: { type: 'string', 'x-mcp-header': 'Whitespace' },
      leading_space_val: { type: 'string', 'x-mcp-header': 'LeadingSpace' },
      trailing_space_val: { type: 'string', 'x-mcp-header': 'TrailingSpace' },
      internal_space_val: { type: 'string', 'x-mcp-header': 'InternalSpace' },
      control_char_val: { type: 'string', 'x-mcp-header': 'ControlChar' },
      crlf_val: { type: 'string', 'x-mcp-header': 'CrLf' },
      tab_val: { type: 'string', 'x-mcp-header': 'Tab' },
      lookalike_val: { type: 'string', 'x-mcp-header': 'Lookalike' },
      location: {
        type: 'object',
        properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } },
      },
      query: { type: 'string' },
    },
  },
};

const CUSTOM_ARGUMENTS = {
  region: 'us-west1',
  priority: 42,
  verbose: false,
  debug: true,
  empty_val: '',
  method_val: 'test-method',
  float_val: 3.14159,
  non_ascii_val: 'Hello, 世界',
  whitespace_val: ' padded ',
  leading_space_val: ' us-west1',
  trailing_space_val: 'us-west1 ',
  internal_space_val: 'us west 1',
  control_char_val: 'line1\nline2',
  crlf_val: 'line1\r\nline2',
  tab_val: '\tindented',
  lookalike_val: '=?base64?SGk=?=',
  location: { zone: 'eu-1' },
  query: 'SELECT * FROM users',
};

const VALID_TOOL = {
  name: 'valid_tool',
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
};

/** The ten invalid tools of the conformance scenario `http-invalid-tool-headers`, and three more. */
const INVALID_TOOLS = [
  ['invalid_empty_header', { value: { type: 'string', 'x-mcp-header': '' } }],
  ['invalid_object_header', { data: { type: 'object', 'x-mcp-header': 'Data' } }],
  ['invalid_array_header', { items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }],
  ['invalid_null_header', { nil: { type: 'null', 'x-mcp-header': 'Nil' } }],
  [
    'invalid_duplicate_same_case',
    {
      field1: { type: 'string', 'x-mcp-header': 'Region' },
      field2: { type: 'string', 'x-mcp-header': 'Region' },
    },
  ],
  [
    'invalid_duplicate_diff_case',
    {
      field1: { type: 'string', 'x-mcp-header': 'MyField' },
      field2: { type: 'string', 'x-mcp-header': 'myfield' },
    },
  ],
  ['invalid_space_in_name', { value: { type: 'string', 'x-mcp-header': 'My Region' } }],
  ['invalid_colon_in_name', { value: { type: 'string', 'x-mcp-header': 'Region:Primary' } }],
  ['invalid_non_ascii_name', { value: { type: 'string', 'x-mcp-header': 'Région' } }],
  ['invalid_control_char_name', { value: { type: 'string', 'x-mcp-header': 'Region\t1' } }],
  ['invalid_number_header', { ratio: { type: 'number', 'x-mcp-header': 'Ratio' } }],
  ['invalid_under_items', { list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }],
  ['invalid_under_any_of', { choice: { anyOf: [{ type: 'string', 'x-mcp-header': 'Choice' }] } }],
].map(([name, properties]) => ({ name: name as string, inputSchema: { type: 'object', properties } }));

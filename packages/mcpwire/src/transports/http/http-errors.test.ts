// FetchFailedError names what the network said, read from fetch's nested causes: real sockets on
// 127.0.0.1 for a refused port, a reserved unknown host for DNS, Node's own AggregateError for a host
// with several addresses. And over Streamable HTTP, silence during the era probe is an outage.

import assert from 'node:assert/strict';
import { connect as connectSocket } from 'node:net';
import { describe, it } from 'node:test';
import { freePort as closedPort } from '../../../../../test/support/free-port.ts';
import { settle, FakeHttpServer } from '../../../test/support/fake-http-server.ts';
import { Client, ConnectTimeoutError } from '../../client/index.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';
import { describeNetworkError, FetchFailedError, HttpError } from './http-errors.ts';
import { Fetcher } from './http-fetcher.ts';

/** What fetch rejects with for `url`, as a FetchFailedError from the Fetcher. */
async function fetchFailure(url: string, fetcher = new Fetcher()): Promise<FetchFailedError> {
  try {
    await fetcher.send({ method: 'POST', url: new URL(url), body: '{}' });
  } catch (error) {
    assert.ok(error instanceof FetchFailedError, String(error));
    return error;
  }
  assert.fail(`${url} answered`);
}

/** The error Node's socket gives when every address of a host refuses: an AggregateError. */
async function refusedByEveryAddress(port: number): Promise<Error> {
  return new Promise((resolve) => {
    const socket = connectSocket({
      host: 'dual-stack.test',
      port,
      autoSelectFamily: true,
      lookup: (_host, _options, callback) =>
        callback(null, [
          { address: '::1', family: 6 },
          { address: '127.0.0.1', family: 4 },
        ]),
    });
    socket.on('error', resolve);
  });
}

describe('FetchFailedError', () => {
  it('a refused port: the message names the request and the socket error; the cause is kept', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const error = await fetchFailure(url);
    assert.equal(error.code, 'FETCH_FAILED');
    assert.equal(error.message, `POST ${url} failed: connect ECONNREFUSED 127.0.0.1:${port}`);
    assert.equal(error.url, url);
    assert.equal(error.requestMethod, 'POST');
    // Node's default requester rejects with the socket's own error.
    assert.equal((error.cause as { code?: unknown }).code, 'ECONNREFUSED', 'the socket error, unchanged');
    const viaFetch = await fetchFailure(url, new Fetcher({ fetch: (request) => fetch(request) }));
    assert.equal(viaFetch.message, error.message, 'the same message through fetch');
    assert.ok(viaFetch.cause instanceof TypeError, 'what fetch rejected with, unchanged');
    assert.equal((viaFetch.cause.cause as { code?: unknown }).code, 'ECONNREFUSED');
  });

  it('an unknown host: the message names the DNS failure and the host', async () => {
    const error = await fetchFailure('http://nonexistent.invalid:8080/mcp');
    // ENOTFOUND; EAI_AGAIN where the machine has no resolver to ask.
    assert.match(
      error.message,
      /^POST http:\/\/nonexistent\.invalid:8080\/mcp failed: getaddrinfo (ENOTFOUND|EAI_AGAIN) nonexistent\.invalid$/,
    );
  });

  it('a host whose every address refuses: each address is named (AggregateError)', async () => {
    const port = await closedPort();
    const aggregate = await refusedByEveryAddress(port);
    assert.ok(aggregate instanceof AggregateError);
    // What undici does with it: fetch rejects with a bare TypeError whose cause is the socket error.
    const undiciLike = () => Promise.reject(new TypeError('fetch failed', { cause: aggregate }));
    const error = await fetchFailure('http://dual-stack.test/mcp', new Fetcher({ fetch: undiciLike }));
    assert.equal(
      error.message,
      `POST http://dual-stack.test/mcp failed: connect ECONNREFUSED ::1:${port}; connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('reads codes a message lacks, keeps messages that are not fetch wrappers, stops at a cycle', () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    assert.equal(
      describeNetworkError(new TypeError('fetch failed', { cause: socket })),
      'other side closed (UND_ERR_SOCKET)',
    );
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('token refresh failed', {
      cause: new TypeError('fetch failed', { cause: refused }),
    });
    assert.equal(describeNetworkError(wrapped), 'token refresh failed: connect ECONNREFUSED 10.0.0.1:443');
    assert.equal(describeNetworkError(new TypeError('fetch failed')), 'fetch failed');
    const cyclic = new Error('loop');
    cyclic.cause = cyclic;
    assert.equal(describeNetworkError(cyclic), 'loop');
    assert.equal(describeNetworkError('offline'), 'offline');
  });
});

describe('HttpError.isRefusal', () => {
  it('is the contract refusal for 400, 404 and 405; not for authorization or outages (issue 23)', () => {
    const error = (status: number) =>
      new HttpError({
        requestMethod: 'POST',
        url: 'http://127.0.0.1/mcp',
        status,
        body: '',
        headers: new Headers(),
      });
    for (const status of [400, 404, 405]) assert.equal(error(status).isRefusal, true, String(status));
    for (const status of [401, 403, 406, 500, 502, 503])
      assert.equal(error(status).isRefusal, false, String(status));
  });
});

describe('Client.connect over Streamable HTTP', () => {
  it('a refused port rejects with the FetchFailedError that names it, not an era verdict', async () => {
    const port = await closedPort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const client = new Client({ name: 'http-test', version: '1' }, { eraCache: false });
    await assert.rejects(client.connect(new StreamableHttpClientTransport(url)), {
      name: 'FetchFailedError',
      message: `POST ${url} failed: connect ECONNREFUSED 127.0.0.1:${port}`,
    });
  });

  it('a probe that gets no answer is an outage (2026-07-28 section 3.3): ConnectTimeoutError, no initialize', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const server = new FakeHttpServer(
      (request) =>
        new Promise<Response>((_resolve, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        ),
    );
    const transport = new StreamableHttpClientTransport('http://localhost/mcp', { fetch: server.fetch });
    const client = new Client({ name: 'http-test', version: '1' }, { eraCache: false, probeTimeoutMs: 400 });
    const outcome: { error?: unknown } = {};
    const connecting = client.connect(transport).catch((error: unknown) => (outcome.error = error));
    await settle();
    t.mock.timers.tick(400);
    await connecting;
    assert.ok(outcome.error instanceof ConnectTimeoutError, String(outcome.error));
    assert.equal(outcome.error.step, 'server/discover');
    assert.match(outcome.error.message, /^server\/discover: no answer within 400 ms; over Streamable HTTP/);
    const methods = server.ofMethod('POST').map((request) => (request.body as { method?: string }).method);
    assert.equal(methods[0], 'server/discover');
    assert.ok(!methods.includes('initialize'), methods.join(', '));
  });
});

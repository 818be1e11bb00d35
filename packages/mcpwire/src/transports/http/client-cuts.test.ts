// The Streamable HTTP client when the network cuts a connection at an exact byte (issue 13, found by
// the soak): every cut reaches the caller as a failure it can act on, never as a silent wait, and a
// request that may have acted is never repeated behind the caller's back. Real sockets on 127.0.0.1
// through a TCP proxy that cuts where the test says.

import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { createFixtureServer } from '../../../test/support/fixture-server.ts';
import { startTcpCutProxy, type CutRule } from '../../../test/support/tcp-cut-proxy.ts';
import { Client } from '../../client/index.ts';
import type { Server } from '../../server/index.ts';
import { StreamableHttpClientTransport } from './client-transport.ts';
import { createHttpHandler } from './handler.ts';
import { AnswerUndeliveredError, FetchFailedError, ResponseStreamLostError } from './http-errors.ts';
import { serveHttp } from './node.ts';
import type { ReconnectionOptions } from './response-stream.ts';

const CLIENT_INFO = { name: 'client-cuts', version: '1.0.0' };
/** Far above any exchange here: a test that hits it has found a silent loss. */
const REQUEST_TIMEOUT_MS = 30_000;

/** Serves `server` on 127.0.0.1 behind a proxy that applies `rules`. */
async function serveBehindProxy(server: Server, rules: readonly CutRule[]) {
  const handle = await serveHttp(createHttpHandler(server, { keepAliveMs: 0, retryMs: 0 }), { port: 0 });
  const proxy = await startTcpCutProxy(Number(new URL(handle.url).port), rules);
  return {
    proxy,
    [Symbol.asyncDispose]: async () => {
      await proxy[Symbol.asyncDispose]();
      await handle.close();
    },
  };
}

async function connect(
  url: string,
  era: 'handshake' | 'stateless',
  options: { reconnection?: Partial<ReconnectionOptions>; answer?: () => void } = {},
): Promise<Client & AsyncDisposable> {
  const client = new Client(CLIENT_INFO, {
    era,
    eraCache: false,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    handlers: {
      elicitation: () => {
        options.answer?.();
        return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
      },
    },
    onError: () => {},
  });
  const transport = new StreamableHttpClientTransport(url, {
    reconnection: { initialDelayMs: 0, ...options.reconnection },
    onError: () => {},
  });
  await client.connect(transport);
  return Object.assign(client, { [Symbol.asyncDispose]: () => client.close() });
}

/** A tool that counts its runs and reports progress (when asked to) before it answers: an SSE answer. */
function countingServer(): { server: Server; runs: () => number } {
  const server = createFixtureServer();
  let runs = 0;
  server.tool({ name: 'count_run', description: 'Counts its runs.' }, async (_args, ctx) => {
    runs++;
    await ctx.sendProgress(1, { total: 2 });
    await delay(20, undefined, { signal: ctx.signal });
    return `run ${runs}`;
  });
  return { server, runs: () => runs };
}

describe('a JSON response body cut mid-way', () => {
  it('reaches a handshake-era caller as ResponseStreamLostError naming the method and the JSON body, not a bare TypeError', async () => {
    await using served = await serveBehindProxy(createFixtureServer(), [
      { direction: 'response', after: '"result":{"content"', offset: 12 },
    ]);
    await using client = await connect(served.proxy.url, 'handshake');
    await assert.rejects(
      client.callTool({ name: 'test_simple_text' }),
      (error: Error) =>
        error instanceof ResponseStreamLostError &&
        /"tools\/call" was lost: the connection closed in the middle of its JSON body of \d+ bytes: other side closed/.test(
          error.message,
        ),
    );
    assert.deepEqual(served.proxy.cuts, [1]);
  });

  it('S26-HTTP-8: a stateless-era read (tools/list) whose JSON body is cut is re-issued with a new id and answered', async () => {
    await using served = await serveBehindProxy(createFixtureServer(), [
      { direction: 'response', after: '"tools":[', offset: 20 },
    ]);
    await using client = await connect(served.proxy.url, 'stateless');
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'echo'));
    assert.deepEqual(served.proxy.cuts, [1], 'the first answer was cut');
  });
});

describe('a stateless-era tools/call whose response stream breaks', () => {
  it('S26-HTTP-8: is not re-issued behind the caller (the tool ran once); the caller gets ResponseStreamLostError', async () => {
    const { server, runs } = countingServer();
    await using served = await serveBehindProxy(server, [
      { direction: 'response', after: '"notifications/progress"', offset: 10 },
    ]);
    await using client = await connect(served.proxy.url, 'stateless');
    await assert.rejects(
      // Asking for progress makes the answer an SSE stream.
      client.callTool({ name: 'count_run' }, { onProgress: () => {} }),
      (error: Error) =>
        error instanceof ResponseStreamLostError &&
        /"tools\/call" was lost: .*the server may have acted on the request/.test(error.message),
    );
    assert.deepEqual(served.proxy.cuts, [1]);
    assert.equal(runs(), 1, 'the tool ran once: the client sent the call once');
    // The caller may decide to call again: that is a run of its own.
    const again = await client.callTool({ name: 'count_run' });
    assert.deepEqual(again.content, [{ type: 'text', text: 'run 2' }]);
  });
});

describe("a handshake-era answer to the server's elicitation whose POST is cut", () => {
  it('is posted again, and the tool call that asked completes', async () => {
    let answers = 0;
    await using served = await serveBehindProxy(createFixtureServer(), [
      { direction: 'request', after: '"result":{"action"', offset: 5 },
    ]);
    await using client = await connect(served.proxy.url, 'handshake', { answer: () => answers++ });
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } });
    assert.deepEqual(result.content, [
      { type: 'text', text: 'User response: accept {"username":"ada","email":"ada@example.com"}' },
    ]);
    assert.deepEqual(served.proxy.cuts, [1], 'the first answer POST was cut');
    assert.equal(answers, 1, 'the user was asked once; only the POST was repeated');
  });

  it('fails the tool call with AnswerUndeliveredError once every attempt is cut, instead of leaving it to time out', async () => {
    await using served = await serveBehindProxy(createFixtureServer(), [
      { direction: 'request', after: '"result":{"action"', offset: 5, times: 100 },
    ]);
    await using client = await connect(served.proxy.url, 'handshake', { reconnection: { maxAttempts: 2 } });
    await assert.rejects(
      client.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } }),
      (error: Error) =>
        error instanceof AnswerUndeliveredError &&
        error.cause instanceof FetchFailedError &&
        /"tools\/call" failed: the answer to the server's request \S+ could not be delivered/.test(
          error.message,
        ),
    );
    assert.deepEqual(served.proxy.cuts, [3], 'the first POST and two retries');
  });
});

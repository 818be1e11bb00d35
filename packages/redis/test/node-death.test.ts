// Issue 24, node death: three `serve everything --redis` nodes behind a real HAProxy in round-robin;
// a slow tool reports progress on its POST's SSE stream; the node holding that stream is SIGKILLed
// mid-call. Resumed with Last-Event-ID on another node, the stream gives every event written before
// the kill exactly once (event ids, progress sequence), then one error response for the call, whose
// handler died with its node (the request's lease ran out), and ends. The same through our Client
// and the official v1 and v2 clients, which resume by themselves.

import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError as V1McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as V2Client,
  ProtocolError as V2ProtocolError,
  StreamableHTTPClientTransport as V2Transport,
} from '@modelcontextprotocol/client';
import { Client, RpcError } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { SseFrames, type SseFrame } from './support/sse.ts';
import { RawHttpSession } from '../../../test/support/raw-mcp-http.ts';
import {
  haproxySkipReason,
  NODE_HEADER,
  startProxiedNodes,
  type ProxiedNodes,
} from '../../../test/support/redis-nodes.ts';
import { redisSkipReason, startRedisServer } from '../../../test/support/redis-server.ts';

/** The error code of a request whose serving node stopped before answering (docs/design.md). */
const HOLDER_STOPPED = -32004;

/** A call long enough to be killed in the middle of: progress every 100 ms for 10 minutes. */
const SLOW_CALL = { name: 'test_tool_slow', arguments: { durationMs: 600_000 } };

async function skipReason(): Promise<string | undefined> {
  return (await redisSkipReason()) ?? (await haproxySkipReason());
}

/** The node process that answered `response` through the proxy (its `node<n>` header). */
function nodeOf(cluster: ProxiedNodes, response: Response) {
  const name = response.headers.get(NODE_HEADER) ?? '';
  const node = cluster.nodes[Number(name.replace('node', '')) - 1];
  assert.ok(node, `the proxy named the node that answered: ${name}`);
  return node;
}

/** A GET through the proxy; a turn of the round-robin that meets the dead node (503) is taken again. */
async function getStream(url: string, headers: Record<string, string>): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, {
      method: 'GET',
      headers: { Accept: 'text/event-stream', ...headers },
    });
    if (response.status !== 503 || attempt === 5) return response;
    await response.text();
  }
}

interface Message {
  id?: unknown;
  method?: string;
  params?: { progress?: number; progressToken?: unknown };
  result?: unknown;
  error?: { code: number; message: string };
}

function messageOf(frame: SseFrame): Message | undefined {
  return frame.data === '' ? undefined : (JSON.parse(frame.data) as Message);
}

test('a node SIGKILLed mid-call: Last-Event-ID on another node gives every event once, then an error response for the call', async (t) => {
  const skip = await skipReason();
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisServer();
  await using cluster = await startProxiedNodes(redis.url);
  const session = await RawHttpSession.open(cluster.url);
  const headers = { 'Mcp-Session-Id': session.sessionId, 'MCP-Protocol-Version': session.protocolVersion };
  const call = await fetch(cluster.url, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { ...SLOW_CALL, _meta: { progressToken: 'slow' } },
    }),
  });
  assert.equal(call.status, 200);
  assert.match(call.headers.get('content-type') ?? '', /^text\/event-stream/);
  const holder = nodeOf(cluster, call);
  const frames = new SseFrames(call);
  const before: SseFrame[] = [];
  while (before.filter((frame) => frame.data !== '').length < 3) {
    const frame = await frames.next();
    assert.ok(frame, 'the stream carries progress before the kill');
    before.push(frame);
  }
  holder.child.kill('SIGKILL');
  // What the broken connection still delivers, if anything, until the proxy ends it.
  for (;;) {
    const frame = await frames.next().catch(() => undefined);
    if (frame === undefined) break;
    before.push(frame);
  }
  for (const frame of before) assert.ok(frame.id, 'every event has an id');
  const progressed = before.filter((frame) => messageOf(frame)?.method === 'notifications/progress');
  // Resume after the second progress event: the replay must carry the third, and every later one, once.
  const resumeAt = before.indexOf(progressed[1]!);
  const lastEventId = before[resumeAt]!.id!;
  const resumed = await getStream(cluster.url, { ...headers, 'Last-Event-ID': lastEventId });
  assert.equal(resumed.status, 200, `the resumption GET: ${resumed.status}`);
  assert.notEqual(nodeOf(cluster, resumed), holder);
  const after = await new SseFrames(resumed).rest();

  const ids = after.map((frame) => frame.id);
  assert.equal(new Set(ids).size, ids.length, `no event twice: ${JSON.stringify(ids)}`);
  const delivered = before.slice(resumeAt + 1).map((frame) => frame.id);
  assert.deepEqual(ids.slice(0, delivered.length), delivered, 'the replay starts with what the client had');
  const messages = after.map(messageOf).filter((message) => message !== undefined);
  const answers = messages.filter((message) => message.id === 7);
  assert.equal(answers.length, 1, `one response for the call: ${JSON.stringify(messages.slice(-3))}`);
  const [answer] = answers;
  assert.equal(messages.at(-1), answer, 'the response is the last message of the stream');
  assert.equal(answer!.error?.code, HOLDER_STOPPED, JSON.stringify(answer));
  assert.match(answer!.error.message, /stopped before answering/);
  // The progress values, before and after the resumption, are 100, 200, 300, ... with no gap or repeat.
  const values = [
    ...before.slice(0, resumeAt + 1).map(messageOf),
    ...messages.filter((message) => message.method === 'notifications/progress'),
  ]
    .filter((message) => message?.method === 'notifications/progress')
    .map((message) => message!.params!.progress);
  assert.ok(values.length >= 3);
  assert.deepEqual(
    values,
    values.map((_value, index) => (index + 1) * 100),
  );
});

/** A client of the slow call, whichever it is: how it connects with a given fetch, how it calls, what code its error carries. */
interface SlowCaller {
  connect(
    url: string,
    fetch: typeof globalThis.fetch,
  ): Promise<{
    callSlow(onProgress: (progress: number) => void): Promise<unknown>;
    close(): Promise<void>;
  }>;
  /** The JSON-RPC error code of the client's error for an error response, else undefined. */
  codeOf(error: unknown): number | undefined;
}

/** Reconnection options of the official clients: at once, then soon, ten times at most. */
const OFFICIAL_RECONNECTION = {
  initialReconnectionDelay: 0,
  maxReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 1.5,
  maxRetries: 10,
};

/**
 * Through the proxy: `caller` calls the slow tool, the node holding the call's stream is SIGKILLed
 * after the third progress; the client resumes by itself on another node, its call rejects with the
 * -32004 error response and every progress value arrived once, in order.
 */
/** What a test does with the proxied nodes: `callResponse` is the response to the POST calling its tool. */
type NodesRun = (
  cluster: ProxiedNodes,
  watchingFetch: typeof fetch,
  callResponse: Promise<Response>,
) => Promise<void>;

/**
 * Redis and three proxied nodes for one test (skipped without redis-server or HAProxy), and a fetch
 * that hands over the response to the POST calling `tool`: its node header names the call's holder.
 */
async function withNodesWatchingCall(t: TestContext, tool: string, run: NodesRun): Promise<void> {
  const skip = await skipReason();
  if (skip !== undefined) return t.skip(skip);
  await using redis = await startRedisServer();
  await using cluster = await startProxiedNodes(redis.url);
  let callAnswered: ((response: Response) => void) | undefined;
  const callResponse = new Promise<Response>((resolve) => (callAnswered = resolve));
  const watchingFetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    const isCall = request.method === 'POST' && (await request.clone().text()).includes(tool);
    const response = await fetch(request);
    if (isCall) callAnswered?.(response);
    return response;
  };
  await run(cluster, watchingFetch, callResponse);
}

function holderKilledMidCall(t: TestContext, caller: SlowCaller): Promise<void> {
  return withNodesWatchingCall(t, 'test_tool_slow', async (cluster, watchingFetch, callResponse) => {
    const client = await caller.connect(cluster.url, watchingFetch);
    t.after(() => client.close());
    const values: number[] = [];
    let killing: (() => void) | undefined;
    const isThird = new Promise<void>((resolve) => (killing = resolve));
    const calling = client.callSlow((progress) => {
      values.push(progress);
      if (values.length === 3) killing?.();
    });
    const holder = nodeOf(cluster, await callResponse);
    await isThird;
    holder.child.kill('SIGKILL');
    const error = await calling.then(
      (result) => assert.fail(`the call was answered: ${JSON.stringify(result)}`),
      (error: unknown) => error,
    );
    assert.equal(caller.codeOf(error), HOLDER_STOPPED, `an error response, not ${String(error)}`);
    assert.deepEqual(
      values,
      values.map((_value, index) => (index + 1) * 100),
      'every progress value once, in order',
    );
  });
}

test('our Client through the proxy: the call whose node was SIGKILLed rejects with the error response, progress seen once each', (t) =>
  holderKilledMidCall(t, {
    connect: async (url, fetch) => {
      const client = new Client({ name: 'node-death', version: '1' }, { era: 'handshake' });
      await client.connect(
        new StreamableHttpClientTransport(url, {
          reconnection: { initialDelayMs: 0, maxAttempts: 10 },
          onError: () => {},
          fetch,
        }),
      );
      return {
        callSlow: (onProgress) =>
          client.callTool(SLOW_CALL, { onProgress: (progress) => onProgress(progress.progress) }),
        close: () => client.close(),
      };
    },
    codeOf: (error) => (error instanceof RpcError ? error.code : undefined),
  }));

test('the official v2 client through the proxy: the call whose node was SIGKILLed rejects with the -32004 error, progress seen once each', (t) =>
  holderKilledMidCall(t, {
    connect: async (url, fetch) => {
      const client = new V2Client(
        { name: 'node-death-v2', version: '2.0.0' },
        { versionNegotiation: { mode: 'legacy' }, supportedProtocolVersions: ['2025-11-25'] },
      );
      await client.connect(
        new V2Transport(new URL(url), { reconnectionOptions: OFFICIAL_RECONNECTION, fetch }),
      );
      return {
        callSlow: (onProgress) =>
          client.callTool(SLOW_CALL, { onprogress: (progress) => onProgress(progress.progress) }),
        close: () => client.close(),
      };
    },
    codeOf: (error) => (error instanceof V2ProtocolError ? error.code : undefined),
  }));

test('the official v1 client through the proxy: the call whose node was SIGKILLed rejects with the -32004 error, progress seen once each', (t) =>
  holderKilledMidCall(t, {
    connect: async (url, fetch) => {
      const client = new V1Client({ name: 'node-death-v1', version: '1.0.0' });
      await client.connect(
        new V1Transport(new URL(url), { reconnectionOptions: OFFICIAL_RECONNECTION, fetch }),
      );
      return {
        callSlow: (onProgress) =>
          client.callTool(SLOW_CALL, undefined, { onprogress: (progress) => onProgress(progress.progress) }),
        close: () => client.close(),
      };
    },
    codeOf: (error) => (error instanceof V1McpError ? error.code : undefined),
  }));

test('our Client through the proxy: a call waiting for its elicitation answer when its node is SIGKILLed rejects with the error response (the answer goes to a dead node)', (t) =>
  withNodesWatchingCall(
    t,
    'test_input_required_result_elicitation',
    async (cluster, watchingFetch, callResponse) => {
      let holderKilled: Promise<void> | undefined;
      const client = new Client(
        { name: 'node-death-elicitation', version: '1' },
        {
          era: 'handshake',
          handlers: {
            // The answer is given only after the call's node is dead.
            elicitation: async () => {
              const holder = nodeOf(cluster, await callResponse);
              holder.child.kill('SIGKILL');
              await (holderKilled ??= new Promise((resolve) => holder.child.once('exit', () => resolve())));
              return { action: 'accept', content: { name: 'after the kill' } };
            },
          },
        },
      );
      await client.connect(
        new StreamableHttpClientTransport(cluster.url, {
          reconnection: { initialDelayMs: 0, maxAttempts: 10 },
          onError: () => {},
          fetch: watchingFetch,
        }),
      );
      t.after(() => client.close());
      const error = await client
        .callTool({ name: 'test_input_required_result_elicitation', arguments: {} }, { timeoutMs: 40_000 })
        .then(
          (result) => assert.fail(`the call was answered: ${JSON.stringify(result)}`),
          (error: unknown) => error,
        );
      assert.equal(error instanceof RpcError ? error.code : undefined, HOLDER_STOPPED, String(error));
    },
  ));

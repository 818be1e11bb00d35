// Issue 14: a Worker deployed across isolates. Two workerd instances (miniflare, two processes that share
// no memory) serve one bundle behind a round-robin forwarder on 127.0.0.1, so a client's consecutive
// requests reach alternate isolates, as they may on Cloudflare. With `sessions: false`
// (fixtures/worker-isolates.ts) the handshake era works anyway, for our client and for the official v1
// client, which speaks only that era; the stateless era finishes an `input_required` round across
// isolates with the shared requestState secret. The default handler's session is unknown to the other
// isolate: 404.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  Client as OfficialClient,
  StreamableHTTPClientTransport as OfficialHttpTransport,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';
import { bundleFor } from './edge-bundle.ts';
import { textOf, type Loose } from './http-script.ts';
import { startRuntime, type RuntimeHost } from './runtime-host.ts';

const TIMEOUT = 120_000;
const SECRET = 'one requestState secret for every isolate';
const home = mkdtempSync(join(tmpdir(), 'mcpwire-edge-isolates-'));
const hosts: RuntimeHost[] = [];
let sessionless: RoundRobin;
let sessionful: RoundRobin;

/** Forwards each request to the next upstream in turn, streaming the answer back; counts the hits. */
class RoundRobin {
  readonly hits: number[];
  readonly #server: HttpServer;
  #next = 0;

  constructor(readonly upstreams: readonly string[]) {
    this.hits = upstreams.map(() => 0);
    this.#server = createServer((incoming, outgoing) => {
      const index = this.#next++ % upstreams.length;
      this.hits[index]!++;
      void forward(upstreams[index]!, incoming, outgoing);
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address() as { port: number };
    return `http://127.0.0.1:${address.port}/mcp`;
  }

  close(): Promise<void> {
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** Headers of one hop, which fetch sets for its own (the body is re-framed, and decoded). */
const HOP_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-encoding',
]);

async function forward(
  upstream: string,
  incoming: import('node:http').IncomingMessage,
  outgoing: import('node:http').ServerResponse,
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (!HOP_HEADERS.has(name) && typeof value === 'string') headers.set(name, value);
  }
  const controller = new AbortController();
  outgoing.on('close', () => controller.abort());
  try {
    const response = await fetch(upstream, {
      method: incoming.method ?? 'GET',
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      signal: controller.signal,
    });
    const answer = [...response.headers].filter(([name]) => !HOP_HEADERS.has(name));
    outgoing.writeHead(response.status, Object.fromEntries(answer));
    if (response.body) for await (const chunk of response.body) outgoing.write(chunk);
    outgoing.end();
  } catch {
    outgoing.destroy();
  }
}

async function twoIsolates(fixture: string): Promise<RoundRobin> {
  const outDir = join(home, fixture);
  const bundle = await bundleFor(fixture, 'workerd', { outDir });
  const started = await Promise.all(
    [0, 1].map(() =>
      startRuntime('workerd', bundle.file, outDir, { bindings: { MCP_STATE_SECRET: SECRET } }),
    ),
  );
  hosts.push(...started);
  return new RoundRobin(started.map((host) => host.url));
}

let sessionlessUrl: string;
let sessionfulUrl: string;

before(async () => {
  sessionless = await twoIsolates('worker-isolates.ts');
  sessionful = await twoIsolates('worker.ts');
  sessionlessUrl = await sessionless.listen();
  sessionfulUrl = await sessionful.listen();
});

after(async () => {
  await sessionless?.close();
  await sessionful?.close();
  await Promise.all(hosts.map((host) => host[Symbol.asyncDispose]()));
  rmSync(home, { recursive: true, force: true });
});

/** The hits of each isolate since `before`. */
function hitsSince(robin: RoundRobin, before: readonly number[]): number[] {
  return robin.hits.map((hits, index) => hits - before[index]!);
}

test(
  'our client speaks the handshake era across isolates without sessions',
  { timeout: TIMEOUT },
  async () => {
    const start = [...sessionless.hits];
    const client = new Client(
      { name: 'mcpwire-client', version: '1.0.0' },
      {
        era: 'handshake',
        eraCache: false,
        handlers: { elicitation: () => ({ action: 'accept', content: { ok: true } }) },
      },
    );
    await client.connect(new StreamableHttpClientTransport(sessionlessUrl));
    try {
      assert.equal(client.era, 'handshake');
      const tools = await client.listAllTools();
      assert.deepEqual(
        tools.map((tool) => tool.name),
        ['echo', 'confirm'],
      );
      const bad = await client.callTool({ name: 'echo', arguments: { text: 5 } });
      assert.equal(textOf(bad), 'Invalid arguments for tool "echo": /text: must be string');
      assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'hi' } })), 'echo: hi');
      // No session, so no way to ask this client anything in the handshake era: the tool says so.
      const asked = await client.callTool({ name: 'confirm', arguments: {} });
      assert.equal(asked.isError, true);
      assert.equal(
        textOf(asked),
        'Cannot send "elicitation/create": the client capability "elicitation" was not negotiated',
      );
    } finally {
      await client.close();
    }
    assert.ok(hitsSince(sessionless, start).every((hits) => hits >= 2));
  },
);

test('the official v1 client completes its session across isolates', { timeout: TIMEOUT }, async () => {
  const start = [...sessionless.hits];
  const client = new V1Client({ name: 'official-v1', version: '1.0.0' });
  await client.connect(new V1HttpTransport(new URL(sessionlessUrl)));
  try {
    assert.equal(client.getServerVersion()?.name, 'edge-echo');
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['echo', 'confirm'],
    );
    const result = (await client.callTool({ name: 'echo', arguments: { text: 'v1' } })) as Loose;
    assert.equal(textOf(result), 'echo: v1');
  } finally {
    await client.close();
  }
  assert.ok(hitsSince(sessionless, start).every((hits) => hits >= 1));
});

test('the official v2 client completes its session across isolates', { timeout: TIMEOUT }, async () => {
  const start = [...sessionless.hits];
  const client = new OfficialClient(
    { name: 'official-v2', version: '2.0.0' },
    { versionNegotiation: { mode: 'auto' }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { ok: true } }));
  await client.connect(new OfficialHttpTransport(new URL(sessionlessUrl)));
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['echo', 'confirm'],
    );
    assert.equal(textOf(await client.callTool({ name: 'echo', arguments: { text: 'v2' } })), 'echo: v2');
    assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed');
  } finally {
    await client.close();
  }
  assert.ok(hitsSince(sessionless, start).every((hits) => hits >= 1));
});

test(
  'the stateless era continues an input_required round on the other isolate',
  { timeout: TIMEOUT },
  async () => {
    const start = [...sessionless.hits];
    const asked: string[] = [];
    const client = new Client(
      { name: 'mcpwire-client', version: '1.0.0' },
      {
        era: 'stateless',
        eraCache: false,
        handlers: {
          elicitation: (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { ok: true } };
          },
        },
      },
    );
    await client.connect(new StreamableHttpClientTransport(sessionlessUrl));
    try {
      assert.equal(textOf(await client.callTool({ name: 'confirm', arguments: {} })), 'confirmed');
      assert.deepEqual(asked, ['Go ahead?']);
    } finally {
      await client.close();
    }
    assert.ok(hitsSince(sessionless, start).every((hits) => hits >= 1));
  },
);

test(
  'with sessions (the default), the other isolate does not know the session: 404',
  { timeout: TIMEOUT },
  async () => {
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(sessionfulUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(body),
      });
    const opened = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    assert.equal(opened.status, 200);
    const sessionId = opened.headers.get('mcp-session-id');
    assert.ok(sessionId);
    await opened.text();
    const listed = await post(
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    );
    assert.equal(listed.status, 404);
    assert.equal(((await listed.json()) as Loose)['error'].message, 'Session not found');
  },
);

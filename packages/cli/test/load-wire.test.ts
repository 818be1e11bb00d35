// `mcpwire load`'s wire engine sends what the library's Client sends: for the same call, in both
// eras and over both transports, the engine's requests (ids from 2^40) equal the Client's first one
// (method, path, the MCP headers, the JSON body byte for byte) but for the id. What was sent is
// recorded between the command and our fixture server: over stdio by a wrapper that copies stdin to
// a file, over HTTP by a recording proxy.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { FIXTURES, MCPWIRE, runCli } from './support/cli-process.ts';
import { PtyProcess } from './support/pty-process.ts';

const SERVER = join(FIXTURES, 'load-server.ts');
const ENGINE_IDS = 2 ** 30;
/** The headers whose value the MCP transport sets; compared between the Client's and the engine's requests. */
const MCP_HEADERS = /^(mcp-|accept$|content-type$|authorization$)/;
const dir = mkdtempSync(join(tmpdir(), 'mcpwire-load-wire-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** One request as sent: method, path, the MCP headers, the body with its id set to 0. */
interface Sent {
  id: number;
  wire: { method: string; path: string; headers: Record<string, string>; body: string };
}

/** `body` with the message's id (the first "id" member of the JSON-RPC message) set to 0. */
function withoutId(body: string): { id: number; body: string } {
  const match = /^\{"jsonrpc":"2\.0","id":(\d+),/.exec(body);
  assert.ok(match !== null, `a request starting {"jsonrpc":"2.0","id":N,: ${body.slice(0, 80)}`);
  return { id: Number(match[1]), body: body.replace(`"id":${match[1]},`, '"id":0,') };
}

/** The tools/call requests of `sent`, split into the Client's and the engine's; both must be there. */
function assertSameWire(sent: readonly Sent[]): void {
  const client = sent.filter((item) => item.id < ENGINE_IDS);
  const engine = sent.filter((item) => item.id >= ENGINE_IDS);
  // The first call of each worker that starts before the template is known goes through the Client.
  assert.ok(client.length >= 1 && client.length <= 2, `the Client sent the first call(s) (${client.length})`);
  assert.ok(engine.length >= 10, `the engine sent the others (${engine.length})`);
  for (const item of [...client, ...engine]) assert.deepEqual(item.wire, client[0]!.wire);
}

function loadArgs(era: string): string[] {
  return [
    'load',
    '--era',
    era,
    '--call',
    'echo',
    'message=same wire',
    '-n',
    '12',
    '--warmup',
    '0',
    '-c',
    '2',
  ];
}

/** The fixture over HTTP (`mcpwire serve <file> --http 0` on a pty); dispose to stop it. */
async function httpServer(): Promise<AsyncDisposable & { url: string }> {
  const pty = new PtyProcess([...MCPWIRE, 'serve', SERVER, '--http', '0']);
  try {
    const url = await pty.waitFor(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
    return { url, [Symbol.asyncDispose]: () => pty[Symbol.asyncDispose]() };
  } catch (error) {
    await pty[Symbol.asyncDispose]();
    throw error;
  }
}

/** A proxy in front of `upstream` that records every request it passes on. */
async function recordingProxy(upstream: string): Promise<AsyncDisposable & { url: string; sent: Sent[] }> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true });
  const sent: Sent[] = [];
  const proxy = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const text = body.toString('utf8');
      if (request.method === 'POST' && text.includes('"method":"tools/call"')) {
        const { id, body: same } = withoutId(text);
        const wire = {
          method: request.method,
          path: request.url!,
          headers: mcpHeaders(request.headers),
          body: same,
        };
        sent.push({ id, wire });
      }
      const forward = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: request.url,
          method: request.method,
          headers: request.headers,
          agent,
        },
        (answer) => {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', () => response.destroy());
      forward.end(body);
    });
  });
  proxy.listen(0, '127.0.0.1');
  await once(proxy, 'listening');
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}${target.pathname}`,
    sent,
    [Symbol.asyncDispose]: async () => {
      proxy.closeAllConnections();
      proxy.close();
      agent.destroy();
      await once(proxy, 'close');
    },
  };
}

function mcpHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (MCP_HEADERS.test(name) && value !== undefined) kept[name] = String(value);
  return kept;
}

describe("mcpwire load: the engine's requests equal the Client's", { concurrency: 2 }, () => {
  for (const era of ['handshake', 'stateless'] as const) {
    test(`over stdio, --era ${era}`, async () => {
      const log = join(dir, `stdio-${era}.log`);
      const run = await runCli([
        ...loadArgs(era),
        '--json',
        '--',
        process.execPath,
        join(FIXTURES, 'record-stdin.mjs'),
        log,
        ...MCPWIRE,
        'serve',
        SERVER,
      ]);
      assert.equal(run.code, 0, run.stderr);
      const sent = readFileSync(log, 'utf8')
        .split('\n')
        .filter((line) => line.includes('"method":"tools/call"'))
        .map((line) => {
          const { id, body } = withoutId(line);
          return { id, wire: { method: 'stdio', path: '', headers: {}, body } };
        });
      assertSameWire(sent);
    });

    test(`over Streamable HTTP, --era ${era}`, async () => {
      await using server = await httpServer();
      await using proxy = await recordingProxy(server.url);
      const [command, ...rest] = loadArgs(era);
      const run = await runCli([command!, proxy.url, ...rest, '--connections', '1', '--json']);
      assert.equal(run.code, 0, run.stderr);
      const headers = proxy.sent[0]?.wire.headers ?? {};
      assert.ok('mcp-protocol-version' in headers, JSON.stringify(headers));
      if (era === 'stateless') assert.equal(headers['mcp-method'], 'tools/call');
      else assert.ok('mcp-session-id' in headers, JSON.stringify(headers));
      assertSameWire(proxy.sent);
    });
  }
});

// A server on a real socket that lists tools whose inputSchema and outputSchema nest 100,000 levels
// deep (issue 21): our Client over Streamable HTTP lists them (the header-annotation walk stops at
// its cap), a call to the deep-output tool fails with an error naming the depth, and the next
// request on the connection is answered.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Client, OutputValidationError } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';

const DEPTH = 100_000;

/** `{"type":"object","properties":{"a":` ... `}}` around `leaf`, `depth` levels of properties. */
function deepSchemaText(depth: number, leaf: string): string {
  return '{"type":"object","properties":{"a":'.repeat(depth) + leaf + '}}'.repeat(depth);
}

const TOOLS_TEXT =
  '{"tools":[' +
  `{"name":"deep-input","inputSchema":${deepSchemaText(DEPTH, '{"type":"string","x-mcp-header":"Deep"}')}},` +
  `{"name":"deep-output","inputSchema":{"type":"object"},"outputSchema":${deepSchemaText(DEPTH, '{"type":"string"}')}},` +
  '{"name":"bad-header","inputSchema":{"type":"object","properties":{"n":{"type":"object","x-mcp-header":"N"}}}}' +
  ']}';

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A handshake-era MCP server written by hand: every answer is JSON text, the deep ones built as text. */
function hostileServer(): HttpServer {
  return createServer((request, response) => {
    void (async () => {
      if (request.method !== 'POST') {
        response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
        return;
      }
      const message = JSON.parse(await readBody(request)) as { id?: number; method?: string };
      if (message.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      const result =
        message.method === 'initialize'
          ? '{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"deep","version":"1"}}'
          : message.method === 'tools/list'
            ? TOOLS_TEXT
            : message.method === 'tools/call'
              ? '{"content":[],"structuredContent":{"a":"x"}}'
              : '{}';
      response
        .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' })
        .end(`{"jsonrpc":"2.0","id":${message.id},"result":${result}}`);
    })();
  });
}

test('a server listing 100,000-deep schemas: the client lists, fails the deep call naming the depth, and goes on', async () => {
  const server = hostileServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  const reported: Error[] = [];
  const client = new Client({ name: 'deep-client', version: '1' }, { era: 'handshake' });
  try {
    await client.connect(
      new StreamableHttpClientTransport(url, { onError: (error) => reported.push(error) }),
    );
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['deep-input', 'deep-output'],
      'the deep tools are listed; the one with an invalid annotation is dropped',
    );
    assert.equal(reported.length, 1, reported.map((error) => error.message).join('\n'));
    assert.match(reported[0]!.message, /bad-header/);
    const call = client.callTool({ name: 'deep-output', arguments: {} });
    await assert.rejects(call, (error: unknown) => {
      assert.ok(error instanceof OutputValidationError, String(error));
      assert.match(error.message, /nested deeper than 256 levels/);
      assert.doesNotMatch(error.message, /call stack/);
      return true;
    });
    assert.deepEqual(await client.ping(), {});
  } finally {
    await client.close();
    server.closeAllConnections();
    server.close();
    await once(server, 'close');
  }
});

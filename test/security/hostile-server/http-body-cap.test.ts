// A server answers the Streamable HTTP client with a JSON body, or an error body, far larger than any
// answer needs: the client stops reading at its cap (16 MiB for JSON, 64 KiB for an error body only
// shown in a message), fails naming the cap, and cancels the body: the server sees its connection
// close before it could write all of it. A real server on 127.0.0.1 offering 64 MiB.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { Client } from 'mcpwire/client';
import { StreamableHttpClientTransport } from 'mcpwire/http';

const OFFERED = 64 * 1024 * 1024;

/** A server whose every answer is `status` with OFFERED bytes of `type` (chunked or with Content-Length); `wasCut` once it closed early. */
async function startFloodingServer(status: number, type: string, isChunked = false) {
  let isFinished = false;
  let closed: () => void = () => {};
  const cut = new Promise<void>((resolve) => (closed = resolve));
  const server = createServer((request, response) => {
    request.resume();
    response.writeHead(status, {
      'content-type': type,
      ...(isChunked ? {} : { 'content-length': String(OFFERED) }),
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = (): void => {
      while (sent < OFFERED) {
        sent += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', write);
      }
      response.end(() => (isFinished = true));
    };
    response.once('close', () => closed());
    write();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    wasCut: async () => (await cut, !isFinished),
    [Symbol.asyncDispose]: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function connectError(url: string): Promise<Error> {
  const client = new Client({ name: 'body-cap-test', version: '1.0.0' });
  const transport = new StreamableHttpClientTransport(url, { onError: () => {} });
  const failure = await client.connect(transport).then(
    () => assert.fail('connected'),
    (error: Error) => error,
  );
  await client.close().catch(() => {});
  return failure;
}

describe('the Streamable HTTP client caps the bodies it reads', { timeout: 120_000 }, () => {
  test('a JSON answer over 16 MiB: fails naming the cap, the rest is not read', async () => {
    await using server = await startFloodingServer(200, 'application/json');
    const failure = await connectError(server.url);
    assert.match(failure.message, /16777216 bytes|16 MiB/, failure.message);
    assert.equal(await server.wasCut(), true, 'the client read the whole 64 MiB');
  });

  test('a chunked JSON answer (no Content-Length) over 16 MiB: reading stops at the cap', async () => {
    await using server = await startFloodingServer(200, 'application/json', true);
    const failure = await connectError(server.url);
    assert.match(failure.message, /16777216 bytes|16 MiB/, failure.message);
    assert.equal(await server.wasCut(), true, 'the client read the whole 64 MiB');
  });

  test('an error body over 64 KiB: the HttpError keeps 64 KiB and says it was cut at the cap, the rest is not read', async () => {
    await using server = await startFloodingServer(500, 'text/plain');
    const failure = await connectError(server.url);
    assert.match(failure.message, /500/);
    const body = (failure as Error & { body?: string }).body ?? '';
    assert.match(body.slice(-200), /65536 bytes|64 KiB/, `the body kept ends ${body.slice(-100)}`);
    assert.ok(body.length < 65 * 1024, `${body.length} characters of body kept`);
    assert.equal(await server.wasCut(), true, 'the client read the whole 64 MiB');
  });
});

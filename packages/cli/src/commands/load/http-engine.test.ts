// The HTTP wire engine's callback path (`HttpEngine.send`), the one a closed-loop worker of `load`
// uses: a caller's request object, reused from one request to the next, settled with no promise,
// its timing filled as the stdio engine fills it (the write that carried it, the read of its
// answer), so `load` measures HTTP latency from write to answer as a hand-written driver does.
// Against a real node:http server on 127.0.0.1.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { JsonObject } from 'mcpwire';
import { HttpEngine, HttpStatusError } from './http-engine.ts';
import type { SendTiming } from './send-timing.ts';
import type { EngineRequest } from './timeout-sweep.ts';

/** A reused request: what the engine settled it with, in order. */
class RecordingRequest implements EngineRequest {
  method = 'tools/call';
  sentAt = 0;
  readonly timing: SendTiming = { sentAt: NaN, answeredAt: NaN };
  readonly outcomes: Array<{ result: JsonObject } | { error: unknown }> = [];
  #wake: (() => void) | undefined;

  resolve(result: JsonObject): void {
    this.outcomes.push({ result });
    this.#wake?.();
  }

  reject(error: unknown): void {
    this.outcomes.push({ error });
    this.#wake?.();
  }

  /** Resolves once `count` outcomes are in. */
  async settled(count: number): Promise<void> {
    while (this.outcomes.length < count) await new Promise<void>((resolve) => (this.#wake = resolve));
  }
}

/** Starts `http` on 127.0.0.1 and an engine to it. */
async function engineOf(http: Server): Promise<HttpEngine> {
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  const { port } = http.address() as AddressInfo;
  return new HttpEngine({
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    timeoutMs: 60_000,
    maxBodyBytes: 1024 * 1024,
  });
}

function closeServer(http: Server): void {
  http.close();
  http.closeAllConnections();
}

test('HttpEngine.send settles a reused request with no promise and fills its timing from write to answer', async () => {
  const http = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number };
      if (message.id === 3) return void response.writeHead(500).end();
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { n: message.id } }));
    });
  });
  const engine = await engineOf(http);
  try {
    const request = new RecordingRequest();
    const lines = 'content-type: application/json\r\naccept: application/json, text/event-stream\r\n';
    const body = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call' });
    for (const id of [1, 2]) {
      request.timing.sentAt = request.timing.answeredAt = NaN;
      engine.send(lines, body(id), id, request);
      assert.equal(request.outcomes.length, id - 1, 'settled before send returned');
      await request.settled(id);
      assert.deepEqual(request.outcomes[id - 1], { result: { n: id } });
      assert.ok(Number.isFinite(request.timing.sentAt), `request ${id}: no write time`);
      assert.ok(request.timing.answeredAt >= request.timing.sentAt, `request ${id}: no answer time`);
    }
    engine.send(lines, body(3), 3, request);
    await request.settled(3);
    const failure = request.outcomes[2] as { error: unknown };
    assert.ok(failure.error instanceof HttpStatusError && failure.error.status === 500);
  } finally {
    engine.close();
    closeServer(http);
  }
});

test('HttpEngine.send stamps an answer when its response is read whole, before its body is decoded', async () => {
  // What the hand-written driver of bench/load.ts measures: the read of the whole response. The
  // decoding (JSON.parse of the body) is the driver's own work after it, on both sides alike.
  const http = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"jsonrpc":"2.0","id":7,"result":{"decoded":true}}'),
    );
  });
  const engine = await engineOf(http);
  const parse = JSON.parse;
  let decodedAt = NaN;
  try {
    JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]): unknown => {
      if (typeof text === 'string' && text.includes('"decoded"')) decodedAt = performance.now();
      return parse(text, reviver);
    };
    const request = new RecordingRequest();
    engine.send('content-type: application/json\r\n', '{"jsonrpc":"2.0","id":7,"method":"ping"}', 7, request);
    await request.settled(1);
    assert.deepEqual(request.outcomes[0], { result: { decoded: true } });
    assert.ok(Number.isFinite(decodedAt), 'the body was decoded');
    assert.ok(
      request.timing.answeredAt <= decodedAt,
      `answered at ${request.timing.answeredAt}, after the body was decoded at ${decodedAt}`,
    );
  } finally {
    JSON.parse = parse;
    engine.close();
    closeServer(http);
  }
});
